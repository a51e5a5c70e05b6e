"""What the public pages and the console make of the reads (``tournaments.selectors``) for their
templates: board search; team matches (club v club) with their boards grouped and totalled; and, when the
field changes (issue 13), a forfeit in words, a round's recorded changes, the Swiss look-ahead's proposal
with what it costs, and what a withdrawal will do before it is made; a live round's clock (issue 14).

Nothing here queries the models itself: every read is a selector's.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo

from django.utils import timezone

from tournaments import selectors
from tournaments.formats import TeamFormat, TeamKind
from tournaments.models import Board, Club, Entry, Hand, Round, TeamMatch, Tournament
from tournaments.selectors import STATUS_LABELS, BoardSummary
from tournaments.selectors.clock import round_clock, venue_zone


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
    def name_a(self) -> str:
        """The home side's name as it played that event: its team's (kept through a club's rename)."""
        return self.match.team_a.name if self.match.team_a_id else self.match.club_a.name

    @property
    def name_b(self) -> str:
        if self.match.team_b_id:
            return self.match.team_b.name
        return self.match.club_b.name if self.match.club_b_id else ""

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
        """``Couva Jacks won 17-12``, ``drawn 8-8``, ``Couva Jacks lead 5-3``, ``2 bullseyes each``, ``no bullseye
        yet`` or ``not started``."""
        if self.is_bye:
            return "bye"
        a, b = self.totals
        winner = self.winner_club
        if self.match.decided:
            return f"{winner.name} won {max(a, b)}-{min(a, b)}" if winner else f"drawn {a}-{b}"
        if a == b == 0 and not any(s.current_score or s.games_finished for s in self.boards):
            return "not started"
        if a == b:  # said in words, never "level 0-0" (issue 17)
            return "no bullseye yet" if a == 0 else f"{a} bullseye{'s' if a != 1 else ''} each"
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


# ---- when the field changes: forfeits, withdrawals, the look-ahead's proposal (issue 13) -----------------

#: What the console calls each kind of change written to ``Round.changes``.
CHANGE_LABELS = {
    "swap_entries": "Pairs swapped",
    "swap_clubs": "Clubs swapped",
    "swap_tables": "Tables swapped",
    "lineup": "Line-up set",
    "withdrawal": "Withdrawal",
    "forfeit": "Forfeit",
    "walkover": "Walkover",
    "substitute": "Substitute",
    "adopt_proposal": "Proposed draft used",
    "forfeit_cancel": "Forfeit cancelled",
}

#: The look-ahead's figures (``Round.proposal["extra"]``) in words, most telling first: (key, one, many).
_COST_WORDS = (
    ("score_difference", "point of score spread", "points of score spread"),
    ("same_club", "same-club board", "same-club boards"),
    ("floaters", "floater", "floaters"),
    ("repeat_floats", "repeated float", "repeated floats"),
    ("rematches", "rematch", "rematches"),
)


def _name(entries: Mapping[int, Entry], entry_id: Any) -> str:
    entry = entries.get(entry_id) if isinstance(entry_id, int) else None
    return entry.pair.display_name if entry is not None else (f"pair {entry_id}" if entry_id is not None else "nobody")


def forfeit_words(board: Board) -> str:
    """``Forfeit: Kenrick & Ria did not play`` (the pair that forfeited; ``left during play`` when hands were
    played first), ``Forfeit: neither pair played``;
    "" for a board that is not forfeited. The board's pairs are read from it (load them with it)."""
    if board.forfeited is None:
        return ""
    if board.forfeited == Board.Forfeit.BOTH or board.pair_b_id is None:
        return "Forfeit: neither pair played"
    absent = board.pair_a if board.forfeited == Board.Forfeit.SIDE_A else board.pair_b
    name = absent.pair.display_name if absent else "?"
    if Hand.objects.filter(game__board=board).exists():  # a walk-out: hands were played before the forfeit
        return f"Forfeit: {name} left during play"
    return f"Forfeit: {name} did not play"


def board_result(summary: BoardSummary) -> str:
    """The board's result in words: a forfeit says who did not play and the match score it gives (the games
    played and those awarded); any other board as ``BoardSummary.result`` says it."""
    board = summary.board
    if board.forfeited is None:
        return summary.result
    words = forfeit_words(board)
    if board.forfeited == Board.Forfeit.BOTH:
        return f"{words} (a loss for each)"
    winner = "B" if board.forfeited == Board.Forfeit.SIDE_A else "A"
    return f"{words}; {winner} wins {max(board.bullseyes_a, board.bullseyes_b)}-{min(board.bullseyes_a, board.bullseyes_b)}"


def pair_outcome(pb: selectors.PairBoard) -> str:
    """A pair's board from its side: ``won``, ``lost``, ``won by forfeit``, ``lost by forfeit`` ..."""
    board = pb.summary.board
    if board.forfeited is None:
        return pb.outcome
    if board.forfeited == Board.Forfeit.BOTH:
        return "lost: forfeit (neither pair played)"
    return "lost by forfeit" if board.forfeited == pb.side else "won by forfeit"


def pair_games(pb: selectors.PairBoard) -> tuple[int, int]:
    """Games for and against on a pair's board: on a forfeited board the board's match score (played and
    awarded), else the games won live."""
    board = pb.summary.board
    if board.forfeited is None:
        return pb.games_for, pb.games_against
    score = (board.bullseyes_a, board.bullseyes_b)
    return score[pb.side], score[1 - pb.side]


def local_time(moment: dt.datetime | None, tournament: Tournament) -> str:
    """``14:05`` in the event's time zone ("" for none)."""
    if moment is None:
        return ""
    try:
        zone: dt.tzinfo = ZoneInfo(tournament.time_zone)
    except (KeyError, ValueError, TypeError):
        zone = timezone.get_current_timezone()
    return timezone.localtime(moment, zone).strftime("%H:%M")


def cost_words(extra: Mapping[str, Any] | None) -> str:
    """What a proposed draft costs more than the best one: ``2 more points of score spread and 1 more
    same-club board``; "no more score spread, floats or club-mates" when nothing."""
    parts = []
    for key, one, many in _COST_WORDS:
        value = (extra or {}).get(key)
        if isinstance(value, int) and not isinstance(value, bool) and value:
            parts.append(f"{abs(value)} {'more' if value > 0 else 'fewer'} {one if abs(value) == 1 else many}")
    if not parts:
        return "no more score spread, floats or club-mates"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


_BYE_IDS = re.compile(r"bye to (\d+) instead of (\d+)")


@dataclasses.dataclass
class Proposal:
    """A drafted Swiss round's ``Round.proposal`` as the console shows it."""

    status: str
    message: str
    cost: str
    boards: list[tuple[str, str, str]]
    bye: tuple[str, str] | None
    outlook: str

    @property
    def adoptable(self) -> bool:
        return bool(self.boards)


def proposal_view(round_: Round, entries: Mapping[int, Entry]) -> Proposal | None:
    """The look-ahead's proposal with names for ids (None when the round has none)."""
    data = round_.proposal
    if not isinstance(data, Mapping) or not data.get("message"):
        return None
    message = _BYE_IDS.sub(lambda m: f"bye to {_name(entries, int(m[1]))} instead of {_name(entries, int(m[2]))}",
                           str(data["message"]))
    boards = [(_name(entries, row[0]), _name(entries, row[1]), str(row[2]) if len(row) > 2 else "")
              for row in data.get("boards") or [] if isinstance(row, list | tuple) and len(row) >= 2]
    bye = data.get("bye")
    outlook = data.get("outlook")
    return Proposal(
        status=str(data.get("status", "")), message=message,
        cost=cost_words(data.get("extra")) if boards else "",
        boards=boards,
        bye=(_name(entries, bye[0]), str(bye[1]) if len(bye) > 1 else "") if isinstance(bye, list | tuple) and bye else None,
        outlook=" ".join(str(x) for x in outlook[1:2]) if isinstance(outlook, list | tuple) else "",
    )


@dataclasses.dataclass
class ChangeLine:
    """One entry of ``Round.changes`` in words."""

    number: Any
    at: str
    label: str
    text: str
    warnings: list[str]


def change_lines(round_: Round, entries: Mapping[int, Entry], tournament: Tournament) -> list[ChangeLine]:
    """The round's recorded changes (swaps, line-ups, withdrawals, forfeits, walkovers, substitutes, the
    proposal used, forfeits cancelled), oldest first, with names for the ids the older kinds carry."""
    out = []
    for change in round_.changes or []:
        if not isinstance(change, Mapping):
            continue
        kind = str(change.get("kind", ""))
        text = str(change.get("what", ""))
        ids = [i for i in change.get("entries") or [] if isinstance(i, int)]
        if kind == "swap_entries" and len(ids) == 2:
            text = f"{_name(entries, ids[0])} and {_name(entries, ids[1])} change places"
        elif kind == "adopt_proposal":
            text = f"the look-ahead's draft was seated, for {cost_words(change.get('extra'))}"
        elif kind == "lineup" and ids:
            text = "line-up: " + ", ".join(_name(entries, i) for i in ids)
        moment = None
        if isinstance(change.get("at"), str):
            try:
                moment = dt.datetime.fromisoformat(change["at"])
            except ValueError:
                moment = None
        warnings = [str(w.get("message", "")) for w in change.get("warnings") or [] if isinstance(w, Mapping)]
        out.append(ChangeLine(change.get("n", len(out) + 1), local_time(moment, tournament),
                              CHANGE_LABELS.get(kind, kind.replace("_", " ").capitalize()), text, warnings))
    return out


# ---- a withdrawal, before it is made -------------------------------------------------------------------

#: Rounds whose boards a withdrawal mends (services/field.py ``DRAWN``).
_DRAWN = (Round.Status.DRAFTED, Round.Status.PUBLISHED, Round.Status.IN_PLAY)


def withdraw_from_default(rounds: Sequence[Round]) -> int:
    """The round a withdrawal starts from when none is chosen (as ``entry_withdraw`` decides it): the round
    in progress (pending, drafted, published or in play), else the next."""
    for r in rounds:
        if r.status in (*_DRAWN, Round.Status.PENDING):
            return r.number
    return rounds[-1].number + 1 if rounds else 1


def withdraw_preview(tournament: Tournament, entry: Entry, rounds: Sequence[Round], start: int) -> list[str]:
    """What withdrawing ``entry`` from round ``start`` will do, round by round, in sentences (the service
    decides when it is done and reports what it did)."""
    out: list[str] = []
    entries = selectors.tournament_entries(tournament)
    for round_ in rounds:
        if round_.number < start or round_.status not in _DRAWN:
            continue
        board = _entry_board(round_, entry, entries)
        if board is None:
            continue
        n = round_.number
        opponent = board.pair_b if board.pair_a.pk == entry.pk else board.pair_a
        other = opponent.pair.display_name if opponent else ""
        b = board.board
        if b.forfeited is not None or (b.decided and not board.is_bye):
            out.append(f"Round {n}: its result stands.")
        elif board.is_bye:
            out.append(f"Round {n}: its bye is removed.")
        elif tournament.is_knockout:
            out.append(f"Round {n}: a walkover: {other} goes through.")
        elif board.hands_played or board.games_finished:
            out.append(f"Round {n} ({round_.get_status_display().lower()}, play has started on table {board.table}): "
                       f"the board is forfeited to {other}; the games played stay.")
        elif b.team_match_id is not None:
            out.append(f"Round {n}: a pair of the same club not playing this round takes its place on board "
                       f"{(b.slot or 0) + 1}; without one, the board is forfeited to {other}.")
        else:
            state = f"Round {n} ({round_.get_status_display().lower()}, no hand played yet): only its board is re-paired"
            if Board.objects.filter(round=round_, pair_b__isnull=True).exists():
                out.append(f"{state}: {other} takes over a drafted bye of a pair it has not met, else takes the bye.")
            else:
                out.append(f"{state}: {other} takes the bye.")
    later = [r.number for r in rounds if r.number >= start and r.status in _DRAWN]
    first_undrawn = next((r.number for r in rounds if r.number >= start and r.status == Round.Status.PENDING), None)
    if first_undrawn is None:
        first_undrawn = max([start, *(r.number + 1 for r in rounds)])
    if not later:
        out.append(f"No round from round {start} on is drawn yet: the pair is simply left out of round {start} "
                   "and every round after it.")
    else:
        out.append(f"The pair is left out of every round drawn from now on (round {first_undrawn} and after).")
    return out


def _entry_board(round_: Round, entry: Entry, entries: Mapping[int, Entry]) -> BoardSummary | None:
    for summary in selectors.round_boards(round_, entries):
        if summary.pair_a.pk == entry.pk or (summary.pair_b is not None and summary.pair_b.pk == entry.pk):
            return summary
    return None


# ---- the round clock ------------------------------------------------------------------------------------

#: Round statuses that have a running clock (published or in play).
_LIVE = (Round.Status.PUBLISHED, Round.Status.IN_PLAY)


@dataclasses.dataclass(frozen=True)
class ClockView:
    """A live round's clock for a page, read once (``tournaments.selectors.clock.round_clock``), in the venue's
    time zone, to the minute: "ends at 19:42 (23 min left at 19:19)" stays true on a page read later, and a
    page's content changes once a minute at most (its ETag with it)."""

    ends_local: str
    read_local: str
    minutes_left: int
    seconds_left: int
    time_called: bool
    zone: str

    @property
    def left_words(self) -> str:
        """``23 min left at 19:19``, ``less than a minute left at 19:41``, ``1 h 05 min left at 18:37``."""
        if self.minutes_left <= 0:
            return f"less than a minute left at {self.read_local}"
        hours, minutes = divmod(self.minutes_left, 60)
        span = f"{hours} h {minutes:02d} min" if hours else f"{minutes} min"
        return f"{span} left at {self.read_local}"

    @property
    def text(self) -> str:
        """The clock in one line, as the public pages show it."""
        if self.time_called:
            return f"Time called at {self.ends_local}: no new game starts; the games in play finish."
        return f"Time ends at {self.ends_local} ({self.left_words})."


def clock_view(round_: Round | None, *, now: dt.datetime | None = None) -> ClockView | None:
    """The clock of a round in play (published or in play) with a time limit; None otherwise (no limit, a
    round not live). Minutes left count whole minutes between the two times shown."""
    if round_ is None or round_.status not in _LIVE:
        return None
    clock = round_clock(round_, now=now)
    if clock.ends_at is None or clock.seconds_left is None:
        return None
    now = now or timezone.now()
    zone = venue_zone(round_.tournament)
    ends = timezone.localtime(clock.ends_at, zone).replace(second=0, microsecond=0)
    read = timezone.localtime(now, zone).replace(second=0, microsecond=0)
    minutes_left = max(int((ends - read).total_seconds() // 60), 0) if not clock.time_called else 0
    return ClockView(ends_local=clock.ends_local, read_local=read.strftime("%H:%M"), minutes_left=minutes_left,
                     seconds_left=clock.seconds_left, time_called=clock.time_called, zone=clock.zone)
