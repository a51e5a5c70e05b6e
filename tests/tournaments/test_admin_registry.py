"""The admin's tournament page offers the registry's choices (no raw JSON for formats, tie-breaks, byes)
and saves through the registry services; clubs, players, pairs and entries are saved through theirs."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tournaments import formats
from tournaments.admin import TournamentAdminForm
from tournaments.formats import TIE_BREAKS, TieBreak
from tournaments.models import AuditEvent, Club, Entry, Tournament, TournamentRole

from .factories import make_entries, make_round, make_tournament

pytestmark = pytest.mark.django_db

LEAGUE_ORDER = ["bullseyes_won", "bullseyes_lost", "wins", "hang_jacks_for", "hang_jacks_against"]


@pytest.fixture
def staff_client(client: Any) -> Any:
    user = get_user_model().objects.create_superuser("admin", "admin@example.org", "pw-for-tests-only")
    client.force_login(user)
    return client


def inlines(entries: int = 0) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for prefix, initial in (("roles", 0), ("entries", entries)):
        data.update({f"{prefix}-TOTAL_FORMS": initial, f"{prefix}-INITIAL_FORMS": initial,
                     f"{prefix}-MIN_NUM_FORMS": 0, f"{prefix}-MAX_NUM_FORMS": 1000})
    return data


def tournament_post(**overrides: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": "Arima League", "slug": "arima-league", "venue": "", "starts_on": "", "ends_on": "",
        "status": "draft", "entrant_type": "pairs", "pairing_system": "swiss", "rounds_planned": 5,
        "match_format_0": "first_to", "match_format_1": 17, "team_format_0": "", "team_format_1": "",
        "team_format_2": "", "time_called": "void", "qualifies_from": "", "rules": '"trinidad-tournament"',
        "initial-rules": '"trinidad-tournament"',  # the hidden initial a browser sends (a callable default)
        "bye_policy": "league", "club_avoidance": 2, **inlines(),
    }
    for i, name in enumerate(LEAGUE_ORDER):
        data[f"tiebreaks_{i}"] = name
    data.update(overrides)
    return data


def test_the_add_page_offers_the_registrys_choices(staff_client: Any) -> None:
    body = staff_client.get(reverse("admin:tournaments_tournament_add")).content.decode()
    for name in TIE_BREAKS.names():
        assert f'value="{name}"' in body
    assert 'name="tiebreaks_11"' in body and 'name="tiebreaks_12"' not in body
    for preset in formats.BYE_PRESETS:
        assert f'value="{preset}"' in body
    assert 'name="match_format_0"' in body and '<textarea name="match_format"' not in body
    assert '<textarea name="tiebreaks"' not in body and '<textarea name="bye_policy"' not in body


def test_a_tournament_added_in_the_admin_is_created_by_the_service(staff_client: Any) -> None:
    response = staff_client.post(reverse("admin:tournaments_tournament_add"), tournament_post())
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament = Tournament.objects.get(slug="arima-league")
    assert tournament.tiebreaks == LEAGUE_ORDER
    assert tournament.match_format == {"kind": "first_to", "n": 17}
    assert tournament.bye_policy == formats.BYE_PRESETS["league"].policy.to_dict()
    assert tournament.rules_resolved["players"] == 4
    assert AuditEvent.objects.filter(action="tournament.create", object_id=str(tournament.pk)).exists()
    assert not TournamentRole.objects.filter(tournament=tournament).exists()


def test_the_admin_shows_the_registrys_refusal_next_to_the_field(staff_client: Any) -> None:
    data = tournament_post(match_format_0="games", match_format_1=3)
    response = staff_client.post(reverse("admin:tournaments_tournament_add"), data)
    assert response.status_code == 200
    errors = response.context["adminform"].form.errors
    assert "bye_policy" in errors and "race target" in errors["bye_policy"][0]
    repeated = tournament_post(tiebreaks_5="wins")
    errors = staff_client.post(reverse("admin:tournaments_tournament_add"), repeated).context["adminform"].form.errors
    assert "listed twice" in errors["tiebreaks"][0]
    assert not Tournament.objects.exists()


def test_a_change_in_the_admin_is_an_update_of_the_changed_settings(staff_client: Any) -> None:
    staff_client.post(reverse("admin:tournaments_tournament_add"), tournament_post())
    tournament = Tournament.objects.get(slug="arima-league")
    data = tournament_post(tiebreaks_0="wins", tiebreaks_2="bullseyes_won")
    response = staff_client.post(reverse("admin:tournaments_tournament_change", args=[tournament.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    tournament.refresh_from_db()
    assert tournament.tiebreaks[:3] == ["wins", "bullseyes_lost", "bullseyes_won"]
    event = AuditEvent.objects.get(action="tournament.update")
    assert set(event.after) == {"tiebreaks"}


def test_a_custom_bye_policy_is_kept_when_the_admin_saves(staff_client: Any) -> None:
    tournament = make_tournament()
    custom = formats.AwardPolicy.from_dict({"result": "draw", "bullseyes": {"for": {"source": "fixed", "value": 1}}})
    Tournament.objects.filter(pk=tournament.pk).update(bye_policy=custom.to_dict())
    form = TournamentAdminForm(instance=Tournament.objects.get(pk=tournament.pk))
    assert form.initial["bye_policy"] == "custom"
    assert "custom" in dict(form.fields["bye_policy"].choices)


def test_deleting_goes_through_the_service_and_a_played_tournament_is_not_deletable(staff_client: Any) -> None:
    played = make_tournament()
    a, b = make_entries(played, 2)
    make_round(played, [(a, b)])
    assert staff_client.get(reverse("admin:tournaments_tournament_delete", args=[played.pk])).status_code == 403
    fresh = make_tournament()
    response = staff_client.post(reverse("admin:tournaments_tournament_delete", args=[fresh.pk]), {"post": "yes"})
    assert response.status_code == 302
    assert not Tournament.objects.filter(pk=fresh.pk).exists()
    assert AuditEvent.objects.filter(action="tournament.delete", object_id=str(fresh.pk)).exists()


def test_entries_inline_writes_through_the_entry_services(staff_client: Any) -> None:
    tournament = make_tournament()
    (entry,) = make_entries(tournament, 1)
    spare = make_entries(make_tournament(), 1)[0].pair
    data = tournament_post(name=tournament.name, slug=tournament.slug, match_format_1=2, bye_policy="round_average",
                           **inlines(entries=1))
    data.update({"entries-TOTAL_FORMS": 3, "entries-0-id": entry.pk, "entries-0-tournament": tournament.pk,
                 "entries-0-pair": entry.pair_id, "entries-0-seed": 5, "entries-1-pair": spare.pk,
                 "entries-1-seed": 6, "entries-2-pair": entry.pair_id})
    response = staff_client.post(reverse("admin:tournaments_tournament_change", args=[tournament.pk]), data)
    assert response.status_code == 200  # the same pair twice: refused before anything is saved
    assert not Entry.objects.filter(pair=spare, tournament=tournament).exists()
    data.update({"entries-TOTAL_FORMS": 2})
    response = staff_client.post(reverse("admin:tournaments_tournament_change", args=[tournament.pk]), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    assert Entry.objects.get(pk=entry.pk).seed == 5
    assert Entry.objects.filter(pair=spare, tournament=tournament, seed=6).exists()
    assert {"entry.update", "entry.create"} <= set(AuditEvent.objects.values_list("action", flat=True))


def test_clubs_are_saved_through_the_services(staff_client: Any) -> None:
    response = staff_client.post(reverse("admin:tournaments_club_add"), {"name": "Couva Kings", "short_name": "CK",
                                                                         "town": "Couva"})
    assert response.status_code == 302
    club = Club.objects.get(name="Couva Kings")
    assert AuditEvent.objects.filter(action="club.create", object_id=str(club.pk)).exists()
    response = staff_client.post(reverse("admin:tournaments_club_delete", args=[club.pk]), {"post": "yes"})
    assert response.status_code == 302 and not Club.objects.exists()


@pytest.fixture
def fake_tie_break(monkeypatch: pytest.MonkeyPatch) -> Iterator[TieBreak]:
    from tournaments.ranking.keys import ROW_KEYS

    fake = TieBreak("most_conceded", "Most chalks conceded", "Conc.", "A test's own tie-break.", "chalks conceded")
    TIE_BREAKS.register(fake)
    monkeypatch.setitem(ROW_KEYS, fake.name, lambda row: row.chalks_against)
    yield fake
    TIE_BREAKS.unregister(fake.name)


def test_a_registered_tie_break_is_offered_by_the_admin(fake_tie_break: TieBreak) -> None:
    form = TournamentAdminForm()
    field = form.fields["tiebreaks"]
    assert len(field.fields) == len(TIE_BREAKS.names()) == 13
    assert (fake_tie_break.name, fake_tie_break.label) in field.fields[0].choices
