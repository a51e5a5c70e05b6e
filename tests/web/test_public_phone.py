"""Issue 17, the spectators' pages through the test client: one test per problem the issue lists.

A spectator on a 390 px phone met: abbreviations explained only in hover tooltips, a caption saying "after
round 1" while the table counts round 2's boards, every pair's names twice, a Games column in a table
scrolling sideways, no date, navigation hiding sections, internal words ("Rules: trinidad-tournament",
"Level 0-0", "9C"), pairing cards without a host and a backup scoresheet of 12 lines. The browser half
(widths, axe, screenshots) is tests/web/test_public_phone_browser.py.
"""

from __future__ import annotations

import datetime as dt
import re
from html import unescape

import pytest
from django.contrib.auth.models import User
from django.test import Client
from django.urls import reverse

from tournaments.models import Board, Pair, Round, TournamentRole

from .factories import finish_board, make_round, make_snapshot, make_tournament, play_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def event():
    """Round 1 closed and counted (snapshot after round 1); round 2 in play: table 1 has played three hands
    of game 1 and none finished; 5 pairs (a bye). One pair has no name of its own (its players' names)."""
    t = make_tournament(pairs=5, starts_on=dt.date(2026, 12, 5), ends_on=dt.date(2026, 12, 6))
    Pair.objects.filter(pk=t.entries.order_by("seed").first().pair_id).update(name="")
    r1 = make_round(t, 1, Round.Status.CLOSED)
    for i, b in enumerate(r1.boards.exclude(pair_b=None), 1):
        finish_board(b, seed=i)
    make_snapshot(t, after_round=1)
    r2 = make_round(t, 2, Round.Status.IN_PLAY)
    play_game(r2.boards.get(table=1), 1, seed=77, hands=3)
    return t


def get(client, name, *args):
    response = client.get(reverse(f"web:{name}", args=args))
    assert response.status_code == 200, (name, response.status_code)
    return response.content.decode()


def text_of(html: str) -> str:
    """The words a reader sees: tags, their attributes (tooltips) and scripts dropped."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


def section(html: str, element_id: str) -> str:
    """The element with this id and what follows up to its closing tag of the same name (no nesting of
    the same tag inside, which is how the pages write these sections)."""
    match = re.search(rf'<(\w+)[^>]*\bid="{element_id}"', html)
    assert match, f"no #{element_id}"
    tag = match.group(1)
    end = html.index(f"</{tag}>", match.end())
    return html[match.start():end]


def public_pages(t) -> list[tuple[str, tuple]]:
    board = Board.objects.get(round__tournament=t, round__number=2, table=1)
    entry = t.entries.order_by("seed").first()
    club = entry.pair.club
    return [("tournament", (t.slug,)), ("standings", (t.slug,)), ("rounds", (t.slug,)), ("pairings", (t.slug, 2)),
            ("board", (t.slug, board.id)), ("pair", (t.slug, entry.id)), ("clubs", (t.slug,)),
            ("club", (t.slug, club.id)), ("stats", (t.slug,)), ("public_entries", (t.slug,))]


# ---- standings -----------------------------------------------------------------------------------------


def test_standings_abbreviations_have_a_visible_legend(client, event):
    """Tooltips (abbr title) are all a phone had: the legend says every heading in words on the page."""
    html = get(client, "standings", event.slug)
    legend = text_of(section(html, "legend"))
    for short, words in (("MP", "Match points"), ("Bulls", "Bullseyes"), ("Buch.", "Buchholz"), ("P", "Boards played")):
        assert re.search(rf"\b{re.escape(short)}\s+{words}", legend, re.I), (short, legend)


def test_standings_rows_fit_a_phone_with_the_rest_one_tap_away(client, event):
    """The ranking columns first (rank, name, the main score); every other figure in the row's details."""
    html = get(client, "standings", event.slug)
    rows = section(html, "rank-rows")
    items = re.findall(r"<li\b.*?</li>", rows, flags=re.S)
    assert len(items) == 5
    first = items[0]
    summary = first.split("</summary>")[0]
    assert "<details" in first and "MP" in summary
    for figure in ("Bulls", "Chalk", "HJ", "Buch."):
        assert figure in first.split("</summary>")[1], figure


def test_standings_caption_says_the_round_in_play_it_counts(client, event):
    """Round 1 closed, round 2 in play and counting: not "after round 1" alone."""
    caption = text_of(section(get(client, "standings", event.slug), "standings-caption"))
    assert "round 2 in play" in caption, caption


def test_how_ties_are_broken_follows_the_events_list(client, event):
    html = get(client, "standings", event.slug)
    ties = text_of(section(html, "ties"))
    labels = [m for m in ("Match points", "Wins", "Bullseyes won", "Chalk difference") if m in ties]
    assert labels and ties.index(labels[0]) < ties.index(labels[-1])


# ---- pairings -----------------------------------------------------------------------------------------


def test_pairings_say_each_pairs_names_once(client, event):
    html = get(client, "pairings", event.slug, 2)
    tables = text_of(section(html, "pairings-body"))
    for entry in event.entries.select_related("pair__player_1", "pair__player_2"):
        assert tables.count(entry.pair.player_1.name) == 1, (entry.pair.player_1.name, tables)


def test_pairings_by_name_say_where_each_player_sits(client, event):
    html = get(client, "pairings", event.slug, 2)
    by_name = text_of(section(html, "by-name"))
    board = Board.objects.get(round__tournament=event, round__number=2, table=2)
    player = board.pair_b.pair.player_2
    assert re.search(rf"{re.escape(player.name)}.{{0,80}}table 2", by_name, re.I), by_name
    names = re.findall(r'data-name="([^"]+)"', section(html, "by-name"))
    assert names == sorted(names, key=str.casefold) and len(names) == 10


def test_pairings_games_are_not_in_a_sideways_scrolling_table(client, event):
    html = get(client, "pairings", event.slug, 2)
    assert 'class="scroll"' not in html
    assert "<table" not in section(html, "pairings-body")


@pytest.mark.parametrize("name", ["pair", "club", "board"])
def test_other_pages_say_a_pairs_names_once(client, event, name):
    entry = event.entries.order_by("seed").first()  # the pair without a name of its own
    args = dict(public_pages(event))[name]
    body = text_of(get(client, name, *args))
    main = body.split("Skip to content", 1)[1]
    pair = entry.pair
    if name == "board":
        board = Board.objects.get(round__tournament=event, round__number=2, table=1)
        pair = board.pair_a.pair
    assert main.count(f"{pair.player_1.name} & {pair.player_2.name}") <= 1 + (name == "pair"), main


# ---- on every page ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("index", range(10))
def test_every_page_has_dates_venue_state_and_every_section(client, event, index):
    name, args = public_pages(event)[index]
    html = get(client, name, *args)
    text = text_of(html)
    assert "5–6 December 2026" in text or "5-6 December 2026" in text, name
    assert "Couva Community Centre" in text, name
    assert "Round 2 in play" in text, name
    nav = section(html, "sections")
    for label in ("Standings", "Pairings", "Statistics", "Clubs", "Follow my pair"):
        assert f">{label}<" in nav, (name, label)
    assert re.search(r"Updated \d\d:\d\d", text), name


def test_rules_are_said_by_their_label(client, event):
    text = text_of(get(client, "tournament", event.slug))
    assert "trinidad-tournament" not in text
    assert "Trinidad tournament sheet" in text


def test_a_board_without_a_finished_game_says_so_not_level_0_0(client, event):
    board = Board.objects.get(round__tournament=event, round__number=2, table=1)
    text = text_of(get(client, "board", event.slug, board.id))
    assert "Level 0-0" not in text and "level 0-0" not in text
    assert "No game finished yet" in text


def test_a_drafted_round_is_never_said_started(client, event):
    Round.objects.filter(tournament=event, number=2).update(status=Round.Status.CLOSED)
    make_round(event, 3, Round.Status.DRAFTED)
    for name, args in public_pages(event):
        if name in ("pairings", "board"):
            continue
        text = text_of(get(client, name, *args))
        assert not re.search(r"round 3 (in play|started|pairings|: pairings)", text, re.I), name


def test_an_organisers_swap_leaves_no_internal_words(client, event):
    board = Board.objects.get(round__tournament=event, round__number=2, table=2)
    Board.objects.filter(pk=board.pk).update(explanation=f"set by the organiser (swapped {board.pair_a_id} and 11)")
    for name, args in public_pages(event):
        assert "swapped" not in text_of(get(client, name, *args)), name


# ---- the organisers' prints: pairing cards and the paper scoresheet ----------------------------------------


@pytest.fixture
def org_client(event):
    user = User.objects.create_user("org-phone", password="pw-organiser-1")
    TournamentRole.objects.create(tournament=event, user=user)
    c = Client()
    c.force_login(user)
    return c


def test_pairing_cards_give_the_full_address(org_client, event):
    html = org_client.post(reverse("web:console_pairing_codes", args=[event.slug]), {"tables": "1"}).content.decode()
    assert "http://testserver/tablet/pair/" in text_of(html)


def test_paper_scoresheet_has_thirty_lines_and_cards_as_symbols(org_client, event):
    html = org_client.get(reverse("web:console_print_scoresheets", args=[event.slug, 2])).content.decode()
    sheet = section(html, "sheet-1")
    assert sheet.count("<tr") - 1 >= 30  # the heading row, then 30 lines for hands
    assert not re.search(r">\s*(10|[2-9AJQK])[CDHS]\b", sheet)
    board = Board.objects.get(round__tournament=event, round__number=2, table=1)
    names = text_of(sheet)
    assert names.count(board.pair_a.pair.player_1.name) == 1


# ---- new pages ----------------------------------------------------------------------------------------------


def test_follow_my_pair_page_lists_every_pair_and_reads_the_public_json(client, event):
    html = get(client, "follow", event.slug)
    assert 'src="/static/js/follow.js"' in html
    for entry in event.entries.all():
        assert f'value="{entry.id}"' in html
    assert reverse("api:public-rounds", args=[event.slug]) in html


def test_hall_display_has_pairings_boards_standings_and_the_clock(client, event):
    Round.objects.filter(tournament=event, number=2).update(
        ends_at=dt.datetime(2026, 12, 5, 20, 0, tzinfo=dt.UTC))
    html = get(client, "hall", event.slug)
    for part in ('id="hall-pairings"', 'id="hall-boards"', 'id="hall-standings"', 'data-ends-at="2026-12-05T20:00'):
        assert part in html, part
    assert 'src="/static/js/hall.js"' in html


def test_standings_and_pairings_can_be_shared_as_text(client, event):
    for name, args in (("standings", (event.slug,)), ("pairings", (event.slug, 2))):
        html = get(client, name, *args)
        share = section(html, "share-text")
        assert "Copy as text" in get(client, name, *args)
        assert event.name in share and "Table 1" in share or "1." in share


def test_public_history_of_a_club_and_a_player_across_events(client, event):
    entry = event.entries.order_by("seed").first()
    other = make_tournament(pairs=2, name="Gold Cup", starts_on=dt.date(2025, 6, 1))
    player = entry.pair.player_1
    club = entry.pair.club
    club_html = client.get(reverse("web:club_history", args=[club.id])).content.decode()
    assert event.name in club_html and other.name in club_html
    player_html = client.get(reverse("web:player_history", args=[player.id])).content.decode()
    assert event.name in player_html


def test_the_home_page_says_states_in_words(client, event):
    text = text_of(get(client, "home"))
    assert "Under way" in text and "Running" not in text


def test_history_leaves_unpublished_events_out_and_a_stranger_is_not_found(client, event):
    entry = event.entries.order_by("seed").first()
    hidden = make_tournament(pairs=2, name="Private Draft", published=False)
    club = entry.pair.club
    assert hidden.entries.filter(pair__club=club).exists()
    html = client.get(reverse("web:club_history", args=[club.id])).content.decode()
    assert event.name in html and "Private Draft" not in html
    stranger = hidden.entries.first().pair.player_1
    assert client.get(reverse("web:player_history", args=[stranger.id])).status_code == 404
