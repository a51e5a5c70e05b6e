"""Issue 13 in the console: withdrawing a pair (what will happen first, then the report), late entries, a
no-show forfeited after the grace time (and cancelled), a club's team forfeit, the Swiss look-ahead's
proposal with what it costs, the round's changes in words, and the settings of issue 13.

Events are built and played through the services (tests/tournaments/factories.py); the pages are driven
with the test client as an organiser would, and the refusals (grace time, roles, a finished event) are
checked where the organiser sees them.
"""

from __future__ import annotations

import csv
import io
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape

from tests.tournaments.factories import (
    make_club,
    make_entries,
    make_organiser,
    make_team_round,
    make_tournament,
    make_user,
    seat,
    submit,
    tally,
    win_game,
)
from tournaments import formats
from tournaments.models import Board, Entry, Round, TeamMatch, Tournament, TournamentRole
from tournaments.services import round_publish, round_start, round_start_play, tournament_update

pytestmark = pytest.mark.django_db


def url(name: str, *args: Any) -> str:
    return reverse(f"web:{name}", args=args)


def fresh(obj: Any) -> Any:
    return type(obj).objects.get(pk=obj.pk)


def client_for(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def messages_of(response: Any) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def swiss(n: int = 6, **kwargs: Any) -> tuple[Tournament, list[Entry], Any]:
    tournament = make_tournament(**kwargs)
    Tournament.objects.filter(pk=tournament.pk).update(published=True, rounds_planned=5,
                                                       starts_on=timezone.localdate())
    entries = make_entries(tournament, n)
    return fresh(tournament), entries, make_organiser(tournament)


def drafted(tournament: Tournament, organiser: Any) -> Round:
    return round_start(tournament=tournament, user=organiser)


def in_play(tournament: Tournament, organiser: Any) -> Round:
    round_ = round_start(tournament=tournament, user=organiser)
    round_publish(round=round_, user=organiser)
    return round_start_play(round=round_, user=organiser)


def grace_over(round_: Round) -> Round:
    tournament = Tournament.objects.get(pk=round_.tournament_id)
    Round.objects.filter(pk=round_.pk).update(
        published_at=timezone.now() - timedelta(minutes=tournament.grace_minutes + 1))
    return fresh(round_)


def board_of(round_: Round, entry: Entry) -> Board:
    return next(b for b in Board.objects.filter(round=round_) if entry.pk in (b.pair_a_id, b.pair_b_id))


# ---- withdrawing a pair ---------------------------------------------------------------------------------


def test_the_entries_page_offers_withdraw_and_the_page_says_what_will_happen_before_anything_changes():
    tournament, entries, organiser = swiss()
    round_ = drafted(tournament, organiser)
    client = client_for(organiser)
    page = client.get(url("console_entries", tournament.slug)).content.decode()
    withdraw = url("console_entry_withdraw", tournament.slug, entries[0].pk)
    assert f'href="{withdraw}"' in page and ">Withdraw</a>" in page
    confirm = client.get(withdraw)
    assert confirm.status_code == 200
    html = confirm.content.decode()
    assert f"Round {round_.number} (drafted, no hand played yet): only its board is re-paired" in html
    assert "Withdraw from round 1" in html and 'name="from_round" value="1"' in html
    assert not fresh(entries[0]).withdrawn  # a GET changes nothing


def test_withdrawing_in_a_drafted_round_re_pairs_the_board_and_says_so():
    tournament, entries, organiser = swiss(n=5)  # an odd field: a bye to take over
    round_ = drafted(tournament, organiser)
    board = board_of(round_, entries[0])
    assert board.pair_b_id is not None
    client = client_for(organiser)
    done = client.post(url("console_entry_withdraw", tournament.slug, entries[0].pk), {"from_round": "1"},
                       follow=True)
    assert done.status_code == 200
    text = " ".join(messages_of(done))
    assert "withdrawn from round 1" in text and "Round 1:" in text and "withdrew" in text
    entry = fresh(entries[0])
    assert entry.withdrawn and entry.withdrawn_from == 1
    assert not Board.objects.filter(round=round_, pair_a=entry).exists()
    assert not Board.objects.filter(round=round_, pair_b=entry).exists()
    html = done.content.decode()
    assert "withdrew from round 1" in html
    # the round's changes say it in words, on the dashboard
    dashboard = client.get(url("console_tournament", tournament.slug)).content.decode()
    assert "<strong>Withdrawal</strong>" in dashboard and escape(entries[0].pair.display_name) in dashboard


def test_withdrawing_once_play_has_started_forfeits_the_board_and_the_page_says_so_first():
    tournament, entries, organiser = swiss()
    round_ = in_play(tournament, organiser)
    board = seat(board_of(round_, entries[0]))
    submit(board, tally(0, to=0))
    client = client_for(organiser)
    preview = client.get(url("console_entry_withdraw", tournament.slug, entries[0].pk)).content.decode()
    assert "play has started on table" in preview and "the board is forfeited to" in preview
    client.post(url("console_entry_withdraw", tournament.slug, entries[0].pk), {"from_round": "1"})
    board = fresh(board)
    assert board.forfeited is not None and board.result_source == "forfeit"
    page = client.get(url("console_board", tournament.slug, board.pk)).content.decode()
    assert f"Forfeit: {escape(entries[0].pair.display_name)} left during play" in page


def test_a_later_round_may_be_chosen_and_shown_first():
    tournament, entries, organiser = swiss()
    drafted(tournament, organiser)
    client = client_for(organiser)
    shown = client.get(url("console_entry_withdraw", tournament.slug, entries[1].pk), {"from_round": "3"})
    html = shown.content.decode()
    assert "withdraws from round 3" in html and "No round from round 3 on is drawn yet" in html
    assert 'name="from_round" value="3"' in html
    bad = client.get(url("console_entry_withdraw", tournament.slug, entries[1].pk), {"from_round": "0"})
    assert bad.status_code == 400 and "Select a valid choice" in bad.content.decode()
    client.post(url("console_entry_withdraw", tournament.slug, entries[1].pk), {"from_round": "3"})
    assert fresh(entries[1]).withdrawn_from == 3


def test_withdraw_refusals_a_scorekeeper_an_entry_already_withdrawn_a_finished_event():
    tournament, entries, organiser = swiss()
    keeper = make_user()
    TournamentRole.objects.create(tournament=tournament, user=keeper, role="scorekeeper")
    page = url("console_entry_withdraw", tournament.slug, entries[0].pk)
    assert client_for(keeper).get(page).status_code == 403
    assert client_for(keeper).post(page, {"from_round": "1"}).status_code == 403
    assert not fresh(entries[0]).withdrawn
    stranger = make_user()
    assert client_for(stranger).post(page, {"from_round": "1"}).status_code == 403

    client = client_for(organiser)
    client.post(page, {"from_round": "1"})
    again = client.get(page).content.decode()
    assert "has already withdrawn" in again and "Withdraw from round" not in again
    assert client.post(page, {"from_round": "1"}).status_code == 409  # nothing to do twice

    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    other = url("console_entry_withdraw", tournament.slug, entries[1].pk)
    refused = client.post(other, {"from_round": "1"})
    assert refused.status_code == 409 and "has ended" in refused.content.decode()
    assert ">Withdraw</a>" not in client.get(url("console_entries", tournament.slug)).content.decode()


def test_the_entry_form_withdraws_only_through_the_withdraw_page_and_reinstates():
    tournament, entries, organiser = swiss()
    client = client_for(organiser)
    edit = url("console_entry_edit", tournament.slug, entries[2].pk)
    page = client.get(edit).content.decode()
    assert 'name="withdrawn"' not in page and "Withdraw this pair" in page
    client.post(url("console_entry_withdraw", tournament.slug, entries[2].pk), {"from_round": "1"})
    page = client.get(edit).content.decode()
    assert 'name="withdrawn"' in page and "untick to reinstate" in page
    saved = client.post(edit, {"seed": "", "tags": "", "byes": ""})  # Withdrawn unticked
    assert saved.status_code == 302
    assert not fresh(entries[2]).withdrawn


# ---- late entries ------------------------------------------------------------------------------------------


def test_a_pair_added_once_play_has_begun_is_a_late_entry_and_the_list_says_when_it_joins():
    tournament, entries, organiser = swiss(n=4)
    in_play(tournament, organiser)
    client = client_for(organiser)
    form = client.get(url("console_entry_add", tournament.slug)).content.decode()
    assert "this is a late entry" in form and "joins in round 2" in form
    added = client.post(url("console_entry_add", tournament.slug),
                        {"player_1": "Late Lara", "player_2": "Late Larry", "club": "Tardy Club", "seed": "",
                         "tags": "juniors"}, follow=True)
    assert added.status_code == 200
    assert "entered late: joins in round 2, without the bye in it" in " ".join(messages_of(added))
    entry = Entry.objects.get(tournament=tournament, pair__player_1__name="Late Lara")
    assert entry.joins_from == 2 and entry.tags == ["juniors"] and entry.pair.club.name == "Tardy Club"
    assert "joins in round 2" in added.content.decode()
    # the same pair again is refused at the form
    again = client.post(url("console_entry_add", tournament.slug),
                        {"player_1": "Late Lara", "player_2": "Late Larry", "club": "Tardy Club"})
    assert again.status_code == 400 and "already entered" in again.content.decode()
    # the public starting list says it too
    public = client.get(url("public_entries", tournament.slug)).content.decode()
    assert "late entry: joins in round 2" in public


def test_before_play_a_pair_added_is_an_ordinary_entry():
    tournament, _, organiser = swiss(n=4)
    client = client_for(organiser)
    assert "late entry" not in client.get(url("console_entry_add", tournament.slug)).content.decode()
    client.post(url("console_entry_add", tournament.slug), {"player_1": "Early Ed", "player_2": "Early Eve"})
    assert Entry.objects.get(tournament=tournament, pair__player_1__name="Early Ed").joins_from is None


def test_no_late_entry_once_a_knockouts_bracket_is_seated():
    tournament, _, organiser = swiss(n=4, pairing_system="knockout")
    in_play(tournament, organiser)
    refused = client_for(organiser).post(url("console_entry_add", tournament.slug),
                                         {"player_1": "Knock Kim", "player_2": "Knock Ken"})
    assert refused.status_code == 400 and "bracket is seated" in refused.content.decode()
    assert not Entry.objects.filter(tournament=tournament, pair__player_1__name="Knock Kim").exists()


# ---- forfeits --------------------------------------------------------------------------------------------


def test_a_no_show_is_refused_before_the_grace_time_with_its_end_then_forfeited_and_cancelled():
    tournament, entries, organiser = swiss(n=4)
    round_ = in_play(tournament, organiser)
    board = Board.objects.filter(round=round_, pair_b__isnull=False).order_by("table").first()
    client = client_for(organiser)
    page = client.get(url("console_board", tournament.slug, board.pk)).content.decode()
    assert 'id="forfeit"' in page and "Grace time: wait until" in page
    for label in ("Pair A did not come", "Pair B did not come", "Neither pair came"):
        assert label in page
    action = url("console_board_action", tournament.slug, board.pk)
    early = client.post(action, {"action": "forfeit", "absent": "b"}, follow=True)
    assert "The grace time runs until" in " ".join(messages_of(early))
    assert fresh(board).forfeited is None

    grace_over(round_)
    page = client.get(url("console_board", tournament.slug, board.pk)).content.decode()
    assert "The grace time ran out at" in page
    done = client.post(action, {"action": "forfeit", "absent": "b"}, follow=True)
    assert f"Table {board.table} forfeited: pair B did not come." in messages_of(done)
    board = fresh(board)
    assert (board.forfeited, board.result_source, board.winner) == (1, "forfeit", 0)
    html = done.content.decode()
    absent = escape(board.pair_b.pair.display_name)
    assert f"Forfeit: {absent} did not play" in html and "A wins 2-0" in html and "Cancel the forfeit" in html
    dashboard = client.get(url("console_tournament", tournament.slug)).content.decode()
    assert f"Forfeit: {absent} did not play" in dashboard and "<strong>Forfeit</strong>" in dashboard

    cancelled = client.post(action, {"action": "forfeit_cancel"}, follow=True)
    assert "the forfeit is cancelled" in " ".join(messages_of(cancelled))
    assert fresh(board).forfeited is None
    dashboard = client.get(url("console_tournament", tournament.slug)).content.decode()
    assert "<strong>Forfeit cancelled</strong>" in dashboard


def test_a_pair_that_walks_out_is_forfeited_at_once_and_the_games_played_stay():
    tournament, _, organiser = swiss(n=4)
    round_ = in_play(tournament, organiser)
    board = seat(Board.objects.filter(round=round_, pair_b__isnull=False).order_by("table").first())
    win_game(board, to=1)
    client = client_for(organiser)
    page = client.get(url("console_board", tournament.slug, board.pk)).content.decode()
    assert "Play has started on this board" in page
    client.post(url("console_board_action", tournament.slug, board.pk), {"action": "forfeit", "absent": "a"})
    board = fresh(board)
    assert board.forfeited == 0 and (board.bullseyes_a, board.bullseyes_b) == (0, 2)


def test_forfeit_refusals_a_scorekeeper_a_drafted_round_a_bye_an_unknown_side():
    tournament, entries, organiser = swiss(n=5)
    round_ = drafted(tournament, organiser)
    board = Board.objects.filter(round=round_, pair_b__isnull=False).first()
    client = client_for(organiser)
    page = client.get(url("console_board", tournament.slug, board.pk)).content.decode()
    assert "withdraw the pair or swap it instead" in page and "Pair A did not come" not in page
    refused = client.post(url("console_board_action", tournament.slug, board.pk),
                          {"action": "forfeit", "absent": "a"}, follow=True)
    assert "only a round in play has forfeits" in " ".join(messages_of(refused))
    round_publish(round=round_, user=organiser)
    grace_over(round_)
    nonsense = client.post(url("console_board_action", tournament.slug, board.pk),
                           {"action": "forfeit", "absent": "c"}, follow=True)
    assert "Say who is absent" in " ".join(messages_of(nonsense))
    bye = Board.objects.get(round=round_, pair_b__isnull=True)
    bye_page = client.get(url("console_board", tournament.slug, bye.pk)).content.decode()
    assert 'id="forfeit"' not in bye_page
    keeper = make_user()
    TournamentRole.objects.create(tournament=tournament, user=keeper, role="scorekeeper")
    denied = client_for(keeper).post(url("console_board_action", tournament.slug, board.pk),
                                     {"action": "forfeit", "absent": "a"})
    assert denied.status_code == 403 and fresh(board).forfeited is None
    assert "Pair A did not come" not in client_for(keeper).get(url("console_board", tournament.slug, board.pk)).content.decode()


def test_a_club_that_cannot_field_its_team_forfeits_the_team_match():
    tournament = make_tournament(entrant_type="club_teams", team_format={"boards": 2, "kind": "games", "n": 1})
    clubs = [make_club("Couva Jacks"), make_club("Point Kickers")]
    for club in clubs:
        make_entries(tournament, 2, club=club)
    organiser = make_organiser(tournament)
    round_ = grace_over(make_team_round(tournament, clubs))
    board = Board.objects.filter(round=round_, pair_b__isnull=False).first()
    client = client_for(organiser)
    page = client.get(url("console_board", tournament.slug, board.pk)).content.decode()
    assert "Team forfeit" in page and "Point Kickers cannot field its team" in page
    match = TeamMatch.objects.get(round=round_)
    losing = match.club_b
    done = client.post(url("console_board_action", tournament.slug, board.pk),
                       {"action": "team_forfeit", "club": str(losing.pk)}, follow=True)
    assert f"{losing.name} forfeited the team match" in " ".join(messages_of(done))
    assert all(b.forfeited is not None for b in Board.objects.filter(team_match=match))
    bad = client.post(url("console_board_action", tournament.slug, board.pk),
                      {"action": "team_forfeit", "club": "999999"}, follow=True)
    assert "Choose the club" in " ".join(messages_of(bad))


def test_the_live_boards_list_offers_the_no_show_link_and_marks_a_forfeit():
    tournament, _, organiser = swiss(n=4)
    round_ = grace_over(in_play(tournament, organiser))
    boards = list(Board.objects.filter(round=round_, pair_b__isnull=False).order_by("table"))
    client = client_for(organiser)
    live = client.get(url("console_live", tournament.slug)).content.decode()
    assert live.count("no-show?") == len(boards)
    client.post(url("console_board_action", tournament.slug, boards[0].pk), {"action": "forfeit", "absent": "both"})
    live = client.get(url("console_live", tournament.slug)).content.decode()
    assert "Forfeit: neither pair played" in live and live.count("no-show?") == len(boards) - 1


# ---- the look-ahead's proposal and the round's changes ------------------------------------------------------


def test_a_drafted_swiss_round_shows_the_proposal_with_its_cost_and_seats_it():
    tournament, entries, organiser = swiss(n=4)
    round_ = drafted(tournament, organiser)
    a, b, c, d = entries
    Round.objects.filter(pk=round_.pk).update(proposal={
        "status": "proposed", "message": "The best draft leaves no rematch-free finish for the 4 rounds after it; "
                                         "this one keeps one for 2 more points of score spread.",
        "boards": [[a.pk, d.pk, "proposed: a v d"], [b.pk, c.pk, "proposed: b v c"]], "bye": None,
        "extra": {"rematches": 0, "score_difference": 2, "floaters": 0, "same_club": 1, "repeat_floats": 0},
        "outlook": ["possible", "A rematch-free schedule exists."],
    })
    client = client_for(organiser)
    html = client.get(url("console_tournament", tournament.slug)).content.decode()
    assert "this one keeps one for 2 more points of score spread" in html
    assert "<strong>What it costs:</strong> 2 more points of score spread and 1 more same-club board" in html
    assert f"{escape(a.pair.display_name)} v {escape(d.pair.display_name)}" in html and "Use the proposed draft" in html
    done = client.post(url("console_round_action", tournament.slug, round_.number), {"action": "adopt_proposal"},
                       follow=True)
    assert "the proposed draft is seated" in " ".join(messages_of(done))
    seated = {frozenset((x.pair_a_id, x.pair_b_id)) for x in Board.objects.filter(round=round_)}
    assert seated == {frozenset((a.pk, d.pk)), frozenset((b.pk, c.pk))}
    assert fresh(round_).proposal is None
    html = done.content.decode()
    assert "<strong>Proposed draft used</strong>" in html and "Use the proposed draft" not in html
    again = client.post(url("console_round_action", tournament.slug, round_.number), {"action": "adopt_proposal"},
                        follow=True)
    assert "has no proposed draft" in " ".join(messages_of(again))


def test_a_proposal_without_a_draft_shows_only_its_message():
    tournament, _, organiser = swiss(n=4)
    round_ = drafted(tournament, organiser)
    Round.objects.filter(pk=round_.pk).update(proposal={
        "status": "no_finish", "message": "No draft of this round leaves a rematch-free finish: a rematch will be needed."})
    html = client_for(organiser).get(url("console_tournament", tournament.slug)).content.decode()
    assert "Rematches ahead" in html and "a rematch will be needed" in html and "Use the proposed draft" not in html


def test_swaps_read_with_names_in_the_changes():
    tournament, entries, organiser = swiss(n=4)
    round_ = drafted(tournament, organiser)
    a = board_of(round_, entries[0])
    other = next(b for b in Board.objects.filter(round=round_) if b.pk != a.pk)
    client = client_for(organiser)
    client.post(url("console_round_action", tournament.slug, round_.number),
                {"action": "swap_pairs", "entry_a": str(a.pair_b_id), "entry_b": str(other.pair_b_id)})
    html = client.get(url("console_tournament", tournament.slug)).content.decode()
    names = {e.pk: escape(e.pair.display_name) for e in entries}
    assert "<strong>Pairs swapped</strong>" in html
    assert f"{names[a.pair_b_id]} and {names[other.pair_b_id]} change places" in html


# ---- settings ----------------------------------------------------------------------------------------------


def test_the_settings_page_sets_the_forfeit_policy_grace_time_and_late_entry_bye():
    tournament, _, organiser = swiss(n=4)
    client = client_for(organiser)
    page = client.get(url("console_settings", tournament.slug)).content.decode()
    assert 'name="ranking-forfeit_policy"' in page and 'name="ranking-grace_minutes"' in page
    for preset in formats.FORFEIT_PRESETS.values():
        assert escape(preset.label) in page and escape(preset.explanation) in page
    from tests.web.test_console_setup import settings_post

    saved = client.post(url("console_settings", tournament.slug), settings_post(tournament, **{
        "ranking-forfeit_policy": "bare_win", "ranking-grace_minutes": "5", "ranking-late_entry_bye": "on"}))
    assert saved.status_code == 302, saved.context and [f.errors for f in saved.context["forms"].values()]
    tournament = fresh(tournament)
    assert tournament.forfeit_policy == formats.FORFEIT_PRESETS["bare_win"].policy.to_dict()
    assert (tournament.grace_minutes, tournament.late_entry_bye) == (5, True)
    bad = client.post(url("console_settings", tournament.slug),
                      settings_post(tournament, **{"ranking-grace_minutes": "999"}))
    assert bad.status_code == 200 and "At most 240" in bad.content.decode()


def test_the_forfeit_policy_changes_between_rounds_only_and_the_grace_time_at_any_time():
    tournament, _, organiser = swiss(n=4)
    in_play(tournament, organiser)
    client = client_for(organiser)
    from tests.web.test_console_setup import settings_post

    page = client.get(url("console_settings", tournament.slug)).content.decode()
    assert 'name="ranking-forfeit_policy"' not in page and "what a forfeit gives" in page.lower()
    refused = client.post(url("console_settings", tournament.slug),
                          settings_post(tournament, **{"ranking-forfeit_policy": "bare_win"}))
    assert refused.status_code == 200 and "between rounds only" in str(refused.context["forms"]["ranking"].errors)
    saved = client.post(url("console_settings", tournament.slug),
                        settings_post(tournament, **{"ranking-grace_minutes": "30"}))
    assert saved.status_code == 302 and fresh(tournament).grace_minutes == 30


def test_the_wizard_review_says_what_a_forfeit_gives():
    tournament, _, organiser = swiss(n=4)
    tournament_update(tournament=tournament, user=organiser, forfeit_policy="bare_win", grace_minutes=0)
    from web.setup_forms import describe

    lines = {line.label: line for _, _, found in describe({
        "name": "x", "forfeit_policy": fresh(tournament).forfeit_policy, "grace_minutes": 0}) for line in found}
    assert lines["A forfeit"].value == formats.FORFEIT_PRESETS["bare_win"].label
    assert lines["Grace time"].value.startswith("None")
    assert lines["Late entries"].value == "No bye in its first round"


# ---- public pages, scorecards, exports -------------------------------------------------------------------


@pytest.fixture
def forfeited_event() -> dict[str, Any]:
    """Four pairs, round 1 in play: table 1 forfeited by pair B (no game), table 2 played 2-0 and confirmed."""
    tournament, entries, organiser = swiss(n=4)
    round_ = grace_over(in_play(tournament, organiser))
    first, second = Board.objects.filter(round=round_, pair_b__isnull=False).order_by("table")
    client = client_for(organiser)
    client.post(url("console_board_action", tournament.slug, first.pk), {"action": "forfeit", "absent": "b"})
    second = seat(second)
    win_game(second, to=0)
    win_game(fresh(second), to=0)
    for game in fresh(second).games.filter(status="finished"):
        client.post(url("console_board_action", tournament.slug, second.pk), {"action": "confirm_game",
                                                                              "game": str(game.pk)})
    from tournaments.services import tournament_standings_recompute

    tournament_standings_recompute(tournament_id=tournament.pk)
    return {"tournament": tournament, "forfeited": fresh(first), "played": fresh(second), "client": client,
            "round": round_}


def test_public_pages_read_a_forfeit_as_such(forfeited_event):
    t, board = forfeited_event["tournament"], forfeited_event["forfeited"]
    absent = escape(board.pair_b.pair.display_name)
    public = Client()
    pairings = public.get(url("pairings", t.slug, 1)).content.decode()
    assert f"Forfeit: {absent} did not play" in pairings and ">forfeit<" in pairings
    card = public.get(url("board", t.slug, board.pk)).content.decode()
    assert f"Forfeit: {absent} did not play; A wins 2-0" in card and "without a game played" in card
    assert "B won 0-0" not in card
    winner = public.get(url("pair", t.slug, board.pair_a_id)).content.decode()
    loser = public.get(url("pair", t.slug, board.pair_b_id)).content.decode()
    assert "won by forfeit" in winner and "2-0" in winner
    assert "lost by forfeit" in loser and "0-2" in loser
    standings = public.get(url("standings", t.slug)).content.decode()
    assert "1 won by forfeit" in standings and "1 forfeited" in standings
    live = public.get(url("standings_live", t.slug)).content.decode()
    assert f"B {absent}" not in live  # a forfeited board is not "in play"


def test_statistics_count_the_games_played_not_the_forfeit(forfeited_event):
    t, board = forfeited_event["tournament"], forfeited_event["forfeited"]
    from tournaments.selectors import tournament_stats

    rows, _ = tournament_stats(t)
    games = {s.entry.pk: s.games for s in rows}
    assert games[board.pair_a_id] == 0 and games[board.pair_b_id] == 0
    played = forfeited_event["played"]
    assert games[played.pair_a_id] == 2
    assert Client().get(url("stats", t.slug)).status_code == 200


def test_the_results_export_has_the_result_source_and_a_line_for_a_forfeit_without_games(forfeited_event):
    t, board = forfeited_event["tournament"], forfeited_event["forfeited"]
    client = forfeited_event["client"]
    rows = list(csv.DictReader(io.StringIO(client.get(url("console_export_results", t.slug)).content.decode("utf-8-sig"))))
    mine = [r for r in rows if r["table"] == str(board.table)]
    assert len(mine) == 1
    assert (mine[0]["result_source"], mine[0]["forfeited"], mine[0]["board_winner"], mine[0]["game"]) == \
        ("forfeit", "B", "A", "")
    assert (mine[0]["board_games_a"], mine[0]["board_games_b"]) == ("2", "0")
    played = [r for r in rows if r["table"] != str(board.table)]
    assert played and {r["result_source"] for r in played} == {"hands"}
    standings = list(csv.DictReader(io.StringIO(
        client.get(url("console_export_standings", t.slug)).content.decode("utf-8-sig"))))
    by_pair = {r["pair"]: r for r in standings}
    assert by_pair[board.pair_a.pair.display_name]["forfeits_won"] == "1"
    assert by_pair[board.pair_b.pair.display_name]["forfeits_lost"] == "1"


def test_no_scoresheet_is_printed_for_a_forfeited_board(forfeited_event):
    t, board = forfeited_event["tournament"], forfeited_event["forfeited"]
    sheets = forfeited_event["client"].get(url("console_print_scoresheets", t.slug, 1)).content.decode()
    assert f"table {board.table}<" not in sheets.replace("</h1>", "<")
