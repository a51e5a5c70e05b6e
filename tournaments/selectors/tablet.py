"""Tablet reads: the round a tablet plays, a table's board in it, and the board's state as the tablet
(and every 409/412) sees it."""

from __future__ import annotations

from typing import Any

from tournaments.models import Board, Entry, Game, GameConfirmation, Hand, Round, Tournament
from tournaments.models.querysets import RoundQuerySet
from tournaments.selectors.clock import round_clock

from .public import entry_seats


def live_round(*, tournament: Tournament) -> Round | None:
    """The round the tablets play: the latest that is published or in play, if any."""
    return tournament.rounds.live().order_by("-number").first()


def board_for_table(*, tournament: Tournament, table: int) -> Board | None:
    """The board at ``table`` in the tournament's live round (published or in play), or None; its round is
    read with it and the round's tournament is ``tournament`` (no query for ``board.round.tournament``)."""
    board = (
        Board.objects.filter(round__tournament=tournament, round__status__in=RoundQuerySet.LIVE_STATUSES, table=table)
        .select_related("round").order_by("-round__number").first()
    )
    if board is not None:
        board.round.tournament = tournament
    return board


def _pair(entry: Entry | None, side: int, number: int) -> dict[str, Any] | None:
    if entry is None:
        return None
    pair = entry.pair
    players: list[dict[str, Any]] = []
    for seat in entry_seats(entry, number):  # a substitute in their place from their round
        player: dict[str, Any] = {"id": seat.player.pk, "name": seat.player.name}
        if seat.replaced is not None:
            player["substitute_for"] = seat.replaced.name
        players.append(player)
    return {
        "entry": entry.pk,
        "name": pair.display_name,
        "club": entry.club_label or None,  # the name played under (a later rename does not reach it)
        "players": players,
        "side": side,
        "seats": [side, side + 2],
    }


def hand_data(hand: Hand) -> dict[str, Any]:
    """One stored hand as JSON: the record as submitted and what the engine scored for it."""
    return {
        "id": hand.pk, "number": hand.number, "version": hand.version, "status": hand.status, "form": hand.form,
        "dealer": hand.dealer, "record": hand.record, "trump": hand.trump or None, "events": hand.events,
        "score_after": hand.score_after, "winner": hand.winner, "next_dealer": hand.next_dealer,
    }


#: Bump when ``board_state``'s shape changes, so a tablet's kept ETag (api/etag.py, ``board_version`` in
#: fingerprint.py) never answers 304 for a state of an older shape.
BOARD_STATE_SHAPE = "1"


def board_state(board: Board, *, reread: bool = True) -> dict[str, Any]:
    """The board as the tablet reads it; also the ``current`` of every 409 and 412 about it.

    ``reread=False``: ``board`` was read just now with its round and the round's tournament
    (``board_for_table``), and its row is used as it is instead of being read again.

    Keys: ``board`` (id), ``tournament`` (slug), ``round`` / ``round_status``, ``table``, ``status``
    (disputed, forfeited, awaiting_confirmation, in_play, waiting, done), ``clock`` (the round clock:
    ends_at, seconds_left, time_called, ends_local, time_zone), ``help_called``, ``needs_review``,
    ``match_format``, ``pairs`` {a, b} and ``sides``, ``seating``, ``first_dealer``, ``rules`` (fully
    resolved), ``game_number``, ``game_status``, ``score``, ``next_dealer``, ``next_hand_number``,
    ``hands`` (the current game's active hands), ``last_hand_id`` (what an undo names), ``games`` (each
    game: id, number, status, score, winner, awarded, confirmed, confirmations), ``result`` (decided, winner,
    draw, bullseyes/chalks/hang jacks of confirmed games, ``live_bullseyes`` of finished games,
    all_confirmed, disputed, ``source``: hands, forfeit, bye or time_called, ``forfeited``: who) and ``team_match`` (id, slot, bullseyes and winner per club, A then B, format,
    and ``club_a_side``: the board's side club A's pair sits on, as sides alternate down the boards).
    ``can_undo`` / ``undo_reason``: whether the tablet's undo of ``last_hand_id`` would be taken, and if not,
    a sentence saying why (``undo_check``: the same rules as ``services.hands.hand_undo``).
    """
    # Two queries, not one join of thirteen tables: PostgreSQL plans a join of more than ``geqo_threshold``
    # (12) relations with its genetic search, which cost more CPU than running the query (about 5 ms of a
    # 7 ms read at 1,000 pairs, benchmarks/tablet_profile.py).
    if reread:
        board = Board.objects.select_related("round__tournament", "team_match").get(pk=board.pk)
    entries = Entry.objects.select_related("pair__player_1", "pair__player_2", "pair__club").in_bulk(
        [pk for pk in (board.pair_a_id, board.pair_b_id) if pk is not None])
    if board.pair_a_id is not None:
        board.pair_a = entries[board.pair_a_id]
    if board.pair_b_id is not None:
        board.pair_b = entries[board.pair_b_id]
    round_ = board.round
    games = list(Game.objects.filter(board=board).exclude(status=Game.Status.VOIDED).order_by("number"))
    words: dict[int, list[dict[str, Any]]] = {}
    for c in GameConfirmation.objects.filter(game__in=games, cleared=False).order_by("id"):
        words.setdefault(c.game_id, []).append({"party": c.party, "agrees": c.agrees, "reason": c.reason})
    current = games[-1] if games else None
    hands = list(Hand.objects.filter(game=current, status=Hand.Status.ACTIVE).order_by("number")) if current else []
    live = [0, 0]
    for g in games:
        if g.status == Game.Status.FINISHED and g.winner is not None:
            live[g.winner] += 1
    team_match = board.team_match
    last_hand_id = _last_hand_id(hands, games)
    can_undo, undo_reason = undo_check(board, games, hands, last_hand_id, words)
    return {
        "board": board.pk,
        "tournament": round_.tournament.slug,
        "round": round_.number,
        "round_status": round_.status,
        "clock": round_clock(round_).as_dict(),
        "table": board.table,
        "status": board.status,
        "help_called": board.help_called,
        "needs_review": board.needs_review,
        "match_format": board.match_format,
        "pairs": {"a": _pair(board.pair_a, 0, round_.number), "b": _pair(board.pair_b, 1, round_.number)},
        "sides": [{"side": 0, "pair": "a", "seats": [0, 2]}, {"side": 1, "pair": "b", "seats": [1, 3]}],
        "seating": board.seating,
        "first_dealer": board.first_dealer,
        "rules": current.rules if current else (round_.tournament.rules_resolved or round_.tournament.rules),
        "game_number": current.number if current else None,
        "game_status": current.status if current else None,
        "score": list(current.score) if current else None,
        "next_dealer": current.next_dealer if current else board.first_dealer,
        "next_hand_number": (hands[-1].number + 1 if hands else 1) if current else None,
        "hands": [hand_data(h) for h in hands],
        "last_hand_id": last_hand_id,
        "can_undo": can_undo,
        "undo_reason": undo_reason,
        "games": [
            {"id": g.pk, "number": g.number, "status": g.status, "score": g.score, "winner": g.winner,
             "first_dealer": g.first_dealer, "awarded": g.awarded, "confirmed": g.confirmed,
             "confirmations": words.get(g.pk, [])}
            for g in games
        ],
        "result": {
            "decided": board.decided, "winner": board.winner, "is_draw": board.is_draw,
            "bullseyes": [board.bullseyes_a, board.bullseyes_b], "chalks": [board.chalks_a, board.chalks_b],
            "hang_jacks": [board.hang_jacks_a, board.hang_jacks_b], "live_bullseyes": live,
            "all_confirmed": board.all_confirmed, "disputed": board.disputed,
            "source": board.result_source, "forfeited": board.forfeited,
        },
        "team_match": None if team_match is None else {
            "id": team_match.pk, "slot": board.slot, "bullseyes": [team_match.bullseyes_a, team_match.bullseyes_b],
            "decided": team_match.decided, "winner": team_match.winner, "format": team_match.team_format,
            # sides alternate down a team match's boards: the side club A's pair sits on at this board
            "club_a_side": 1 if board.pair_a_id in team_match.lineup_b else 0,
        },
    }


def _last_hand_id(hands: list[Hand], games: list[Game]) -> int | None:
    """The hand an undo would name: the current game's last, else the last of the game before."""
    if hands:
        return hands[-1].pk
    if len(games) >= 2:
        last = Hand.objects.filter(game=games[-2], status=Hand.Status.ACTIVE).order_by("-number").first()
        return last.pk if last else None
    return None


def undo_check(
    board: Board, games: list[Game], hands: list[Hand], last_hand_id: int | None,
    words: dict[int, list[dict[str, Any]]],
) -> tuple[bool, str]:
    """Whether the tablet may undo ``last_hand_id`` now, with the reason when it may not.

    Mirrors the refusals of ``services.hands.hand_undo`` (which stays the judge): the round must be open,
    the board not forfeited, and an undo that reaches back into a finished game needs that game confirmed
    by nobody and not disputed.
    """
    if board.forfeited is not None:
        return False, "The organiser recorded this board as a forfeit."
    if board.round.status not in RoundQuerySet.LIVE_STATUSES:
        return False, f"Round {board.round.number} is closed."
    if last_hand_id is None or not games:
        return False, "No hand to undo yet."
    target = games[-1] if hands else games[-2]
    if target.status == Game.Status.FINISHED:
        said = words.get(target.pk, [])
        if any(not w["agrees"] for w in said):
            return False, f"Game {target.number} is disputed: the organiser rules on it."
        if said or target.confirmed:
            return False, f"Game {target.number} is confirmed: ask the organiser to correct it."
    return True, ""
