"""The organisers' console (work in progress)."""
from __future__ import annotations

from django.http import HttpResponse


def _todo(*args, **kwargs):  # type: ignore[no-untyped-def]
    return HttpResponse("todo")


index = tournament = tournament_live = round_action = board = board_action = devices = pairing_codes = _todo
revoke_device = print_pairings = print_standings = print_scoresheets = export_standings = export_results = _todo
