"""Issue 14 in the console and on the public pages: the round clock (Add time, Shorten, Call time now), closing
through the preview (every unfinished board as it stands and as it becomes, the games confirmed, awarded and
voided, what blocks it, "Close round N" posting the preview's token; a stale token shows the fresh preview),
reopening behind its own page, the refusals in words that name no form field, who may, the "Finish the
event…" link once the last planned round is closed, and the clock on the public pairings and home pages.

Most tests play ``closing_helpers.ClosingEvent`` (tests/tournaments/closing_helpers.py): round 1 of ten pairs,
table 1 at 6-7 in game 1, table 2 at 5-9 in game 2 after 1-0, table 3 won 2-0 by play but unconfirmed,
table 4 won and confirmed, table 5 seated with no hand.
"""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.tournaments.closing_helpers import (
    A2_B2,
    A4,
    ClosingEvent,
    fresh,
    game_of,
    games_state,
    hand,
    play,
    play_and_close,
    state,
)
from tests.tournaments.factories import (
    make_board,
    make_entries,
    make_organiser,
    make_round,
    make_tournament,
    make_user,
    win_game,
)
from tournaments.models import Hand, Round, Tournament
from tournaments.services import game_confirm, hand_correct, round_call_time, round_start
from web import presenters

pytestmark = pytest.mark.django_db


def url(name: str, tournament: Tournament, *args: object) -> str:
    return reverse(f"web:{name}", args=[tournament.slug, *args])


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def text(response) -> str:
    return response.content.decode()


def messages_of(response) -> list[str]:
    return [str(m) for m in response.context["messages"]] if response.context else []


def main(response) -> str:
    """The page's <main>, tags stripped and spaces folded, for reading sentences."""
    body = text(response)
    body = body[body.index("<main"):body.index("</main>")]
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).replace(" .", ".").replace(" ,", ",").replace(" :", ":")


def no_field_named(words: str) -> None:
    """A refusal in words for people: no form field, no code, no token."""
    for name in ("confirm_remaining", "minutes:", "token", "preview_stale", "reopen_changed", "later_round",
                 "round_not_closed", "dispute_open", "match_undecided", "_"):
        assert name not in words, (name, words)


@pytest.fixture
def event() -> ClosingEvent:
    return ClosingEvent(round_minutes=60)


@pytest.fixture
def org(event: ClosingEvent) -> Client:
    return signed_in(event.organiser)


# ---- the rounds page -----------------------------------------------------------------------------------------


def test_the_rounds_page_shows_the_clock_and_keeps_closing_apart_from_confirm_all(org, event):
    page = org.get(url("console_tournament", event.tournament))
    body, words = text(page), main(page)
    assert "Round 1 clock" in words and "America/Port_of_Spain" in words
    assert re.search(r"Time ends at \d\d:\d\d: (1 h 00|59) min left at \d\d:\d\d", words)
    assert 'value="clock_add">Add time</button>' in body and 'value="clock_shorten" class="secondary">Shorten' in body
    assert "Call time now" in body
    # the clock's forms are their own, apart from the round's other actions and from closing
    clock = body[body.index('id="clock"'):body.index('id="settle"')]
    assert "confirm_all" not in clock and "Close round" not in clock
    # the rounds table: Confirm all, and no close button, checkbox or red button beside it
    actions = body[body.index('<td class="actions">'):body.index("</td>", body.index('<td class="actions">'))]
    assert "Confirm all finished games" in actions and "danger" not in actions and "checkbox" not in actions
    assert "confirm_remaining" not in body
    # closing: a link to the preview, in the red area that settles results
    settle = body[body.index('<section class="danger-zone" id="settle"'):body.index('aria-labelledby="boards-h"')]
    assert f'href="{url("console_round_close", event.tournament, 1)}">Close round 1…</a>' in settle
    assert "You see a preview of every board first" in settle


def test_a_form_of_an_older_page_that_posts_close_lands_on_the_preview(org, event):
    before = state(event.round)
    response = org.post(url("console_round_action", event.tournament, 1), {"action": "close",
                                                                          "confirm_remaining": "on"})
    assert response.status_code == 303 and response["Location"] == url("console_round_close", event.tournament, 1)
    assert state(event.round) == before


# ---- the preview ---------------------------------------------------------------------------------------------


def test_the_preview_lists_every_unfinished_board_now_and_as_it_becomes_and_writes_nothing(org, event):
    before = state(event.round)
    page = org.get(url("console_round_close", event.tournament, 1))
    assert page.status_code == 200
    words = main(page)
    assert state(event.round) == before
    assert "Close round 1: the preview" in words
    assert "Time-called rule: A game still in play when the round closes does not count." in words
    assert "Closing round 1 will confirm 2 finished games, award 0 games to the pair ahead and void 3" in words
    assert "1 board finished and confirmed stays as it is" in words
    cards = re.findall(r'<li class="card-item[^"]*">(.*?)</li>\s*(?=<li class="card-item|</ul>)', text(page), re.S)
    tables = [re.search(r"<h3>Table (\d+)", c).group(1) for c in cards]
    assert tables == ["1", "2", "3", "5"]  # table 4, finished and confirmed, is left alone
    read = [re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", c)) for c in cards]
    assert "Now 0-0 in games, game 1 at 6-7" in read[0] and "Becomes Drawn, 0-0 in games" in read[0]
    assert "Game 1 (6-7) voided" in read[0]
    assert "Now 1-0 in games, game 2 at 5-9" in read[1] and "Becomes Pair A wins 1-0 in games" in read[1]
    assert "Game 2 (5-9) voided" in read[1]
    assert "Game 1 (14-0) confirmed" in read[2] and "Game 2 (14-0) confirmed" in read[2]
    assert "No hand in play here" in read[3]
    # the button posts the preview's token, in the red area
    token = event.preview().token
    body = text(page)
    zone = body[body.index('aria-labelledby="confirm-h"'):]
    assert f'name="token" value="{token}"' in zone and 'class="danger">Close round 1</button>' in zone
    for board in (event.t1, event.t2, event.t3):
        assert url("console_board", event.tournament, board.pk) in body


def test_the_preview_under_the_award_policy_says_who_is_given_each_game():
    event = ClosingEvent(time_called="award")
    page = signed_in(event.organiser).get(url("console_round_close", event.tournament, 1))
    words = main(page)
    assert "goes to the side ahead in it. A level game, or one with no hand in play, is voided." in words
    assert "Game 1 (6-7) awarded to pair B, ahead when time was called" in words
    assert "Game 2 (5-9) awarded to pair B, ahead when time was called" in words
    assert "Becomes Pair B wins 0-1 in games" in words  # table 1 (games as A-B)
    assert "award 2 games to the pair ahead" in words


def test_closing_with_the_token_does_exactly_what_the_preview_showed(org, event):
    plan = event.preview()
    response = org.post(url("console_round_close", event.tournament, 1), {"token": plan.token}, follow=True)
    assert response.redirect_chain[-1][0] == url("console_tournament", event.tournament)
    assert "Round 1 closed: 2 games confirmed, 3 games voided." in messages_of(response)
    round_ = fresh(event.round)
    assert round_.status == Round.Status.CLOSED
    assert sorted(round_.close_record["confirmed"]) == sorted(plan.confirm)
    assert sorted(round_.close_record["voided"]) == sorted(plan.void)
    games = games_state(round_)
    assert all(games[pk]["status"] == "voided" for pk in plan.void)
    assert all(games[pk]["confirmed"] for pk in plan.confirm)
    # the rounds page now offers to reopen it, in the red area, and pairing the next round
    words = main(response)
    assert "Reopen round 1…" in words and "Pair round 2" in words and "Close round 1…" not in words


def test_a_stale_token_shows_the_reason_and_the_fresh_preview_and_closes_nothing():
    event = ClosingEvent(time_called="award", round_minutes=30)
    round_call_time(round=event.round, user=event.organiser)
    org = signed_in(event.organiser)
    old = event.preview().token
    play(event.t1, [A4])  # the hand in play finishes after the preview: 10-7, pair A ahead now
    before = state(event.round)
    response = org.post(url("console_round_close", event.tournament, 1), {"token": old})
    assert response.status_code == 409
    words = main(response)
    assert "Round 1 was not closed. A board changed since the preview: look at the preview again before closing." in words
    assert "Below is the preview again, as the boards stand now." in words
    assert "Game 1 (10-7) awarded to pair A, ahead when time was called" in words
    fresh_token = event.preview().token
    assert fresh_token != old and f'name="token" value="{fresh_token}"' in text(response)
    assert state(event.round) == before
    no_field_named(words[words.index("Round 1 was not closed"):words.index("Below is the preview")])
    # the fresh preview's button closes it
    org.post(url("console_round_close", event.tournament, 1), {"token": fresh_token})
    assert fresh(event.round).status == Round.Status.CLOSED


def test_a_post_without_a_token_is_a_stale_preview_never_a_blind_close(org, event):
    before = state(event.round)
    response = org.post(url("console_round_close", event.tournament, 1), {})
    assert response.status_code == 409 and "look at the preview again" in main(response)
    assert state(event.round) == before


def test_a_dispute_blocks_closing_with_a_link_to_rule_on_it(org, event):
    disputed = game_of(event.t3, 2)
    game_confirm(game=disputed, party="b", agrees=False, reason="Low was ours", device=event.device_3)
    page = org.get(url("console_round_close", event.tournament, 1))
    body, words = text(page), main(page)
    assert "Closing is blocked" in words and "1 game(s) are disputed: rule on them first." in words
    assert f'href="{url("console_board", event.tournament, event.t3.pk)}">Table 3: rule on the dispute</a>' in body
    assert 'class="danger">Close round 1</button>' not in body and "Look again" in words
    # a token posted anyway (an old tab) is refused in words
    before = state(event.round)
    response = org.post(url("console_round_close", event.tournament, 1), {"token": event.preview().token})
    assert response.status_code == 409
    refusal = main(response)
    assert "Round 1 was not closed. 1 game(s) of round 1 are disputed: rule on them first." in refusal
    assert state(event.round) == before
    # the organiser rules (confirms the game on the board's page): the preview can close again
    event.confirm(disputed)
    assert 'class="danger">Close round 1</button>' in text(org.get(url("console_round_close", event.tournament, 1)))


def test_a_level_knockout_match_blocks_closing_with_a_link_to_its_board():
    board = make_board(pairing_system="knockout")
    tournament = board.round.tournament
    organiser = make_organiser(tournament)
    win_game(board, to=0, hands=2)
    win_game(board, to=1, hands=2)  # 1-1, game 3 not begun
    page = signed_in(organiser).get(url("console_round_close", tournament, board.round.number))
    body, words = text(page), main(page)
    assert "Closing is blocked" in words and "Table 1 is level: a knockout match must be decided" in words
    assert f'href="{url("console_board", tournament, board.pk)}">Table 1: the knockout match is level</a>' in body
    assert 'class="danger">Close round' not in body


def test_a_closed_round_has_no_preview(org, event):
    event.close()
    response = org.get(url("console_round_close", event.tournament, 1), follow=True)
    assert response.redirect_chain[-1][0] == url("console_tournament", event.tournament)
    assert "Round 1 is closed: only a round in play closes." in messages_of(response)
    again = org.post(url("console_round_close", event.tournament, 1), {"token": "x"}, follow=True)
    assert "Round 1 is closed: only a round in play closes." in messages_of(again)


# ---- reopening -----------------------------------------------------------------------------------------------


def test_reopening_says_what_it_puts_back_then_puts_back_every_row_closing_touched(org, event):
    before = state(event.round)
    event.close()
    page = org.get(url("console_round_reopen", event.tournament, 1))
    assert page.status_code == 200
    words = main(page)
    assert "Reopen round 1" in words and "What reopening does" in words
    assert "The 3 games closing voided are in play again, as they stood." in words
    assert "Closing's confirmation of 2 finished games is withdrawn: the standings stop counting them" in words
    assert "Tables 1, 2, 5, decided when time was called, are undecided again." in words
    assert 'class="danger">Reopen round 1</button>' in text(page) and "Keep it closed" in words
    assert fresh(event.round).status == Round.Status.CLOSED  # reading the page changes nothing

    response = org.post(url("console_round_reopen", event.tournament, 1), follow=True)
    assert response.redirect_chain[-1][0].startswith(url("console_tournament", event.tournament))
    assert "Round 1 is in play again: what closing changed is undone." in " ".join(messages_of(response))
    after = state(event.round)
    assert after["games"] == before["games"]
    assert after["confirmations"] == before["confirmations"]
    assert after["boards"] == before["boards"]
    assert after["round"]["status"] == before["round"]["status"]
    # and it closes again from a fresh preview
    assert "Close round 1…" in main(response)
    org.post(url("console_round_close", event.tournament, 1), {"token": event.preview().token})
    assert fresh(event.round).status == Round.Status.CLOSED


def test_reopening_after_the_clock_ran_out_says_time_is_still_called(org, event):
    Round.objects.filter(pk=event.round.pk).update(ends_at=timezone.now() - timedelta(minutes=3))
    event.close()
    response = org.post(url("console_round_reopen", event.tournament, 1), follow=True)
    said = " ".join(messages_of(response))
    assert "Time is still called: add time on the round's clock if games are to start." in said
    assert "Time called" in main(response)


def test_reopening_is_refused_in_words_when_a_result_changed_since_closing(org, event):
    event.close()
    first = Hand.objects.get(game=game_of(event.t3, 1), number=1, status="active")
    hand_correct(hand=first, record=hand(first.dealer, A2_B2), expected_version=first.version, user=event.organiser)
    before = state(event.round)
    response = org.post(url("console_round_reopen", event.tournament, 1))
    assert response.status_code == 409
    words = main(response)
    assert "Round 1 was not reopened. Some results changed since the round was closed, so reopening would not " \
           "restore them exactly" in words
    no_field_named(words[words.index("Round 1 was not reopened"):words.index("What reopening does")])
    assert state(event.round) == before


def test_reopening_is_refused_once_the_next_round_is_drawn_and_for_a_round_in_play(org, event):
    page = org.get(url("console_round_reopen", event.tournament, 1))
    assert "Round 1 is in play: only a closed round reopens." in main(page)
    assert "Reopen round 1</button>" not in text(page)
    response = org.post(url("console_round_reopen", event.tournament, 1))
    assert response.status_code == 409
    assert "Round 1 was not reopened. Round 1 is in play: only a closed round reopens." in main(response)

    event.close()
    round_start(tournament=event.tournament, user=event.organiser)  # round 2 drafted
    dashboard = main(org.get(url("console_tournament", event.tournament)))
    assert "Reopen round 1…" not in dashboard
    response = org.post(url("console_round_reopen", event.tournament, 1))
    assert response.status_code == 409
    words = main(response)
    assert "Round 1 was not reopened. Round 2 is already drafted: only the last round reopens." in words
    assert fresh(event.round).status == Round.Status.CLOSED


# ---- the clock -----------------------------------------------------------------------------------------------


def _left(event: ClosingEvent) -> float:
    return (fresh(event.round).ends_at - timezone.now()).total_seconds() / 60


def test_add_time_and_shorten_move_the_clock_by_the_minutes_typed(org, event):
    assert 59 <= _left(event) <= 60
    response = org.post(url("console_round_action", event.tournament, 1), {"action": "clock_add", "minutes": "10"},
                        follow=True)
    assert response.redirect_chain[-1][0].endswith("#clock")
    assert 69 <= _left(event) <= 70
    said = " ".join(messages_of(response))
    assert re.search(r"Round 1: 10 minutes added\. Time now ends at \d\d:\d\d \(70 min left\)\.", said)
    response = org.post(url("console_round_action", event.tournament, 1),
                        {"action": "clock_shorten", "minutes": "25"}, follow=True)
    assert 44 <= _left(event) <= 45
    assert re.search(r"shortened by 25 minutes\. Time now ends at \d\d:\d\d \(45 min left\)", " ".join(
        messages_of(response)))
    response = org.post(url("console_round_action", event.tournament, 1),
                        {"action": "clock_shorten", "minutes": "90"}, follow=True)
    assert _left(event) <= 0
    assert "shortened to nothing, so time is called" in " ".join(messages_of(response))
    words = main(response)
    assert "Time called at" in words and "Call time now" not in words  # already called
    # time called, Add time starts the clock again from now
    org.post(url("console_round_action", event.tournament, 1), {"action": "clock_add", "minutes": "5"})
    assert 4.9 <= _left(event) <= 5


def test_call_time_now_ends_the_round_clock_without_closing(org, event):
    response = org.post(url("console_round_action", event.tournament, 1), {"action": "call_time"}, follow=True)
    said = " ".join(messages_of(response))
    assert re.search(r"Round 1: time called at \d\d:\d\d\. No new game starts; the games in play finish\.", said)
    assert _left(event) <= 0 and fresh(event.round).status == Round.Status.IN_PLAY
    assert "Time called" in main(response) and "Close round 1…" in main(response)


@pytest.mark.parametrize("minutes", ["", "abc", "0", "-5", "601", "2.5"])
def test_minutes_that_are_not_a_whole_number_from_1_to_600_are_refused_in_words(org, event, minutes):
    ends = fresh(event.round).ends_at
    response = org.post(url("console_round_action", event.tournament, 1), {"action": "clock_add", "minutes": minutes},
                        follow=True)
    said = " ".join(messages_of(response))
    assert said == "Give the minutes as a whole number from 1 to 600."
    assert fresh(event.round).ends_at == ends


def test_add_time_past_the_longest_clock_is_refused_with_what_may_be_added(org, event):
    ends = fresh(event.round).ends_at
    response = org.post(url("console_round_action", event.tournament, 1), {"action": "clock_add", "minutes": "590"},
                        follow=True)
    said = " ".join(messages_of(response))
    assert said == "A round's clock runs at most 600 minutes from now: 60 left, so add at most 540."
    no_field_named(said.replace("at most", ""))
    assert fresh(event.round).ends_at == ends


def test_a_round_without_a_time_limit_says_so_and_add_time_starts_a_clock():
    event = ClosingEvent()  # no round minutes
    org = signed_in(event.organiser)
    words = main(org.get(url("console_tournament", event.tournament)))
    assert "No time limit for this round." in words
    org.post(url("console_round_action", event.tournament, 1), {"action": "clock_add", "minutes": "20"})
    assert 19.9 <= _left(event) <= 20


def test_the_clock_of_a_closed_round_is_refused_in_words(org, event):
    event.close()
    response = org.post(url("console_round_action", event.tournament, 1), {"action": "call_time"}, follow=True)
    said = " ".join(messages_of(response))
    assert said == "Round 1 is closed: only a round in play has a clock."


# ---- round_start's refusals in the console ----------------------------------------------------------------------


def test_a_round_that_skips_one_or_goes_past_the_planned_rounds_is_refused_in_words():
    tournament = make_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=1)
    tournament = fresh(tournament)
    organiser = make_organiser(tournament)
    make_entries(tournament, 4)
    org = signed_in(organiser)
    response = org.post(url("console_round_action", tournament, 3), {"action": "draft"}, follow=True)
    assert messages_of(response) == ["Round 3 cannot start yet: round 1 comes next."]
    first = round_start(tournament=tournament, user=organiser)
    play_and_close(fresh(first), organiser)
    words = main(org.get(url("console_tournament", tournament)))
    assert "Pair round 2" not in words
    response = org.post(url("console_round_action", tournament, 2), {"action": "draft"}, follow=True)
    said = messages_of(response)
    assert said == ["The one planned round is played. To play another, raise the rounds planned in the event's "
                    "settings first."]
    assert not Round.objects.filter(tournament=tournament, number=2).exists()
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED, rounds_planned=3)
    response = org.post(url("console_round_action", tournament, 2), {"action": "draft"}, follow=True)
    assert messages_of(response) == ["The event is finished: reopen it to play another round."]


def test_finish_the_event_is_offered_once_the_last_planned_round_is_closed():
    tournament = make_tournament()
    Tournament.objects.filter(pk=tournament.pk).update(rounds_planned=2)
    tournament = fresh(tournament)
    organiser = make_organiser(tournament)
    make_entries(tournament, 4)
    org = signed_in(organiser)
    play_and_close(round_start(tournament=tournament, user=organiser), organiser)
    assert "Finish the event…" not in main(org.get(url("console_tournament", tournament)))
    play_and_close(round_start(tournament=tournament, user=organiser), organiser)
    page = org.get(url("console_tournament", tournament))
    assert "Round 2, the last planned round, is closed." in main(page)
    assert f'href="{url("console_finish", tournament)}">Finish the event…</a>' in text(page)
    assert "Pair round 3" not in main(page)
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.FINISHED)
    words = main(org.get(url("console_tournament", tournament)))
    assert "Finish the event…" not in words and "The event is finished" in words and "Reopen round" not in words


# ---- who may ---------------------------------------------------------------------------------------------------


def test_a_scorekeeper_reads_the_clock_but_cannot_move_it_close_or_reopen(event):
    keeper_user = make_user()
    event.tournament.roles.create(user=keeper_user, role="scorekeeper")
    keeper = signed_in(keeper_user)
    page = keeper.get(url("console_tournament", event.tournament))
    words, body = main(page), text(page)
    assert "Round 1 clock" in words and "Time ends at" in words
    assert "Add time" not in body and "Call time now" not in body and "Close round" not in body
    assert 'id="settle"' not in body
    before = state(event.round)
    assert keeper.get(url("console_round_close", event.tournament, 1)).status_code == 403
    assert keeper.post(url("console_round_close", event.tournament, 1),
                       {"token": event.preview().token}).status_code == 403
    for action in ("clock_add", "clock_shorten", "call_time", "close"):
        response = keeper.post(url("console_round_action", event.tournament, 1), {"action": action, "minutes": "5"})
        assert response.status_code == 403, action
    assert state(event.round) == before
    event.close()
    assert keeper.get(url("console_round_reopen", event.tournament, 1)).status_code == 403
    assert keeper.post(url("console_round_reopen", event.tournament, 1)).status_code == 403
    assert fresh(event.round).status == Round.Status.CLOSED


def test_strangers_and_visitors_are_kept_out(client, event):
    for name in ("console_round_close", "console_round_reopen"):
        assert client.get(url(name, event.tournament, 1)).status_code == 302  # to the login page
        assert signed_in(make_user()).get(url(name, event.tournament, 1)).status_code == 403
    assert Client(enforce_csrf_checks=True).post(url("console_round_close", event.tournament, 1)).status_code in (
        302, 403)
    other = ClosingEvent()
    response = signed_in(other.organiser).post(url("console_round_close", event.tournament, 1),
                                               {"token": event.preview().token})
    assert response.status_code == 403 and fresh(event.round).status == Round.Status.IN_PLAY


def test_the_preview_and_reopen_forms_carry_csrf(org, event):
    for page in (url("console_round_close", event.tournament, 1), url("console_tournament", event.tournament)):
        body = text(org.get(page))
        assert body.count("<form") and body.count("csrfmiddlewaretoken") == body.count("<form"), page
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(event.organiser)
    response = strict.post(url("console_round_close", event.tournament, 1), {"token": event.preview().token})
    assert response.status_code == 403 and fresh(event.round).status == Round.Status.IN_PLAY


# ---- the public pages ------------------------------------------------------------------------------------------


def _published(event: ClosingEvent) -> Tournament:
    Tournament.objects.filter(pk=event.tournament.pk).update(published=True)
    return fresh(event.tournament)


def test_the_public_pairings_and_home_show_the_time_left_in_the_venue_zone(client, event, settings):
    settings.HANGJACK_PUBLIC_CACHE = {"live": 0, "results": 0}
    tournament = _published(event)
    clock = presenters.clock_view(Round.objects.select_related("tournament").get(pk=event.round.pk))
    assert clock is not None and not clock.time_called
    for name, args in (("pairings", (1,)), ("tournament", ())):
        words = main(client.get(url(name, tournament, *args)))
        assert re.search(rf"Time ends at {clock.ends_local} \((1 h 00|59) min left at \d\d:\d\d\)\.", words), words
    round_call_time(round=event.round, user=event.organiser)
    called = presenters.clock_view(Round.objects.select_related("tournament").get(pk=event.round.pk))
    for name, args in (("pairings", (1,)), ("tournament", ())):
        words = main(client.get(url(name, tournament, *args)))
        assert f"Time called at {called.ends_local}: no new game starts; the games in play finish." in words
    event.close()
    for name, args in (("pairings", (1,)), ("tournament", ())):
        words = main(client.get(url(name, tournament, *args)))
        assert "Time called" not in words and "Time ends" not in words  # a closed round has no clock


def test_a_round_without_a_time_limit_shows_no_clock_on_the_public_pages(client, settings):
    settings.HANGJACK_PUBLIC_CACHE = {"live": 0, "results": 0}
    event = ClosingEvent()
    tournament = _published(event)
    for name, args in (("pairings", (1,)), ("tournament", ())):
        words = main(client.get(url(name, tournament, *args)))
        assert "Time ends" not in words and "Time called" not in words


def test_the_clock_reads_whole_minutes_between_the_two_times_it_shows():
    tournament = make_tournament()
    a, b = make_entries(tournament, 2)
    round_ = make_round(tournament, [(a, b)])
    ends = timezone.now().replace(second=30, microsecond=0) + timedelta(minutes=23)
    Round.objects.filter(pk=round_.pk).update(ends_at=ends)
    round_ = Round.objects.select_related("tournament").get(pk=round_.pk)
    now = ends - timedelta(minutes=23, seconds=40)  # 23 min 40 s before: 24 minutes between the clock faces
    view = presenters.clock_view(round_, now=now)
    assert view.minutes_left == 24 and view.left_words == f"24 min left at {view.read_local}"
    assert view.text == f"Time ends at {view.ends_local} (24 min left at {view.read_local})."
    late = presenters.clock_view(round_, now=ends - timedelta(seconds=20))
    assert late.left_words.startswith("less than a minute left") and not late.time_called
    long = presenters.clock_view(round_, now=ends - timedelta(minutes=65))
    assert long.left_words.startswith("1 h 05 min left")
    over = presenters.clock_view(round_, now=ends + timedelta(seconds=1))
    assert over.time_called and over.text.startswith(f"Time called at {over.ends_local}")
    assert presenters.clock_view(None) is None
