"""Filters for the game's words on the pages: cards with their suit, sides as A and B, chalk cells."""

from __future__ import annotations

from django import template
from django.utils.html import format_html

from web.cards import card_label, card_spoken, is_red
from web.chalk import side_letter

register = template.Library()


@register.filter
def card(text: str | None) -> str:
    """``6D`` -> a span showing ``6♦`` in the suit's colour (red suits get the ``red`` class)."""
    if not text:
        return ""
    return format_html(
        '<span class="card{}" title="{}">{}</span>', " red" if is_red(text) else "", card_spoken(text), card_label(text)
    )


@register.filter
def side(value: object) -> str:
    """0 -> ``A``, 1 -> ``B``."""
    return side_letter(value)


@register.filter
def index(sequence: object, i: int) -> object:
    try:
        return sequence[i]  # type: ignore[index]
    except (IndexError, KeyError, TypeError):
        return ""


@register.filter
def reading(line: object) -> str:
    """A chalk line as one sentence: ``Kick 6♦ +2 to A; High A; Low B; Hang jack B +3; Game A: 9-7``."""
    from web.chalk import ChalkLine
    from web.chalk import reading as read

    return read(line) if isinstance(line, ChalkLine) else ""


@register.filter
def result_text(summary: object) -> str:
    """A board's result in words (``web.presenters.board_result``): a forfeit says who did not play."""
    from tournaments.selectors import BoardSummary
    from web.presenters import board_result

    return board_result(summary) if isinstance(summary, BoardSummary) else ""


@register.filter
def forfeit(board: object) -> str:
    """``Forfeit: X did not play`` for a forfeited board (a ``Board`` or its ``BoardSummary``), else ""."""
    from tournaments.models import Board
    from web.presenters import forfeit_words

    board = getattr(board, "board", board)
    return forfeit_words(board) if isinstance(board, Board) else ""


@register.filter
def outcome(pair_board: object) -> str:
    """A pair's board from its side, a forfeit said as such (``web.presenters.pair_outcome``)."""
    from tournaments.selectors import PairBoard
    from web.presenters import pair_outcome

    return pair_outcome(pair_board) if isinstance(pair_board, PairBoard) else ""


@register.filter
def games_score(pair_board: object) -> str:
    """``2-1``: games for and against on a pair's board (a forfeit's match score included)."""
    from tournaments.selectors import PairBoard
    from web.presenters import pair_games

    if not isinstance(pair_board, PairBoard):
        return ""
    won, lost = pair_games(pair_board)
    return f"{won}-{lost}"


@register.simple_tag(takes_context=True)
def standings_rows(context: template.Context) -> tuple[str, str]:
    """The standings table's rows built in Python once per render (``web.standings_rows``): (the phone's
    rows, the wide table's rows) of ``standings``, the first ``rows_limit`` of them when it is set."""
    from web.standings_rows import standings_rows as build

    tournament = context.get("tournament")
    return build(context["standings"], slug=tournament.slug if tournament is not None else "",
                 main_index=context.get("main_index"), highlight=context.get("highlight"),
                 limit=context.get("rows_limit"))


@register.simple_tag(takes_context=True)
def include_once(context: template.Context, template_name: str, *key: object) -> str:
    """``{% include template_name %}`` rendered once per publisher's render and ``key`` (a page and its
    ``live/`` fragment show the same rows: a 1,000-pair round's 500 rows are built once for both); outside a
    render, an ordinary include (``tournaments.selectors.memo``)."""
    from django.utils.safestring import mark_safe

    from tournaments.selectors.memo import remembered

    included = context.template.engine.get_template(template_name)

    def render() -> str:
        with context.push():  # as {% include %}: what the template sets stays inside it
            return included.render(context)

    # the key must name every input the rows depend on besides the event (the round, the search)
    slug = getattr(context.get("tournament"), "slug", "")
    return mark_safe(remembered(("include_once", template_name, slug, *key), render))  # noqa: S308


@register.filter
def pairing_row(summary: object, slug: str) -> str:
    """A round's board as the pairings list's item (``web.pairings_rows``: the markup of the row template
    it replaced, built in Python)."""
    from tournaments.selectors import BoardSummary
    from web.pairings_rows import pairing_row as row

    return row(summary, slug) if isinstance(summary, BoardSummary) else ""


@register.filter
def seat_items(seats: object, slug: str) -> str:
    """The round's players A to Z as list items (``web.pairings_rows.seat_items``)."""
    from web.pairings_rows import seat_items as items

    return items(seats, slug) if isinstance(seats, list) else ""  # type: ignore[arg-type]
