"""A per-render memo of the public reads, off unless a caller turns it on.

The publisher (``publishing.publish``) renders a dozen public pages of one event in a row by calling their
views; each view reads the event's entries, the shown round's boards and the standings again. Inside
``render_memo()`` those reads (``public_tournament``, ``public_rounds``, ``tournament_entries``,
``round_boards``, ``latest_snapshot``, ``standings``) are made once per event and argument and shared by every page of the render; the memo is
dropped when the block ends. Outside such a block (every request Django serves) nothing is remembered:
``remembered`` just calls the read.

``kept_with`` keeps what is made of an object kept across renders (a board's summary: ``boards.round_boards``)
for as long as that same object comes back: a pairings row, a board's JSON.

The memo lives in a ``ContextVar``, so it belongs to the render that opened it (a thread or task of its
own sees none). The values are shared, not copied: the views and templates only read them.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

_memo: ContextVar[dict[Hashable, Any] | None] = ContextVar("tournaments_selectors_render_memo", default=None)


@contextlib.contextmanager
def render_memo() -> Iterator[None]:
    """Remember the public reads for the duration of the block (one render of one event's pages); inside
    an open memo, the block shares it."""
    if _memo.get() is not None:
        yield
        return
    token = _memo.set({})
    try:
        yield
    finally:
        _memo.reset(token)


def active() -> bool:
    return _memo.get() is not None


def remembered(key: Hashable, read: Callable[[], T]) -> T:
    """``read()``, made once per ``key`` inside ``render_memo()``; outside it, every time."""
    memo = _memo.get()
    if memo is None:
        return read()
    try:
        return memo[key]  # type: ignore[no-any-return]
    except KeyError:
        value = memo[key] = read()
        return value


def prime(key: Hashable, value: Any) -> None:
    """Inside ``render_memo()``, set what ``remembered(key, ...)`` will answer (a read made for many keys at
    once: ``public.prefetch_boards``); outside it, nothing."""
    memo = _memo.get()
    if memo is not None:
        memo[key] = value


class Kept(OrderedDict[K, V]):
    """What a process keeps across renders, at most ``most`` items: ``keep`` adds one (the least recently used
    goes when full), ``take`` reads one (None when absent) and marks it used. Every cache kept across renders
    (the entries, the boards' summaries, the snapshots and tables, the rows' HTML) is one of these."""

    def __init__(self, most: int) -> None:
        super().__init__()
        self.most = most

    def take(self, key: K) -> V | None:
        value = self.get(key)
        if value is not None:
            self.move_to_end(key)
        return value

    def keep(self, key: K, value: V) -> V:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.most:
            self.popitem(last=False)
        return value


#: ``kept_with``'s values: (kind, id) -> (the object they were made of, the value). One per board and kind at
#: most: a national day's 500 boards make about 1,000.
KEPT_WITH_MOST = 20_000
_kept_with: dict[Hashable, tuple[object, Any]] = {}


def kept_with(source: object, key: Hashable, make: Callable[[], T]) -> T:
    """``make()``, kept across renders under ``key`` (a kind and an id) while it is asked for with the very same
    ``source`` object, which must not change while kept: a board's summary kept by ``boards.round_boards``
    (made again, a new object, when anything it shows changed). Outside a render, every time."""
    if _memo.get() is None:
        return make()
    kept = _kept_with.get(key)
    if kept is not None and kept[0] is source:
        return kept[1]  # type: ignore[no-any-return]
    value = make()
    if len(_kept_with) >= KEPT_WITH_MOST and key not in _kept_with:
        _kept_with.clear()
    _kept_with[key] = (source, value)
    return value
