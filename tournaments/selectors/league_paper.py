"""Which of a season's results came from paper (issue 15, "each marked as entered from paper and by whom"):
for the public standings' label. Reads only; nothing of the viewer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Prefetch

from tournaments.models import Game, TeamMatch, Tournament


@dataclass(frozen=True)
class PaperResult:
    match: TeamMatch
    kind: str  # "totals": only the match's totals; "games": games from chalk sheets
    entered: Any  # the TeamMatch or the first paper Game: has entered_by and entered_as


def paper_results(tournament: Tournament) -> list[PaperResult]:
    """The season's counted fixtures whose result is its match totals from paper, or that have games entered
    from a chalk sheet, in match-day order."""
    games = Game.objects.filter(result_source=Game.Source.PAPER_GAME).exclude(status=Game.Status.VOIDED)
    matches = (TeamMatch.objects.filter(round__tournament=tournament).exclude(status=TeamMatch.Status.VOID)
               .select_related("round", "team_a", "team_b", "club_a", "club_b", "entered_by")
               .prefetch_related(Prefetch("boards__games", queryset=games.select_related("entered_by").order_by("number")))
               .order_by("round__number", "id"))
    out: list[PaperResult] = []
    for match in matches:
        if match.result_source == TeamMatch.Source.MATCH_TOTALS:
            out.append(PaperResult(match, "totals", match))
            continue
        paper = [g for board in match.boards.all() for g in board.games.all()]
        if paper:
            out.append(PaperResult(match, "games", paper[0]))
    return out
