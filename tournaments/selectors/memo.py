"""A per-render memo of the public reads, off unless a caller turns it on.

The publisher (``publishing.publish``) renders a dozen public pages of one event in a row by calling their
views; each view reads the event's entries, the shown round's boards and the standings again. Inside
``render_memo()`` those reads (``public_tournament``, ``public_rounds``, ``tournament_entries``,
``round_boards``, ``latest_snapshot``, ``standings``) are made once per event and argument and shared by every page of the render; the memo is
dropped when the block ends. Outside such a block (every request Django serves) nothing is remembered:
``remembered`` just calls the read.

The memo lives in a ``ContextVar``, so it belongs to the render that opened it (a thread or task of its
own sees none). The values are shared, not copied: the views and templates only read them.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Hashable, Iterator
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")

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
