"""Owners (issue 11 item 2), after the backfill of 0006: every club, player and pair has an owner (the house
organisation by default), and a club's name is unique within its owner instead of everywhere."""

import django.db.models.deletion
from django.db import migrations, models

import tournaments.models.organisations


def _owner(related_name):
    return models.ForeignKey(default=tournaments.models.organisations.house_organisation_id,
                             help_text="The organisation whose members may change it",
                             on_delete=django.db.models.deletion.PROTECT, related_name=related_name,
                             to="tournaments.organisation")


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0006_owners_and_organisations"),
    ]

    operations = [
        migrations.AlterField(model_name="club", name="owner", field=_owner("clubs")),
        migrations.AlterField(model_name="player", name="owner", field=_owner("players")),
        migrations.AlterField(model_name="pair", name="owner", field=_owner("pairs")),
        migrations.AlterField(model_name="club", name="name", field=models.CharField(max_length=120)),
        migrations.AddConstraint(
            model_name="club",
            constraint=models.UniqueConstraint(fields=("owner", "name"), name="club_name_unique_per_owner"),
        ),
    ]
