"""Knockout rounds from stored rows: the seeding, the bracket rebuilt from round 1, winners so far.

Round 1 of a knockout is seated in bracket order (one board or team match per first-round match, byes
included, in match order), so the bracket is always rebuilt from round 1 as stored: an organiser's
swap in the drafted round 1 re-seeds the bracket, and nothing else needs storing. Later rounds take the
winners of earlier matches on confirmed results only (a board decided with all its games confirmed, a
team match decided with every board's games confirmed), through ``pairing.bracket_state``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments import roles
from tournaments.models import Board, Entry, Round, TeamMatch, Tournament, TournamentRole
from tournaments.pairing import (
    Bracket,
    MatchState,
    MatchStatus,
    PairingError,
    bracket_state,
    knockout_bracket,
    round_name,
    seeding_order,
)

from .errors import Conflict, NotAllowed


@dataclass(frozen=True)
class KnockoutRound:
    """The matches to seat in a knockout round: ``matches`` ready ones (both entrants known), and in
    round 1 ``byes`` (entrants through without a match), each with an explanation."""

    bracket: Bracket
    matches: tuple[tuple[int, int, str], ...]
    byes: tuple[tuple[int, str], ...]
    order: tuple[tuple[int, int | None, str], ...]


def qualifier_order(tournament: Tournament, *, clubs: bool) -> list[int]:
    """The qualifying tournament's final standings as ids of this tournament (entries or clubs), best
    first; pairs are matched by their ``Pair`` (an entry of one tournament is not one of the other).

    Only a tournament that someone running this one also runs (organiser or co-organiser of both) seeds
    it: another organiser's standings, published or not, are never read (403
    ``qualifies_from_not_organised``; the settings refuse naming one, this refuses one stored before)."""
    from .standings import standings_latest

    qualifier = tournament.qualifies_from
    if qualifier is None:
        return []
    if not _run_by_the_same_people(tournament, qualifier):
        text = "This knockout is seeded from a tournament none of its organisers runs: choose one of yours."
        raise NotAllowed("qualifies_from_not_organised", text, fields={"qualifies_from": text})
    snapshot = standings_latest(tournament=qualifier, fresh=True)
    if snapshot is None:
        return []
    if clubs:
        return [int(r["club_id"]) for r in snapshot.clubs if r.get("club_id") is not None]
    pair_of = dict(Entry.objects.filter(tournament=qualifier).values_list("id", "pair_id"))
    here = dict(Entry.objects.filter(tournament=tournament, withdrawn=False).values_list("pair_id", "id"))
    order = []
    for row in snapshot.rows:
        entry = here.get(pair_of.get(row.get("entry_id")))
        if entry is not None:
            order.append(entry)
    return order


def _run_by_the_same_people(tournament: Tournament, qualifier: Tournament) -> bool:
    """Whether one person runs both tournaments (a role that may ``manage`` each, ``tournaments.roles``)."""
    runners = roles.POLICY["manage"]
    return TournamentRole.objects.filter(
        tournament_id=qualifier.pk, role__in=runners,
        user__tournament_roles__tournament_id=tournament.pk, user__tournament_roles__role__in=runners,
    ).exists()


def first_round(seeded: Sequence[int], *, third_place: bool) -> KnockoutRound:
    """Round 1 of a new bracket: seed s against seed (size + 1 - s), byes to the top seeds."""
    try:
        bracket = knockout_bracket(seeded, third_place=third_place)
    except PairingError as exc:
        raise Conflict(f"pairing_{exc.code}", exc.message) from exc
    states = bracket_state(bracket, {})
    return _round(bracket, states, 1)


def _round(bracket: Bracket, states: Sequence[MatchState], number: int) -> KnockoutRound:
    name = round_name(bracket, number)
    matches: list[tuple[int, int, str]] = []
    byes: list[tuple[int, str]] = []
    order: list[tuple[int, int | None, str]] = []
    for state in states:
        match = state.match
        if match.round_number != number:
            continue
        if state.status is MatchStatus.BYE:
            winner = state.winner
            assert winner is not None
            seed = match.slots[0].seed if state.side0 is not None else match.slots[1].seed
            text = f"{name}: seed {seed} has a bye (no opponent in a bracket of {bracket.size})"
            byes.append((winner, text))
            order.append((winner, None, text))
            continue
        if state.status is not MatchStatus.READY or state.side0 is None or state.side1 is None:
            raise Conflict("match_undecided", f"Knockout match {match.number} is waiting for an earlier result.")
        if match.third_place:
            text = f"third-place match (match {match.number}): the losers of the semi-finals"
        elif number == 1:
            text = f"{name}, match {match.number}: seed {match.slots[0].seed} v seed {match.slots[1].seed}"
        else:
            sources = " v ".join(f"winner of match {s.from_match}" for s in match.slots)
            text = f"{name}, match {match.number}: {sources}"
        matches.append((state.side0, state.side1, text))
        order.append((state.side0, state.side1, text))
    return KnockoutRound(bracket=bracket, matches=tuple(matches), byes=tuple(byes), order=tuple(order))


def bracket_from_round_one(first: Sequence[tuple[int, int | None]], *, third_place: bool) -> Bracket:
    """Rebuild the bracket from round 1's matches in bracket order ((side 0, side 1 or None) each)."""
    size = 2 * len(first)
    order = seeding_order(size)
    seeds: list[int | None] = [None] * size
    for k, (a, b) in enumerate(first):
        seeds[order[2 * k] - 1] = a
        if b is not None:
            seeds[order[2 * k + 1] - 1] = b
    present = [s for s in seeds if s is not None]
    return knockout_bracket(present, third_place=third_place)


def later_round(
    first: Sequence[tuple[int, int | None]],
    played: Mapping[int, Sequence[tuple[int, int, int | None]]],
    number: int,
    *,
    third_place: bool,
) -> KnockoutRound:
    """Round ``number`` (2 or more) given round 1's matches and, per earlier round, its matches as
    (side 0, side 1, confirmed winner or None)."""
    bracket = bracket_from_round_one(first, third_place=third_place)
    if number > bracket.rounds:
        raise Conflict("knockout_complete", f"The bracket has {bracket.rounds} rounds: the knockout is over.")
    winners: dict[int, int] = {}
    for rnd in range(1, number):
        results = {frozenset((a, b)): w for a, b, w in played.get(rnd, ())}
        for state in bracket_state(bracket, winners):
            if state.match.round_number != rnd or state.status is not MatchStatus.READY:
                continue
            assert state.side0 is not None and state.side1 is not None
            key = frozenset((state.side0, state.side1))
            if key not in results:
                raise Conflict("bracket_mismatch", f"Round {rnd} has no board for knockout match {state.match.number}.")
            winner = results[key]
            if winner is None:
                raise Conflict("match_undecided",
                               f"Knockout match {state.match.number} (round {rnd}) has no confirmed winner yet.")
            winners[state.match.number] = winner
    return _round(bracket, bracket_state(bracket, winners), number)


def knockout_rounds(count: int) -> int:
    """How many rounds a knockout of ``count`` entrants takes."""
    size = 1
    while size < count:
        size *= 2
    return max(size.bit_length() - 1, 1)


def stored_rounds(tournament: Tournament, before: int, *, clubs: bool) -> tuple[
        list[tuple[int, int | None]], dict[int, list[tuple[int, int, int | None]]]]:
    """Round 1's matches in bracket order and every earlier round's matches with confirmed winners."""
    first: list[tuple[int, int | None]] = []
    played: dict[int, list[tuple[int, int, int | None]]] = {}
    if clubs:
        matches = list(TeamMatch.objects.filter(round__tournament=tournament, round__number__lt=before)
                       .order_by("round__number", "id")
                       .values_list("round__number", "club_a_id", "club_b_id", "decided", "winner", "id"))
        unconfirmed = set(Board.objects.filter(team_match__round__tournament=tournament,
                                               team_match__round__number__lt=before, all_confirmed=False)
                          .values_list("team_match_id", flat=True))
        for rnd, a, b, decided, winner, match_id in matches:
            if rnd == 1:
                first.append((a, b))
            if b is None:
                continue
            confirmed = decided and winner is not None and match_id not in unconfirmed
            played.setdefault(rnd, []).append((a, b, (a, b)[winner] if confirmed else None))
        return first, played
    boards = Board.objects.filter(round__tournament=tournament, round__number__lt=before).order_by(
        "round__number", "id").values_list("round__number", "pair_a_id", "pair_b_id", "decided", "all_confirmed", "winner")
    for rnd, a, b, decided, confirmed, winner in boards:
        if rnd == 1:
            first.append((a, b))
        if b is None:
            continue
        ok = decided and confirmed and winner is not None
        played.setdefault(rnd, []).append((a, b, (a, b)[winner] if ok else None))
    return first, played


def knockout_round(tournament: Tournament, round_: Round, seeded: Sequence[int], *, clubs: bool) -> KnockoutRound:
    """The matches of ``round_``: round 1 from ``seeded`` (best first), later rounds from the bracket."""
    third = bool(tournament.third_place_match)
    if round_.number == 1:
        return first_round(seeded, third_place=third)
    first, played = stored_rounds(tournament, round_.number, clubs=clubs)
    if not first:
        raise Conflict("bracket_missing", "Round 1 of this knockout has no boards: pair round 1 first.")
    return later_round(first, played, round_.number, third_place=third)


__all__ = [
    "KnockoutRound", "bracket_from_round_one", "first_round", "knockout_round", "knockout_rounds", "later_round",
    "qualifier_order", "stored_rounds",
]
