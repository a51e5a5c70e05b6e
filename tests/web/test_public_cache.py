"""Public pages cached in tiers (web.cache): one render per change, not one per phone.

A page is served from the cache while nothing it shows has changed; a hand entered through the services
(which touches no board in mid-game), a confirmation or a new standings snapshot makes the next request
render it again at once. ETag and 304 keep working on top; a broken cache only turns caching off; the
console and the tablet are never cached.
"""

from __future__ import annotations

import pytest
from django.core.cache import caches
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from tests.tournaments.factories import make_board, make_organiser, submit, tally
from tournaments.models import Board, Game, Tournament
from tournaments.services import game_confirm, tournament_standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def board() -> Board:
    """A published tournament of two pairs, round 1 in play, its board seated (all through the services)."""
    board = make_board()
    Tournament.objects.filter(pk=board.round.tournament_id).update(published=True)
    return Board.objects.select_related("round__tournament").get(pk=board.pk)


def get(client, name, *args, **headers):
    return client.get(reverse(f"web:{name}", args=args), headers=headers)


def test_a_second_poll_is_served_from_the_cache_with_one_query(client, board, django_assert_num_queries):
    slug = board.round.tournament.slug
    first = get(client, "standings_live", slug)
    assert first.status_code == 200 and first["X-Page-Cache"] == "miss"
    with django_assert_num_queries(1):  # the fingerprint: what the page shows, as of the latest change
        again = get(client, "standings_live", slug)
    assert again["X-Page-Cache"] == "hit" and again.content == first.content
    assert again["ETag"] == first["ETag"]


def test_a_hand_in_mid_game_shows_at_once(client, board):
    slug = board.round.tournament.slug
    before = get(client, "standings_live", slug).content.decode()
    scorecard = get(client, "board_live", slug, board.pk)
    pairings = get(client, "pairings_live", slug, 1)
    submit(board, tally(0, to=0))  # A 4-0: no board row changes in mid-game
    after = get(client, "standings_live", slug)
    assert after["X-Page-Cache"] == "miss"
    assert "game 1: <strong>4-0</strong>" in after.content.decode() and "4-0" not in before
    assert get(client, "board_live", slug, board.pk).content != scorecard.content
    assert "now 4-0" in get(client, "pairings_live", slug, 1).content.decode()
    assert "now 4-0" not in pairings.content.decode()


def test_confirmations_and_snapshots_show_at_once_on_the_results_pages(client, board):
    t = board.round.tournament
    stats = get(client, "stats", t.slug)
    for dealer in range(4):
        submit(board, tally(dealer, to=0))
    game = Game.objects.get(board=board, number=1)
    assert game.status == "finished" and get(client, "stats", t.slug).content == stats.content  # not confirmed yet
    game_confirm(game=game, party="organiser", user=make_organiser(t))
    confirmed = get(client, "stats", t.slug)
    assert confirmed["X-Page-Cache"] == "miss" and confirmed.content != stats.content
    standings = get(client, "standings", t.slug)
    assert tournament_standings_recompute(tournament_id=t.pk)
    fresh = get(client, "standings", t.slug)
    assert fresh["X-Page-Cache"] == "miss" and fresh.content != standings.content


def test_the_results_tier_ignores_hands_in_mid_game(client, board):
    slug = board.round.tournament.slug
    get(client, "stats", slug)
    submit(board, tally(0, to=0))
    assert get(client, "stats", slug)["X-Page-Cache"] == "hit"  # statistics count confirmed games only


def test_etag_and_304_work_on_a_cached_page(client, board):
    slug = board.round.tournament.slug
    first = get(client, "standings_live", slug)
    again = get(client, "standings_live", slug, **{"If-None-Match": first["ETag"]})
    assert again.status_code == 304
    gz = get(client, "standings_live", slug, **{"Accept-Encoding": "gzip"})
    assert gz["X-Page-Cache"] == "hit" and gz["Content-Encoding"] == "gzip"


def test_each_search_is_its_own_page(client, board):
    slug = board.round.tournament.slug
    name = board.pair_a.pair.player_1.name
    everything = client.get(reverse("web:pairings", args=[slug, 1]))
    found = client.get(reverse("web:pairings", args=[slug, 1]), {"q": name})
    nothing = client.get(reverse("web:pairings", args=[slug, 1]), {"q": "nobody-at-all"})
    assert found["X-Page-Cache"] == nothing["X-Page-Cache"] == "miss"
    assert "No board matches" in nothing.content.decode() and "No board matches" not in found.content.decode()
    assert everything.content != found.content


def test_a_broken_cache_only_turns_caching_off(client, board, monkeypatch):
    store = caches["default"]

    def broken(*args, **kwargs):
        raise ConnectionError("cache down")

    monkeypatch.setattr(store, "get", broken)
    monkeypatch.setattr(store, "set", broken)
    response = get(client, "standings_live", board.round.tournament.slug)
    assert response.status_code == 200 and "Counted" in response.content.decode()


def test_a_tier_set_to_zero_is_not_cached(client, board, settings):
    settings.HANGJACK_PUBLIC_CACHE = {"live": 0}
    slug = board.round.tournament.slug
    get(client, "standings_live", slug)
    assert "X-Page-Cache" not in get(client, "standings_live", slug)


def test_an_unpublished_tournament_stays_404_and_is_never_cached(client, board):
    Tournament.objects.filter(pk=board.round.tournament_id).update(published=False)
    assert get(client, "standings", board.round.tournament.slug).status_code == 404


def _views(resolver: URLResolver, prefix: str = ""):
    for p in resolver.url_patterns:
        if isinstance(p, URLResolver):
            yield from _views(p, prefix + str(p.pattern))
        elif isinstance(p, URLPattern):
            yield prefix + str(p.pattern), p.callback


def test_only_public_tournament_pages_are_cached():
    """The console and the tablet carry CSRF tokens, sessions and device state: never in a shared cache."""
    cached = {route for route, view in _views(get_resolver()) if getattr(view, "public_cache_tier", None)}
    assert cached and all(route.startswith("t/<slug:slug>/") for route in cached)
    assert not any(route.startswith(("console/", "tablet/", "api/", "accounts/")) for route in cached)


def test_private_pages_are_never_served_from_the_cache(client, board):
    user = make_organiser(board.round.tournament)
    client.force_login(user)
    slug = board.round.tournament.slug
    for url in (reverse("web:console_tournament", args=[slug]), reverse("web:console_board", args=[slug, board.pk]),
                reverse("web:tablet")):
        for _ in range(2):
            response = client.get(url)
            assert response.status_code == 200 and "X-Page-Cache" not in response, url
            assert "no-cache" in response["Cache-Control"] or "no-store" in response["Cache-Control"], url


def test_a_round_starting_play_shows_at_once(client, board):
    """Publication and closing have their times; starting play changes only the round's status."""
    from tournaments.models import Round
    from tournaments.services import round_start_play

    t = board.round.tournament
    Round.objects.filter(pk=board.round_id).update(status=Round.Status.PUBLISHED)
    assert "Round 1: pairings out" in get(client, "tournament", t.slug).content.decode()
    round_start_play(round=board.round)
    assert "Round 1: in play" in get(client, "tournament", t.slug).content.decode()
