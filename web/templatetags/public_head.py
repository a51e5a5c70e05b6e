"""``{% event_head %}``: the head of every public tournament page (issue 17), from the page's context when
its view read the rounds already, else read here (a page whose view is not a public one, the starting list)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import selectors
from tournaments.selectors import final
from web import public_words

register = template.Library()


@register.inclusion_tag("public/_head_and_nav.html", takes_context=True)
def event_head(context: template.Context) -> dict[str, Any]:
    tournament = context["tournament"]
    rounds = context.get("rounds")
    if rounds is None:
        rounds = selectors.public_rounds(tournament)
    current = context.get("current_round") or selectors.round_to_show(tournament, rounds)
    is_final = context.get("final")
    if is_final is None:
        is_final = final.is_final(tournament)
    words = {k: context.get(k) for k in ("event_dates", "event_state", "updated_at")}
    if None in words.values():
        words = public_words.event_context(tournament, rounds, final=bool(is_final))
    return {"tournament": tournament, "current_round": current, "nav": context.get("nav"), **words}
