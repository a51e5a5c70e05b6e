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
