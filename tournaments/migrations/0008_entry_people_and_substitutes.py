"""What an entry records of who played (issue 11 item 3): the pair"s club and players at entry, filled here
from each entry"s pair as it is now (a pair"s players could change freely until now, so its present
players are the best record there is), and substitute players (``EntrySubstitution``)."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def record_pairs(apps, schema_editor):
    Entry = apps.get_model("tournaments", "Entry")
    batch = []
    for entry in Entry.objects.select_related("pair").only(
            "id", "pair__club_id", "pair__player_1_id", "pair__player_2_id").iterator(chunk_size=500):
        entry.club_id, entry.player_1_id = entry.pair.club_id, entry.pair.player_1_id
        entry.player_2_id = entry.pair.player_2_id
        batch.append(entry)
        if len(batch) >= 500:
            Entry.objects.bulk_update(batch, ["club", "player_1", "player_2"])
            batch = []
    if batch:
        Entry.objects.bulk_update(batch, ["club", "player_1", "player_2"])


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0007_owners_required"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="entry",
            name="club",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="tournaments.club"),
        ),
        migrations.AddField(
            model_name="entry",
            name="player_1",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="tournaments.player"),
        ),
        migrations.AddField(
            model_name="entry",
            name="player_2",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="+", to="tournaments.player"),
        ),
        migrations.AddField(
            model_name="entry",
            name="substitutions_count",
            field=models.PositiveSmallIntegerField(default=0),
        ),
        migrations.CreateModel(
            name="EntrySubstitution",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("round_from", models.PositiveIntegerField(help_text="The first round the substitute plays")),
                ("reason", models.CharField(blank=True, max_length=200)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("entry", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="substitutions", to="tournaments.entry")),
                ("in_player", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="tournaments.player")),
                ("out_player", models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="tournaments.player")),
                ("user", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
            ],
            options={
                "ordering": ["entry", "round_from", "id"],
                "constraints": [models.CheckConstraint(condition=models.Q(("out_player", models.F("in_player")), _negated=True), name="substitute_is_another")],
            },
        ),
        migrations.RunPython(record_pairs, migrations.RunPython.noop),
    ]
