"""A drafted round in the organiser's hands: swap entrants, swap tables, flip sides, and review.

Every change returns a new ``DraftRound`` whose warnings are recomputed by ``review_round``: unknown,
missing or doubled entrants, rematches, club-mates on one board, and a bye to an entrant that had more
byes than others. The service records each change; this module only says what it leads to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .types import DraftBoard, DraftBye, DraftRound, Entrant, History, PairingError, PairingWarning


def review_round(
    draft: DraftRound, entrants: Sequence[Entrant], history: History
) -> tuple[PairingWarning, ...]:
    """Everything about ``draft`` an organiser should see before publishing it."""
    known = {e.id: e for e in entrants}
    warnings: list[PairingWarning] = []
    seen: set[int] = set()
    for who in draft.entrant_ids():
        if who not in known:
            warnings.append(PairingWarning("unknown_entrant", f"{who} is not in this round's field", (who,)))
        elif who in seen:
            warnings.append(PairingWarning("duplicate_entrant", f"{who} is placed twice", (who,)))
        seen.add(who)
    for e in entrants:
        if e.id not in seen:
            warnings.append(PairingWarning("missing_entrant", f"{e.id} has no board and no bye", (e.id,)))
    for board in draft.boards:
        a, b = board.side0, board.side1
        if a == b:
            warnings.append(PairingWarning("self_board", f"table {board.table}: {a} faces itself", (a,)))
            continue
        times = history.times_met(a, b)
        if times:
            rounds = ", ".join(str(r) for r in history.rounds_met(a, b))
            warnings.append(
                PairingWarning("rematch", f"table {board.table}: {a} and {b} met in round {rounds}", (a, b))
            )
        ea, eb = known.get(a), known.get(b)
        if ea and eb and ea.club_id is not None and ea.club_id == eb.club_id:
            warnings.append(
                PairingWarning("same_club", f"table {board.table}: {a} and {b} are club-mates", (a, b))
            )
    if draft.bye is not None:
        taker = draft.bye.entrant
        if len(entrants) % 2 == 0:
            warnings.append(
                PairingWarning("needless_bye", f"{taker} sits out although the field is even", (taker,))
            )
        least = min((history.bye_count(e.id) for e in entrants), default=0)
        if history.bye_count(taker) > least:
            warnings.append(
                PairingWarning(
                    "repeat_bye", f"{taker} gets another bye while others have had fewer", (taker,)
                )
            )
    return tuple(warnings)


def _explain(board: DraftBoard, known: dict[int, Entrant], history: History, what: str) -> str:
    a, b = known.get(board.side0), known.get(board.side1)
    la = a.label if a else str(board.side0)
    lb = b.label if b else str(board.side1)
    rounds = history.rounds_met(board.side0, board.side1)
    met = f"rematch (met in round {', '.join(map(str, rounds))})" if rounds else "not met before"
    text = f"{la} v {lb}, {what}; {met}"
    if a and b and a.club_id is not None and a.club_id == b.club_id:
        text += "; same club"
    return text


def swap_entrants(
    draft: DraftRound, a: int, b: int, entrants: Sequence[Entrant], history: History
) -> DraftRound:
    """Exchange entrants ``a`` and ``b`` wherever they sit (a board or the bye)."""
    placed = set(draft.entrant_ids())
    for who in (a, b):
        if who not in placed:
            raise PairingError("not_in_round", f"{who} is not in this round")
    if a == b:
        return draft
    known = {e.id: e for e in entrants}
    what = f"set by the organiser (swapped {a} and {b})"

    def other(x: int) -> int:
        return b if x == a else a if x == b else x

    boards = []
    for board in draft.boards:
        moved = replace(board, side0=other(board.side0), side1=other(board.side1))
        if moved != board:
            ea, eb = known.get(moved.side0), known.get(moved.side1)
            moved = replace(
                moved,
                explanation=_explain(moved, known, history, what),
                times_met=history.times_met(moved.side0, moved.side1),
                same_club=bool(ea and eb and ea.club_id is not None and ea.club_id == eb.club_id),
            )
        boards.append(moved)
    bye = draft.bye
    if bye is not None and bye.entrant in (a, b):
        bye = DraftBye(other(bye.entrant), what)
    return _finish(draft, tuple(boards), bye, entrants, history, f"swapped {a} and {b}")


def swap_tables(
    draft: DraftRound, table_a: int, table_b: int, entrants: Sequence[Entrant], history: History
) -> DraftRound:
    """Exchange the boards at two table numbers."""
    tables = {board.table for board in draft.boards}
    for t in (table_a, table_b):
        if t not in tables:
            raise PairingError("no_such_table", f"there is no table {t} in this round")
    swap = {table_a: table_b, table_b: table_a}
    boards = sorted(
        (replace(board, table=swap.get(board.table, board.table)) for board in draft.boards),
        key=lambda board: board.table,
    )
    return _finish(
        draft, tuple(boards), draft.bye, entrants, history, f"swapped tables {table_a} and {table_b}"
    )


def flip_sides(draft: DraftRound, table: int, entrants: Sequence[Entrant], history: History) -> DraftRound:
    """Put the pair on side 1 of ``table`` on side 0 and the other way round."""
    if table not in {board.table for board in draft.boards}:
        raise PairingError("no_such_table", f"there is no table {table} in this round")
    boards = tuple(
        replace(board, side0=board.side1, side1=board.side0) if board.table == table else board
        for board in draft.boards
    )
    return _finish(draft, boards, draft.bye, entrants, history, f"flipped sides at table {table}")


def _finish(
    draft: DraftRound,
    boards: tuple[DraftBoard, ...],
    bye: DraftBye | None,
    entrants: Sequence[Entrant],
    history: History,
    note: str,
) -> DraftRound:
    changed = replace(draft, boards=boards, bye=bye)
    return replace(
        changed,
        warnings=review_round(changed, entrants, history),
        notes=draft.notes + (f"adjusted by the organiser: {note} (cost is the computed draft's)",),
    )
