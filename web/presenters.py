"""What the public pages make of the reads (``tournaments.selectors``) for their
templates: board search, and team matches (club v club) with their boards grouped and totalled.

Nothing here queries the models itself: every read is a selector's.
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Iterable, Sequence

from tournaments import selectors
from tournaments.formats import TeamFormat, TeamKind
from tournaments.models import Club, Round, TeamMatch
from tournaments.selectors import STATUS_LABELS, BoardSummary


def search_boards(summaries: Iterable[BoardSummary], query: str) -> list[BoardSummary]:
    """Boards where a pair, player or club name contains every word of ``query`` (any case)."""
    words = [w.casefold() for w in query.split() if w]
    if not words:
        return list(summaries)
    return [s for s in summaries if all(w in s.names().casefold() for w in words)]


# ---- team matches (club-team events) --------------------------------------------------------------


@dataclasses.dataclass
class TeamMatchSummary:
    """Club v club in one round, as the public pages show it: K boards, bullseyes totalled per club.

    ``totals`` are the team match's own figures (every finished game, as the race counts them);
    ``confirmed`` counts confirmed games only, which is what the club standings count.
    """

    match: TeamMatch
    boards: list[BoardSummary]
    confirmed: tuple[int, int]

    @property
    def club_a(self) -> Club:
        return self.match.club_a

    @property
    def club_b(self) -> Club | None:
        return self.match.club_b

    @property
    def is_bye(self) -> bool:
        return self.match.club_b_id is None

    @property
    def format(self) -> TeamFormat:
        """The team format copied onto the match (the registry's type)."""
        return self.match.format_value()

    @property
    def is_race(self) -> bool:
        return self.format.kind is TeamKind.FIRST_TO_TOTAL

    @property
    def target(self) -> int:
        """N: the bullseyes a club needs to win a race, or the games each board plays."""
        return self.format.n

    @property
    def board_count(self) -> int:
        return self.format.boards

    @property
    def totals(self) -> tuple[int, int]:
        return (self.match.bullseyes_a, self.match.bullseyes_b)

    @property
    def to_go(self) -> tuple[int, int]:
        """Bullseyes each club still needs to win the race."""
        return (max(0, self.target - self.totals[0]), max(0, self.target - self.totals[1]))

    @property
    def boards_done(self) -> int:
        return sum(1 for b in self.boards if b.board.decided)

    @property
    def status(self) -> str:
        if self.is_bye or self.match.decided:
            return "done"
        if any(b.status in ("in_play", "awaiting_confirmation", "disputed") for b in self.boards):
            return "in_play"
        return "waiting"

    @property
    def status_label(self) -> str:
        return "decided" if self.status == "done" and not self.is_bye else STATUS_LABELS.get(self.status, self.status)

    @property
    def winner_club(self) -> Club | None:
        if not self.match.decided or self.match.winner is None:
            return None
        return self.club_a if self.match.winner == 0 else self.club_b

    @property
    def format_text(self) -> str:
        if self.is_race:
            return f"race to {self.target} bullseyes over {self.board_count} boards"
        games = "game" if self.target == 1 else "games"
        return f"{self.board_count} boards of {self.target} {games}, most bullseyes wins"

    @property
    def result(self) -> str:
        """``Couva Jacks won 17-12``, ``drawn 8-8``, ``Couva Jacks lead 5-3``, ``level 2-2`` or ``not started``."""
        if self.is_bye:
            return "bye"
        a, b = self.totals
        winner = self.winner_club
        if self.match.decided:
            return f"{winner.name} won {max(a, b)}-{min(a, b)}" if winner else f"drawn {a}-{b}"
        if a == b == 0 and not any(s.current_score or s.games_finished for s in self.boards):
            return "not started"
        if a == b:
            return f"level {a}-{b}"
        leader = self.club_a if a > b else self.club_b
        return f"{leader.name if leader else '?'} lead {max(a, b)}-{min(a, b)}"


def team_matches(round_: Round, summaries: Sequence[BoardSummary]) -> list[TeamMatchSummary]:
    """The round's team matches with their boards (in slot order); one query. Empty in a pairs event."""
    matches = selectors.round_team_matches(round_)
    if not matches:
        return []
    by_match: dict[int, list[BoardSummary]] = defaultdict(list)
    for s in summaries:
        if s.board.team_match_id is not None:
            by_match[s.board.team_match_id].append(s)
    out = []
    for m in matches:
        boards = sorted(by_match.get(m.id, []), key=lambda s: (s.board.slot or 0, s.board.id))
        confirmed = [0, 0]
        for s in boards:
            for side, entry in ((0, s.pair_a), (1, s.pair_b)):
                if entry is None:
                    continue
                club_side = 0 if entry.pair.club_id == m.club_a_id else 1
                confirmed[club_side] += s.confirmed_won[side]
        out.append(TeamMatchSummary(match=m, boards=boards, confirmed=(confirmed[0], confirmed[1])))
    return out
