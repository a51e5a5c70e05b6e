"""Game.last_hand_number: the number of the game's last active hand, filled from the hands already stored."""

from django.db import migrations, models

FILL = """
UPDATE tournaments_game SET last_hand_number = COALESCE((
    SELECT MAX(h.number) FROM tournaments_hand h WHERE h.game_id = tournaments_game.id AND h.status = 'active'
), 0)
"""


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="last_hand_number",
            field=models.PositiveIntegerField(default=0),
        ),
        migrations.RunSQL(FILL, reverse_sql=migrations.RunSQL.noop),
    ]
