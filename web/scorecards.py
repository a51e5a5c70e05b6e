"""Scorecards for the pages and the console: each game of a board, hand by hand as a chalk sheet, with
its chart and its confirmations. The games and hands come from ``tournaments.selectors``.
"""

from __future__ import annotations

import dataclasses

from tournaments import selectors
from tournaments.models import Board, Game, GameConfirmation
from tournaments.selectors.memo import remembered

from .chalk import ChalkLine, chalk_line
from .charts import game_chart, target_drawn


@dataclasses.dataclass
class GameCard:
    game: Game
    lines: list[ChalkLine]
    chart: str
    confirmations: list[GameConfirmation]
    target: int
    #: False when the target lies far above the scores reached (the chart then leaves its line out).
    target_drawn: bool = True

    @property
    def score(self) -> tuple[int, int]:
        s = self.game.score or [0, 0]
        return (int(s[0]), int(s[1])) if len(s) >= 2 else (0, 0)

    @property
    def parties_confirmed(self) -> list[str]:
        return [c.get_party_display() for c in self.confirmations if c.agrees and not c.cleared]

    @property
    def refusals(self) -> list[GameConfirmation]:
        return [c for c in self.confirmations if not c.agrees and not c.cleared]


def board_scorecard(board: Board) -> list[GameCard]:
    """Each game of the board (voided games left out), hand by hand as a chalk sheet (made once per
    publisher's render for the board's page and its live part: ``memo``)."""
    return remembered(("board_scorecard", board.pk), lambda: _board_scorecard(board))


def _board_scorecard(board: Board) -> list[GameCard]:
    names = selectors.seat_names(board)
    games = selectors.scorecard_games(board, confirmations=True)
    # the chart names the sides by letter: the pairs' names stand once above it (issue 17)
    a_name, b_name = "pair", "pair"
    cards: list[GameCard] = []
    for game in games:
        lines = [
            chalk_line(
                number=h.number,
                dealer=h.dealer,
                record=h.record,
                events=h.events or [],
                score_after=h.score_after,
                winner=h.winner,
                seat_names=names,
                version=h.version,
            )
            for h in game.active_hands
        ]
        target = int((game.rules or {}).get("target", 14))
        chart = game_chart(
            [line.score for line in lines],
            target=target,
            label_a=a_name,
            label_b=b_name,
            title=f"Game {game.number}: score by hand",
            ident=f"g{game.id}",
        )
        cards.append(GameCard(game=game, lines=lines, chart=chart, confirmations=list(game.open_confirmations), target=target,
                              target_drawn=target_drawn(target, [line.score for line in lines])))
    return cards


#: Lines on the paper backup scoresheet: a board can take 20 to 30 hands (issue 17).
SCORESHEET_LINES = 30


def scoresheet_blank_lines(games: list[GameCard]) -> range:
    """The empty lines a printed scoresheet adds under the hands recorded so far, to make 30."""
    return range(max(0, SCORESHEET_LINES - sum(len(g.lines) for g in games)))
