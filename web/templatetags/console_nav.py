"""The console's tabs: how many late hands wait in the organiser's inbox (shown on the "Late hands" tab)."""

from __future__ import annotations

from django import template

from tournaments.models import Tournament
from tournaments.selectors.late_hands import tournament_late_hands

register = template.Library()


@register.simple_tag
def late_hands_waiting(tournament: object) -> int:
    """The tournament's late hands not handled yet (0 for anything but a tournament)."""
    if not isinstance(tournament, Tournament):
        return 0
    return tournament_late_hands(tournament, handled=False).count()
