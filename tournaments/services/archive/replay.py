"""Replaying an archive's hands through the rules engine before anything is written.

Every live hand (status ``active``) of every game is scored again, in order, from the game's first dealer
and a score of nil, with the game's own resolved rules, as ``services.hands`` scores a hand at the table.
What the engine derives must be what the archive says: each hand's events, trump, score, winner and next
dealer, and each game's score, winner, next dealer and whether it ended. The first difference refuses the
import (400 ``archive_mismatch``), naming the round, table, game and hand and the archive's path.

Voided and superseded versions are history: they keep what was scored for them when they were live.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from tournaments import adapters
from tournaments.formats import DEFAULT_TEAM_FORMAT, FormatError, TeamFormat

from ..errors import ValidationFailed
from ..leagues.plausible import check_game, check_match

HAND_FIELDS = ("trump", "events", "score", "winner", "next_dealer")


@dataclass
class Replayed:
    """What the engine derived: per index into ``hands`` the model's derived fields (active hands only), per
    index into ``games`` the game's score, winner, next dealer and last hand number."""

    hands: dict[int, dict[str, Any]] = field(default_factory=dict)
    games: dict[int, dict[str, Any]] = field(default_factory=dict)


def board_label(board: dict[str, Any]) -> str:
    """"round 2, table 3" (a bye: "round 2, the bye")."""
    table = board.get("table")
    return f"round {board['round']}, " + (f"table {table}" if table is not None else "the bye")


def mismatch(where: str, path: str, text: str) -> ValidationFailed:
    message = (f"The archive does not match what its hands give: {where}: {text}. The archive was changed "
               "after it was exported, or comes from a server that scored differently; nothing was imported.")
    return ValidationFailed("archive_mismatch", message, fields={path: f"{where}: {text}"})


def _show(value: Any) -> str:
    if isinstance(value, list) and all(isinstance(v, int) for v in value):
        return "-".join(str(v) for v in value)
    return "none" if value is None else str(value)


def archive_replay(document: dict[str, Any]) -> Replayed:
    """Score every live hand of the archive again (pure: no query); ``archive_mismatch`` at the first
    difference."""
    boards = {b["id"]: b for b in document["boards"]}
    by_game: dict[int, list[int]] = defaultdict(list)
    for index, hand in enumerate(document["hands"]):
        if hand["status"] == "active":
            by_game[hand["game"]].append(index)
    out = Replayed()
    for g_index, game in enumerate(document["games"]):
        board = boards[game["board"]]
        where_game = f"{board_label(board)}, game {game['number']}"
        try:
            rules = adapters.rules_from_spec(game["rules"])
        except ValidationFailed as exc:
            raise mismatch(where_game, f"games[{g_index}].rules", f"its rules are refused ({exc.message})") from None
        indexes = sorted(by_game.get(game["id"], []), key=lambda i: document["hands"][i]["number"])
        if game.get("result_source") == "paper_game":
            out.games[g_index] = _paper_game(game, g_index, rules, where_game, bool(indexes))
            continue
        score: list[int] = adapters.starting_score(rules)
        dealer, winner, last = game["first_dealer"], None, 0
        for h_index in indexes:
            hand = document["hands"][h_index]
            where = f"{where_game}, hand {hand['number']}"
            path = f"hands[{h_index}]"
            if winner is not None:
                raise mismatch(where, path, f"the game was already won at hand {last}")
            if hand["dealer"] != dealer:
                raise mismatch(where, f"{path}.dealer", f"seat {dealer} deals it, not seat {hand['dealer']}")
            try:
                result = adapters.hand_score(rules, score, hand["record"], dealer=dealer)
            except ValidationFailed as exc:
                raise mismatch(where, f"{path}.record", f"the engine refuses it ({exc.message})") from None
            fields = adapters.hand_fields(result)
            derived = {"trump": fields["trump"] or None, "events": fields["events"], "score": fields["score_after"],
                       "winner": fields["winner"], "next_dealer": fields["next_dealer"]}
            stored = hand["result"]
            for name in HAND_FIELDS:
                if stored.get(name) != derived[name]:
                    raise mismatch(where, f"{path}.result.{name}", f"the archive says {name} "
                                   f"{_show(stored.get(name))}, the hand gives {_show(derived[name])}")
            fields["form"] = adapters.record_form(hand["record"])
            out.hands[h_index] = fields
            score, dealer, winner, last = fields["score_after"], fields["next_dealer"], fields["winner"], hand["number"]
        out.games[g_index] = {"score": score, "next_dealer": dealer, "last_hand_number": last,
                              "winner": game["result"]["winner"] if game.get("awarded") else winner}
        if game["status"] == "voided":
            continue  # a voided game keeps the figures it had when it was voided
        stored = game["result"]
        checks = [("score", score), ("next_dealer", dealer)]
        if not game.get("awarded"):
            checks.append(("winner", winner))
            ended = winner is not None
            if ended != (game["status"] == "finished"):
                state = "ended" if ended else "not ended"
                raise mismatch(where_game, f"games[{g_index}].status", f"the archive says {game['status']}, "
                               f"its hands have {state} it")
        for name, value in checks:
            if stored.get(name) != value:
                raise mismatch(where_game, f"games[{g_index}].result.{name}",
                               f"the archive says {name} {_show(stored.get(name))}, its hands give {_show(value)}")
    _match_totals(document)
    return out


def _paper_game(game: dict[str, Any], g_index: int, rules: Any, where: str, has_hands: bool) -> dict[str, Any]:
    """A game from a chalk sheet: no hands; a finished one checked as plausible by the engine's rules (the
    check ``paper_game_enter`` makes), its winner the side the check finds."""
    path = f"games[{g_index}]"
    stored = game["result"]
    if has_hands:
        raise mismatch(where, f"{path}.result_source", "a game from paper has no hands, but the archive lists some")
    paper = game.get("paper") or {}
    if game["status"] == "finished":
        score, hangs = stored["score"], paper.get("hang_jacks")
        if len(score) != 2 or hangs is None:
            raise mismatch(where, f"{path}.paper", "a game from paper needs its two scores and hang jacks")
        try:
            winner = check_game(rules, (score[0], score[1]), (hangs[0], hangs[1]),
                                tuple(paper["kicks"]) if paper.get("kicks") else None,  # type: ignore[arg-type]
                                tuple(paper["game_counts"]) if paper.get("game_counts") else None)  # type: ignore[arg-type]
        except ValidationFailed as exc:
            raise mismatch(where, f"{path}.result.score", f"the engine's rules refuse it ({exc.message})") from None
        if winner != stored["winner"]:
            raise mismatch(where, f"{path}.result.winner", f"the archive says winner {_show(stored['winner'])}, "
                           f"its score gives {winner}")
    return {"score": stored["score"], "winner": stored["winner"], "next_dealer": stored["next_dealer"],
            "last_hand_number": 0}


def _match_totals(document: dict[str, Any]) -> None:
    """A fixture known by its totals: checked as plausible for its format (``check_match``), its winner the
    team the check finds."""
    spec = document["tournament"].get("rules_resolved") or document["tournament"]["rules"]
    for i, m in enumerate(document["team_matches"]):
        if m.get("result_source") != "match_totals":
            continue
        where = f"round {m['round']}, fixture {i + 1}"
        result = m["result"]
        try:
            rules = adapters.rules_from_spec(spec)
            fmt = TeamFormat.from_dict(m.get("team_format") or DEFAULT_TEAM_FORMAT.to_dict())
            winner = check_match(fmt, rules, tuple(result["bullseyes"]), tuple(result.get("hang_jacks") or (0, 0)),  # type: ignore[arg-type]
                                 time_called="time called" in result.get("explanation", ""))
        except (ValidationFailed, FormatError) as exc:
            raise mismatch(where, f"team_matches[{i}].result", f"its totals are refused ({exc.message})") from None
        if winner != result["winner"] or not result["decided"]:
            raise mismatch(where, f"team_matches[{i}].result.winner", f"the archive says winner "
                           f"{_show(result['winner'])}, its totals give {_show(winner)}")


__all__ = ["Replayed", "archive_replay", "board_label", "mismatch"]
