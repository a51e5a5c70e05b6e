"""Owners (issue 11 item 2; docs/adr/0010-owners-and-organisations.md): organisations and their members, and
an owner on every club, player and pair, backfilled.

A record goes to the personal organisation of the organiser of the earliest tournament (by creation, then
id) that entered it: a pair through its entries, a player through the pairs it plays in, a club through
its pairs. Records that no organised tournament entered go to the house organisation (shared, no members:
staff look after it), made here when needed. Entries stay as they are. The owner becomes required, and a
club's name unique within its owner instead of everywhere, in migration 0007 (on PostgreSQL a table
cannot be altered in the transaction that updated its rows under a deferred foreign key).
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

HOUSE_SLUG = "house"


def _personal_name(user) -> str:
    full = f"{getattr(user, 'first_name', '')} {getattr(user, 'last_name', '')}".strip()
    return (full or getattr(user, "username", "") or f"user {user.pk}")[:120]


def backfill_owners(apps, schema_editor):
    Organisation = apps.get_model("tournaments", "Organisation")
    Member = apps.get_model("tournaments", "OrganisationMember")
    Role = apps.get_model("tournaments", "TournamentRole")
    Entry = apps.get_model("tournaments", "Entry")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    models_ = {name: apps.get_model("tournaments", name) for name in ("Club", "Player", "Pair")}

    organiser_of: dict[int, int] = {}
    for tournament_id, user_id in Role.objects.filter(role="organiser").order_by("id").values_list(
            "tournament_id", "user_id"):
        organiser_of.setdefault(tournament_id, user_id)

    personal: dict[int, int] = {}

    def personal_of(user_id: int) -> int:
        if user_id not in personal:
            org = Organisation.objects.filter(personal_user_id=user_id).first()
            if org is None:
                user = User.objects.get(pk=user_id)
                org = Organisation.objects.create(name=_personal_name(user), slug=f"personal-{user_id}",
                                                  kind="personal", personal_user_id=user_id)
                Member.objects.create(organisation=org, user_id=user_id, role="owner")
            personal[user_id] = org.pk
        return personal[user_id]

    owners: dict[str, dict[int, int]] = {"Club": {}, "Player": {}, "Pair": {}}
    rows = Entry.objects.order_by("tournament__created_at", "tournament_id", "id").values_list(
        "tournament_id", "pair_id", "pair__player_1_id", "pair__player_2_id", "pair__club_id")
    for tournament_id, pair_id, player_1, player_2, club_id in rows.iterator():
        user_id = organiser_of.get(tournament_id)
        if user_id is None:
            continue  # nobody organises it: a later tournament, or the house, owns the record
        org = personal_of(user_id)
        owners["Pair"].setdefault(pair_id, org)
        owners["Player"].setdefault(player_1, org)
        owners["Player"].setdefault(player_2, org)
        if club_id is not None:
            owners["Club"].setdefault(club_id, org)

    for name, model in models_.items():
        by_org: dict[int, list[int]] = {}
        for pk, org in owners[name].items():
            by_org.setdefault(org, []).append(pk)
        for org, pks in by_org.items():
            for start in range(0, len(pks), 500):
                model.objects.filter(pk__in=pks[start:start + 500]).update(owner_id=org)
    orphans = [model for model in models_.values() if model.objects.filter(owner__isnull=True).exists()]
    if orphans:
        house, _ = Organisation.objects.get_or_create(slug=HOUSE_SLUG, defaults={"name": "House (staff)",
                                                                                 "kind": "shared"})
        for model in orphans:
            model.objects.filter(owner__isnull=True).update(owner_id=house.pk)


class Migration(migrations.Migration):

    dependencies = [
        ("tournaments", "0005_registration_checkin_accounts"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Organisation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("name", models.CharField(max_length=120)),
                ("slug", models.SlugField(max_length=80, unique=True)),
                ("kind", models.CharField(choices=[("personal", "Personal"), ("shared", "Shared")], default="shared",
                                          max_length=8)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("personal_user", models.OneToOneField(blank=True, null=True,
                                                       on_delete=django.db.models.deletion.CASCADE,
                                                       related_name="personal_organisation",
                                                       to=settings.AUTH_USER_MODEL)),
            ],
            options={"ordering": ["name", "id"]},
        ),
        migrations.CreateModel(
            name="OrganisationMember",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("role", models.CharField(choices=[("owner", "Owner"), ("member", "Member")], default="member",
                                          max_length=8)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("organisation", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                                   related_name="memberships", to="tournaments.organisation")),
                ("user", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE,
                                           related_name="organisation_memberships", to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.AddField(
            model_name="organisation",
            name="members",
            field=models.ManyToManyField(blank=True, related_name="organisations",
                                         through="tournaments.OrganisationMember", to=settings.AUTH_USER_MODEL),
        ),
        migrations.AddConstraint(
            model_name="organisationmember",
            constraint=models.UniqueConstraint(fields=("organisation", "user"), name="one_membership_per_user"),
        ),
        migrations.AddConstraint(
            model_name="organisation",
            constraint=models.CheckConstraint(
                condition=models.Q(models.Q(("kind", "personal"), ("personal_user__isnull", False)),
                                   models.Q(("kind", "shared"), ("personal_user__isnull", True)), _connector="OR"),
                name="organisation_personal_has_its_user"),
        ),
        migrations.AddField(
            model_name="club",
            name="owner",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="clubs",
                                    to="tournaments.organisation"),
        ),
        migrations.AddField(
            model_name="player",
            name="owner",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="players",
                                    to="tournaments.organisation"),
        ),
        migrations.AddField(
            model_name="pair",
            name="owner",
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.PROTECT, related_name="pairs",
                                    to="tournaments.organisation"),
        ),
        migrations.RunPython(backfill_owners, migrations.RunPython.noop),
    ]
