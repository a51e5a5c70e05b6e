"""End checks: nothing lost, nothing doubled, every score the engine's, standings from the hand log.

Run in the harness process through the ORM against the private database, once the stack is quiet
(``settle``: no unsent outbox row and a standings snapshot of the current results, within a deadline).

* ``check_hands``: every hand a tablet saw acknowledged (201) is stored, active, on the board, game and
  number it was sent for, with the record as sent; no hand is stored that no client was answered for
  (bar sends whose answer never came: those are listed); one active hand per number; each key's stored
  answer names its hand.
* ``check_scores``: every game rescored from its active hands by the engine (``scoring.score_document``)
  gives each hand's stored events, score, winner and next dealer, the game's score and winner, and its
  first dealer; each board's stored results (bullseyes, chalks, hang jacks, decided, winner, all
  confirmed) equal a recomputation from the rescored games and the confirmation rows.
* ``check_standings``: standings recomputed from that hand log (``tournaments.ranking`` fed boards
  rebuilt here, not the stored derived fields) equal the latest snapshot, and the public standings
  endpoint lists the same order.
"""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .actors import Ack


@dataclass
class Check:
    name: str
    ok: bool
    detail: str

    def line(self) -> str:
        return f"{'PASS' if self.ok else 'FAIL'}  {self.name}: {self.detail}"


def _canon(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


# ---- quiet ---------------------------------------------------------------------------------------------
def standings_current(tournament_id: int) -> bool:
    """The latest snapshot was computed from the current confirmed results (by the product's digest)."""
    from tournaments.models import StandingsSnapshot, Tournament
    from tournaments.services.standings import standings_input

    tournament = Tournament.objects.get(pk=tournament_id)
    latest = StandingsSnapshot.objects.filter(tournament=tournament).order_by("-created_at", "-id").first()
    return latest is not None and latest.source_hash == standings_input(tournament).digest()


def unsent_outbox() -> int:
    from tournaments.models import OutboxMessage

    return OutboxMessage.objects.filter(sent_at__isnull=True).count()


def settle(tournament_ids: Iterable[int], timeout: float) -> Check:
    """Wait until the outbox is empty and every tournament's standings are current."""
    from django.db import connections

    ids = list(tournament_ids)
    started = time.monotonic()
    deadline = started + timeout
    unsent, stale, error = -1, ids, ""
    while time.monotonic() < deadline:
        connections.close_all()  # a fresh connection each poll: the server may have restarted
        try:
            unsent = unsent_outbox()
            stale = [t for t in ids if not standings_current(t)]
            error = ""
        except Exception as exc:  # noqa: BLE001 - the database coming back
            stale, unsent, error = ids, -1, f"; last error: {str(exc)[:100]}"
        if unsent == 0 and not stale:
            return Check("settled", True, f"outbox empty and standings current after {time.monotonic() - started:.1f}s")
        time.sleep(0.5)
    return Check("settled", False,
                 f"after {timeout:.0f}s: {unsent} outbox rows unsent, standings stale for {stale}{error}")


# ---- hands ---------------------------------------------------------------------------------------------
def check_hands(tournament_id: int, acks: Mapping[Any, Ack], unanswered: Iterable[tuple[int, str]]) -> list[Check]:
    from tournaments.models import Device, Hand, IdempotencyRecord

    hands = {h.pk: h for h in Hand.objects.filter(game__board__round__tournament_id=tournament_id)
             .select_related("game")}
    checks: list[Check] = []

    missing, wrong = [], []
    for ack in acks.values():
        hand = hands.get(ack.hand_id)
        if hand is None:
            missing.append(ack)
            continue
        if (hand.game.board_id, hand.game.number, hand.number) != (ack.board, ack.game, ack.number) or \
                _canon(hand.record) != _canon(ack.record) or hand.status == Hand.Status.SUPERSEDED:
            wrong.append((ack, hand))
    checks.append(Check(
        "no acknowledged hand lost", not missing and not wrong,
        f"{len(acks)} hands acknowledged, {len(missing)} missing, {len(wrong)} stored differently"
        + (f"; first missing: table {missing[0].table} board {missing[0].board} game {missing[0].game} "
           f"hand {missing[0].number}" if missing else "")
        + (f"; first different: hand id {wrong[0][1].pk}" if wrong else ""),
    ))

    acked_ids = {a.hand_id for a in acks.values()}
    doubled_ids = len(acks) - len(acked_ids)
    devices = {d.pk: d.table for d in Device.objects.filter(tournament_id=tournament_id)}
    unanswered_ids: set[int] = set()
    pending = set(unanswered)
    if pending:
        for record in IdempotencyRecord.objects.filter(device_id__in=devices):
            if (devices[record.device_id], record.key) in pending and isinstance(record.response, dict):
                unanswered_ids.add(int(record.response.get("id", 0)))
    extra = sorted(set(hands) - acked_ids - unanswered_ids)
    per_number: dict[tuple[int, int], int] = defaultdict(int)
    for hand in hands.values():
        if hand.status == Hand.Status.ACTIVE:
            per_number[(hand.game_id, hand.number)] += 1
    twice = [k for k, n in per_number.items() if n > 1]
    checks.append(Check(
        "no hand doubled", not extra and not twice and doubled_ids == 0,
        f"{len(hands)} hands stored for {len(acked_ids)} acknowledged"
        + (f" (+{len(unanswered_ids)} whose answer was lost: their sends gave up)" if unanswered_ids else "")
        + f"; {len(extra)} stored without an acknowledgement, {len(twice)} numbers with two active hands, "
          f"{doubled_ids} keys answered with another key's hand"
        + (f"; first extra hand id {extra[0]}" if extra else ""),
    ))

    by_key: dict[tuple[int, str], int] = {}
    for record in IdempotencyRecord.objects.filter(device_id__in=devices, status_code=201):
        if isinstance(record.response, dict) and "number" in record.response and "record" in record.response:
            by_key[(devices[record.device_id], record.key)] = int(record.response["id"])
    mismatched = [a for k, a in acks.items() if by_key.get((a.table, a.key)) != a.hand_id]
    checks.append(Check(
        "each idempotency key answers its own hand", not mismatched,
        f"{len(acks)} keys checked, {len(mismatched)} stored answers naming another hand",
    ))
    return checks


# ---- scores --------------------------------------------------------------------------------------------
@dataclass
class RebuiltBoard:
    board_id: int
    round_number: int
    pair_a: int
    pair_b: int | None
    bullseyes: list[int]
    chalks: list[int]
    hang_jacks: list[int]
    decided: bool
    winner: int | None
    is_draw: bool
    all_confirmed: bool


def _first_to(n: int, winners: Sequence[int | None], time_called: bool) -> tuple[bool, int | None, bool, int]:
    """(decided, winner, draw, games counted) of a ``first_to`` N match (Swiss / round robin)."""
    wins = [0, 0]
    for i, w in enumerate(winners):
        if w is None:
            continue
        wins[w] += 1
        if wins[w] >= n:
            return True, w, False, i + 1
    if time_called:
        if wins[0] == wins[1]:
            return True, None, True, len(winners)
        return True, 0 if wins[0] > wins[1] else 1, False, len(winners)
    return False, None, False, len(winners)


def _fixed_games(n: int, winners: Sequence[int | None], time_called: bool) -> tuple[bool, int | None, bool, int]:
    wins = [0, 0]
    for i, w in enumerate(winners):
        if w is not None:
            wins[w] += 1
        if i + 1 >= n:
            break
    counted = min(n, len(winners))
    if counted >= n or time_called:
        if wins[0] == wins[1]:
            return True, None, True, counted
        return True, 0 if wins[0] > wins[1] else 1, False, counted
    return False, None, False, counted


def check_scores(tournament_id: int) -> tuple[list[Check], dict[int, RebuiltBoard]]:
    """Rescore every game with the engine; rebuild each board's results from the rescored games."""
    import scoring
    from tournaments.models import Board, Game, GameConfirmation, Hand, Round
    from tournaments.services.standings import COUNTED_ROUNDS

    games = list(Game.objects.filter(board__round__tournament_id=tournament_id).select_related("board__round")
                 .order_by("board_id", "number"))
    hands: dict[int, list[Hand]] = defaultdict(list)
    for hand in Hand.objects.filter(game__in=games, status=Hand.Status.ACTIVE).order_by("number"):
        hands[hand.game_id].append(hand)
    words: dict[int, dict[str, bool]] = defaultdict(dict)
    for row in GameConfirmation.objects.filter(game__in=games, cleared=False):
        words[row.game_id]["refused" if not row.agrees else row.party] = True

    hand_faults: list[str] = []
    game_faults: list[str] = []
    rescored_winner: dict[int, int | None] = {}
    rescored_score: dict[int, list[int]] = {}
    rescored_hangs: dict[int, list[int]] = {}
    hands_checked = 0
    for game in games:
        active = hands.get(game.pk, [])
        if not active:
            continue
        numbers = [h.number for h in active]
        if numbers != list(range(1, len(active) + 1)):
            game_faults.append(f"game {game.pk}: hand numbers {numbers[:12]} are not 1..n")
        sides = len(game.score) or 2
        doc = {"rules": game.rules, "score": [0] * sides, "hands": [h.record for h in active]}
        try:
            result = scoring.score_document(doc)
        except scoring.InvalidHand as exc:
            game_faults.append(f"game {game.pk}: the engine refuses its stored hands: {exc.code} at {exc.path}")
            continue
        hangs = [0] * sides
        for hand, scored in zip(active, result.hands, strict=True):
            hands_checked += 1
            expected = scored.to_dict()
            stored = {"trump": hand.trump or None, "events": hand.events, "score": hand.score_after,
                      "winner": hand.winner, "next_dealer": hand.next_dealer}
            if _canon(stored) != _canon(expected):
                hand_faults.append(f"hand {hand.pk} (game {game.pk} #{hand.number}): stored {_canon(stored)[:160]} "
                                   f"!= engine {_canon(expected)[:160]}")
            for event in expected["events"]:
                if event.get("kind") == "hang_jack":
                    hangs[int(event["side"])] += 1
        if active[0].dealer != game.first_dealer:
            game_faults.append(f"game {game.pk}: first hand dealt by {active[0].dealer}, game says {game.first_dealer}")
        rescored_winner[game.pk] = result.winner
        rescored_score[game.pk] = list(result.score)
        rescored_hangs[game.pk] = hangs
        if game.status != Game.Status.VOIDED and not game.awarded:
            if list(game.score) != list(result.score) or game.winner != result.winner:
                game_faults.append(f"game {game.pk}: stored {game.score} won by {game.winner}, engine "
                                   f"{list(result.score)} won by {result.winner}")
            finished = game.status == Game.Status.FINISHED
            if finished != (result.winner is not None):
                game_faults.append(f"game {game.pk}: status {game.status} but the engine's winner is {result.winner}")

    checks = [
        Check("every hand equals the engine's rescoring", not hand_faults,
              f"{hands_checked} active hands rescored, {len(hand_faults)} differ"
              + (f"; first: {hand_faults[0]}" if hand_faults else "")),
        Check("every game equals its rescoring", not game_faults,
              f"{len(rescored_winner)} games rescored, {len(game_faults)} differ"
              + (f"; first: {game_faults[0]}" if game_faults else "")),
    ]

    by_board: dict[int, list[Game]] = defaultdict(list)
    for game in games:
        if game.status != Game.Status.VOIDED:
            by_board[game.board_id].append(game)
    rebuilt: dict[int, RebuiltBoard] = {}
    board_faults: list[str] = []
    confirm_faults: list[str] = []
    boards = Board.objects.filter(round__tournament_id=tournament_id, round__status__in=COUNTED_ROUNDS) \
        .select_related("round")
    for board in boards:
        if board.pair_b_id is None:
            continue
        played = by_board.get(board.pk, [])
        finished = [g for g in played if g.status == Game.Status.FINISHED]
        winners = [g.winner if g.awarded else rescored_winner.get(g.pk) for g in finished]
        fmt = board.match_format or {"kind": "first_to", "n": 2}
        time_called = board.round.status == Round.Status.CLOSED
        if fmt.get("kind") == "games":
            decided, winner, draw, counted = _fixed_games(int(fmt.get("n", 2)), winners, time_called)
        else:
            decided, winner, draw, counted = _first_to(int(fmt.get("n", 2)), winners, time_called)
        bullseyes, chalks, hangs = [0, 0], [0, 0], [0, 0]
        all_confirmed = decided
        for game, game_winner in zip(finished[:counted], winners[:counted], strict=True):
            w = words.get(game.pk, {})
            confirmed = bool(w.get("organiser") or (w.get("a") and w.get("b")))
            if confirmed != game.confirmed:
                confirm_faults.append(f"game {game.pk}: confirmations {sorted(w)} but confirmed={game.confirmed}")
            if not confirmed:
                all_confirmed = False
                continue
            if game_winner is not None:
                bullseyes[game_winner] += 1
            score = list(game.score) if game.awarded else rescored_score.get(game.pk, [0, 0])
            chalks = [chalks[0] + int(score[0]), chalks[1] + int(score[1])]
            hang = rescored_hangs.get(game.pk, [0, 0])
            hangs = [hangs[0] + hang[0], hangs[1] + hang[1]]
        again = RebuiltBoard(board.pk, board.round.number, board.pair_a_id, board.pair_b_id, bullseyes, chalks,
                             hangs, decided, winner, draw, all_confirmed)
        rebuilt[board.pk] = again
        stored = ([board.bullseyes_a, board.bullseyes_b], [board.chalks_a, board.chalks_b],
                  [board.hang_jacks_a, board.hang_jacks_b], board.decided, board.winner, board.is_draw,
                  board.all_confirmed)
        expected = (bullseyes, chalks, hangs, decided, winner, draw, all_confirmed)
        if stored != expected:
            board_faults.append(f"board {board.pk} (round {board.round.number} table {board.table}): stored "
                                f"{stored} != rebuilt {expected}")
    checks.append(Check(
        "every board's result equals its rebuilt games", not board_faults and not confirm_faults,
        f"{len(rebuilt)} boards rebuilt, {len(board_faults)} differ, {len(confirm_faults)} games' confirmed flag "
        "differs from their confirmation rows"
        + (f"; first: {(board_faults or confirm_faults)[0]}" if board_faults or confirm_faults else ""),
    ))
    return checks, rebuilt


# ---- standings -----------------------------------------------------------------------------------------
def recomputed_standings(tournament_id: int, rebuilt: Mapping[int, RebuiltBoard]) -> tuple[list[Any], list[Any]]:
    """Standings from the rebuilt boards (the ranking core), as snapshot rows."""
    from django.db.models import F

    from tournaments.models import Entry, Tournament
    from tournaments.ranking import BoardResult, club_standings, compute_standings
    from tournaments.ranking.types import Standings
    from tournaments.services.standings import ranking_config, snapshot_rows

    tournament = Tournament.objects.get(pk=tournament_id)
    entries = list(Entry.objects.filter(tournament=tournament).order_by(F("seed").asc(nulls_last=True), "id")
                   .values_list("id", "pair__club_id"))
    results = [
        BoardResult(b.round_number, b.pair_a, b.pair_b, tuple(b.bullseyes), tuple(b.chalks), tuple(b.hang_jacks),
                    b.decided and b.all_confirmed)  # type: ignore[arg-type]
        for b in sorted(rebuilt.values(), key=lambda b: (b.round_number, b.board_id)) if b.pair_b is not None
    ]
    config = ranking_config(tournament)
    pairs = compute_standings([e for e, _ in entries], results, [], config)
    clubs_order: list[int] = []
    for _, club in entries:
        if club is not None and club not in clubs_order:
            clubs_order.append(club)
    club_of = {e: c for e, c in entries if c is not None}
    clubs = club_standings(pairs, club_of, clubs=clubs_order) if clubs_order else Standings((), ())
    rows, club_rows = snapshot_rows(pairs, clubs, dict(entries))
    return rows, club_rows


def check_standings(tournament_id: int, rebuilt: Mapping[int, RebuiltBoard],
                    public_rows: Sequence[Mapping[str, Any]] | None = None) -> list[Check]:
    from tournaments.models import StandingsSnapshot

    rows, club_rows = recomputed_standings(tournament_id, rebuilt)
    latest = StandingsSnapshot.objects.filter(tournament_id=tournament_id).order_by("-created_at", "-id").first()
    stored_rows = json.loads(_canon(latest.rows)) if latest else []
    stored_clubs = json.loads(_canon(latest.clubs)) if latest else []
    fresh_rows, fresh_clubs = json.loads(_canon(rows)), json.loads(_canon(club_rows))
    differ = [i for i, (a, b) in enumerate(zip(stored_rows, fresh_rows, strict=False)) if a != b]
    same = stored_rows == fresh_rows and stored_clubs == fresh_clubs
    played = sum(r.get("played", 0) for r in fresh_rows)
    detail = (f"{len(fresh_rows)} pairs ({played} decided and confirmed matches summed over them), "
              f"{len(fresh_clubs)} clubs; "
              f"snapshot after round {latest.after_round if latest else '-'}")
    if not same:
        first = differ[0] if differ else None
        detail += (f"; {len(differ)} pair rows differ" + (f", first: snapshot {stored_rows[first]} != recomputed "
                                                          f"{fresh_rows[first]}" if first is not None else "")
                   + ("; club rows differ" if stored_clubs != fresh_clubs else "")
                   + (f"; {len(stored_rows)} v {len(fresh_rows)} rows" if len(stored_rows) != len(fresh_rows) else ""))
    checks = [Check("standings equal a full recomputation from the hand log", same, detail)]
    if public_rows is not None:
        ok, text = public_order(public_rows, fresh_rows)
        checks.append(Check("the public standings show the recomputed order", ok, text))
    return checks


def public_order(public_rows: Sequence[Mapping[str, Any]], fresh_rows: Sequence[Mapping[str, Any]]) -> tuple[bool, str]:
    """Whether the public standings list the recomputed rows' order (rank and entry), and a sentence."""
    public = [(str(r.get("rank")).rstrip("="), r.get("entry")) for r in public_rows]  # "3=": tied
    fresh = [(str(r["rank"]), r["entry_id"]) for r in fresh_rows]
    first = next((i for i, (a, b) in enumerate(zip(public, fresh, strict=False)) if a != b), None)
    return public == fresh, (f"{len(public)} public rows v {len(fresh)} recomputed"
                             + (f"; first difference at row {first + 1}: public {public[first]} v recomputed "
                                f"{fresh[first]}" if first is not None else ""))
