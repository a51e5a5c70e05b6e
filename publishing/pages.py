"""Which public addresses an event has, by scope: the event's own pages, a round's, a board's, a pair's, a
club's, and the site's list of events. Each is a page or a JSON read that Django serves at that address
(web/urls.py, api/urls.py); the polled fragments (``live/``) are published like pages.

Pages with a query string (the pairings' search, the API list's pages) are not published: Caddy hands a
request with a query to Django.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.urls import reverse


def site_addresses() -> list[str]:
    """The public home: the list of published events."""
    return [reverse("web:home")]


def event_prefixes(slug: str) -> list[str]:
    """The folders holding everything of one event (withdrawn together)."""
    return [reverse("web:tournament", args=[slug]), reverse("api:public-tournament", args=[slug])]


def standings_addresses(slug: str) -> list[str]:
    """What shows the standings table and nothing live: the standings' JSON and the whole table of a large
    event. They change with a new standings snapshot, the rounds' states (the caption) and the event's (final
    results), never with a hand in play: rendered when that moved (``tier="standings"``), not on every hand.
    The JSON first: what a change is waited for goes out first."""
    return [reverse("api:public-standings", args=[slug]), reverse("web:standings_table", args=[slug])]


def event_addresses(slug: str) -> list[str]:
    """The event's own live pages: they change with any hand or result (the standings page and its live part
    list the boards in play; the home, the hall)."""
    return [reverse("web:standings", args=[slug]), reverse("web:standings_live", args=[slug]),
            reverse("web:tournament", args=[slug]),
            reverse("api:public-tournament", args=[slug]), reverse("web:hall", args=[slug]),
            reverse("api:public-rounds", args=[slug])]  # the rounds' JSON carries the live round's clock


def results_addresses(slug: str) -> list[str]:
    """The event's index and results pages: the rounds' list, statistics and clubs (the rounds' list reads
    every round's boards: the costliest event page, measured), the entries' list and Follow my pair (its
    data is the public JSON, read by the browser)."""
    return [reverse("web:rounds", args=[slug]),
            reverse("web:stats", args=[slug]), reverse("web:clubs", args=[slug]),
            reverse("api:public-statistics", args=[slug]), reverse("web:public_entries", args=[slug]),
            reverse("web:follow", args=[slug])]


def round_addresses(slug: str, number: int) -> list[str]:
    return [reverse("web:pairings", args=[slug, number]), reverse("web:pairings_live", args=[slug, number]),
            reverse("api:public-round", args=[slug, number])]


def board_addresses(slug: str, board_id: int) -> list[str]:
    return [reverse("web:board", args=[slug, board_id]), reverse("web:board_live", args=[slug, board_id]),
            reverse("api:public-scorecard", args=[slug, board_id])]


def entry_addresses(slug: str, entry_ids: Iterable[int]) -> list[str]:
    return [reverse("web:pair", args=[slug, entry_id]) for entry_id in entry_ids]


def club_addresses(slug: str, club_ids: Iterable[int]) -> list[str]:
    return [reverse("web:club", args=[slug, club_id]) for club_id in club_ids]


def history_addresses(club_ids: Iterable[int], player_ids: Iterable[int]) -> list[str]:
    """The clubs' and players' public histories across events (outside the event's folders: a full render
    does not prune them; a history no longer public renders as not found and is withdrawn)."""
    return ([reverse("web:club_history", args=[club_id]) for club_id in club_ids]
            + [reverse("web:player_history", args=[player_id]) for player_id in player_ids])
