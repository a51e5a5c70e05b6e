"""Plausibility of results typed from paper, by the engine's rules (docs/adr/0012-result-source.md).

A game: one side reached the target and the other did not; counting stops the moment a side reaches the
target, so the winner is at most the target less one plus the most one scoring event can bring under the
rules (the last hand's last event carried it from below); the typed figures (hang jacks, kicks, Game counts)
each score points, so together they cannot exceed a side's score. A match: the games are what the team
format allows (a race ends when a team reaches N; K boards of n games play K*n) unless time was called; a
team's hang jacks are at most what its games could hold.
"""

from __future__ import annotations

from scoring import RuleSet
from tournaments.formats import TeamFormat, TeamKind

from ..errors import ValidationFailed


def max_event_points(rules: RuleSet) -> int:
    """The most points one scoring event of a hand can bring under ``rules`` (a kick, the gift, High, Low,
    the jack or hang jack, Game, a revoke or misdeal penalty). A lost-game penalty raises a side to the
    target exactly, so it carries nobody past it."""
    kicks = max(rules.kick_value.values(), default=0)
    return max(1, kicks, rules.gift_points, rules.jack_points, rules.hang_jack_points, rules.game_points,
               rules.revoke_points, rules.misdeal_points)


def _refuse(message: str, field: str) -> ValidationFailed:
    return ValidationFailed("implausible_result", message, fields={field: message})


def check_game(rules: RuleSet, score: tuple[int, int], hang_jacks: tuple[int, int],
               kicks: tuple[int, int] | None = None, game_counts: tuple[int, int] | None = None) -> int:
    """The winning side (0 or 1) of a game typed from a chalk sheet, or 400 ``implausible_result`` naming the
    figure at fault. ``kicks`` counts the kicks that scored for each side, ``game_counts`` the hands whose
    Game point it took."""
    target = rules.target
    reached = [side for side in (0, 1) if score[side] >= target]
    if not reached:
        raise _refuse(f"Nobody reached the target ({target}): a finished game has a winner.", "score")
    if len(reached) == 2:
        raise _refuse(f"Both sides at {target} or more: the game ends the moment one side reaches {target}.", "score")
    winner = reached[0]
    most = target - 1 + max_event_points(rules)
    if score[winner] > most:
        raise _refuse(f"{score[winner]} is out of reach: counting stops at {target}, and one scoring event brings "
                      f"at most {max_event_points(rules)}, so a winner has at most {most}.", "score")
    min_kick = min((v for v in rules.kick_value.values() if v > 0), default=0)
    for side in (0, 1):
        scored = hang_jacks[side] * rules.hang_jack_points
        if kicks is not None:
            scored += kicks[side] * min_kick
        if game_counts is not None:
            scored += game_counts[side] * rules.game_points
        if scored > score[side]:
            field = "hang_jacks" if kicks is None and game_counts is None else "figures"
            raise _refuse(f"Side {side + 1}'s hang jacks, kicks and Game counts alone score {scored}, more than its "
                          f"{score[side]}.", field)
    return winner


def check_match(fmt: TeamFormat, rules: RuleSet, games: tuple[int, int], hang_jacks: tuple[int, int], *,
                time_called: bool = False) -> int | None:
    """The winning team (0, 1; None: level) of a match known by its totals, or 400 ``implausible_result``."""
    total = games[0] + games[1]
    if fmt.kind is TeamKind.FIRST_TO_TOTAL:
        n = fmt.n
        if max(games) > n:
            raise _refuse(f"A race to {n} ends when a team reaches {n}: {max(games)} games is past it.", "games")
        if games[0] == n and games[1] == n:
            raise _refuse(f"Both teams at {n}: the race ends when the first reaches it.", "games")
        if not time_called and max(games) < n:
            raise _refuse(f"Nobody reached {n}: a race is won at {n} (unless time was called).", "games")
    else:
        full = fmt.boards * fmt.n
        if total > full or (not time_called and total != full):
            raise _refuse(f"{fmt.boards} boards of {fmt.n} games play {full} games, not {total}"
                          + (" (fewer only when time is called)." if total < full else "."), "games")
    per_game = (rules.target - 1 + max_event_points(rules)) // rules.hang_jack_points if rules.hang_jack_points else None
    if per_game is not None:
        for side in (0, 1):
            if hang_jacks[side] > total * per_game:
                raise _refuse(f"{hang_jacks[side]} hang jacks in {total} games: a game holds at most {per_game} "
                              "for one side.", "hang_jacks")
    if games[0] == games[1]:
        return None
    return 0 if games[0] > games[1] else 1
