"""``memo.kept_with``: what is made of an object kept across renders is kept while that very object comes back
(tournaments/selectors/memo.py); outside a render it is made every time."""

from __future__ import annotations

from tournaments.selectors import memo


def _counting():
    made = []

    def make():
        made.append(1)
        return {"n": len(made)}

    return made, make


def test_kept_while_the_same_object_comes_back_and_made_again_for_another():
    memo._kept_with.clear()
    made, make = _counting()
    source = object()
    with memo.render_memo():
        first = memo.kept_with(source, ("row", 1), make)
    with memo.render_memo():  # the next render, the same (kept) summary
        assert memo.kept_with(source, ("row", 1), make) is first
        other = memo.kept_with(object(), ("row", 1), make)  # the board's summary made again
    assert other is not first and len(made) == 2
    with memo.render_memo():
        assert memo.kept_with(source, ("row", 2), make) is not first  # another board or kind
    assert len(made) == 3


def test_outside_a_render_it_is_made_every_time_and_nothing_is_kept():
    memo._kept_with.clear()
    made, make = _counting()
    source = object()
    memo.kept_with(source, ("row", 1), make)
    memo.kept_with(source, ("row", 1), make)
    assert len(made) == 2 and not memo._kept_with


def test_the_kept_values_are_bounded(monkeypatch):
    memo._kept_with.clear()
    monkeypatch.setattr(memo, "KEPT_WITH_MOST", 5)
    _made, make = _counting()
    with memo.render_memo():
        for board in range(12):
            memo.kept_with(object(), ("row", board), make)
    assert len(memo._kept_with) <= 5
    memo._kept_with.clear()


def test_kept_holds_at_most_its_size_and_lets_the_least_recently_used_go():
    kept: memo.Kept[str, int] = memo.Kept(2)
    kept.keep("a", 1)
    kept.keep("b", 2)
    assert kept.take("a") == 1  # "a" used: "b" is now the least recently used
    kept.keep("c", 3)
    assert list(kept) == ["a", "c"] and kept.take("b") is None
