"""An archive's references checked before anything is written: every local id it uses names a row of the
right kind in the document, ids are unique, and what the database holds once (one board per pair per
round, one table per round, one live hand per number, one standing confirmation per party) is once here too.
A refusal is 400 ``archive_invalid`` naming the path of the first fault.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..errors import ValidationFailed


def _refuse(path: str, text: str) -> ValidationFailed:
    return ValidationFailed("archive_invalid", f"The archive is inconsistent at {path}: {text}.", fields={path: text})


def _ids(rows: Iterable[dict[str, Any]], path: str) -> set[int]:
    seen: set[int] = set()
    for i, row in enumerate(rows):
        if row["id"] in seen:
            raise _refuse(f"{path}[{i}].id", f"the id {row['id']} is used twice")
        seen.add(row["id"])
    return seen


def _need(value: Any, known: set[int], path: str, kind: str, *, optional: bool = False) -> None:
    if value is None and optional:
        return
    if value not in known:
        raise _refuse(path, f"no {kind} has the id {value}")


def archive_check_references(doc: dict[str, Any]) -> None:
    """Refuse an archive whose references do not hold together (see the module)."""
    people = doc["people"]
    clubs = _ids(people["clubs"], "people.clubs")
    players = _ids(people["players"], "people.players")
    pairs = _ids(people["pairs"], "people.pairs")
    names = Counter(c["name"].strip().casefold() for c in people["clubs"])
    for i, club in enumerate(people["clubs"]):
        if names[club["name"].strip().casefold()] > 1:
            raise _refuse(f"people.clubs[{i}].name", f"two clubs are named {club['name']!r}")
    for i, p in enumerate(people["players"]):
        _need(p["club"], clubs, f"people.players[{i}].club", "club", optional=True)
    for i, p in enumerate(people["pairs"]):
        _need(p["player_1"], players, f"people.pairs[{i}].player_1", "player")
        _need(p["player_2"], players, f"people.pairs[{i}].player_2", "player")
        _need(p["club"], clubs, f"people.pairs[{i}].club", "club", optional=True)
        if p["player_1"] == p["player_2"]:
            raise _refuse(f"people.pairs[{i}]", "a pair is two different players")
    divisions = _ids(doc.get("divisions", []), "divisions")
    teams = _ids(doc.get("teams", []), "teams")
    for i, team in enumerate(doc.get("teams", [])):
        _need(team["club"], clubs, f"teams[{i}].club", "club")
        _need(team.get("division"), divisions, f"teams[{i}].division", "division", optional=True)
    entries = _ids(doc["entries"], "entries")
    entered: set[int] = set()
    for i, e in enumerate(doc["entries"]):
        _need(e["pair"], pairs, f"entries[{i}].pair", "pair")
        if e["pair"] in entered:
            raise _refuse(f"entries[{i}].pair", "the pair is entered twice")
        entered.add(e["pair"])
        _need(e.get("club"), clubs, f"entries[{i}].club", "club", optional=True)
        _need(e.get("team"), teams, f"entries[{i}].team", "team", optional=True)
        for key in ("player_1", "player_2"):
            _need(e.get(key), players, f"entries[{i}].{key}", "player", optional=True)
        for j, sub in enumerate(e.get("substitutions", [])):
            for key in ("out_player", "in_player"):
                _need(sub[key], players, f"entries[{i}].substitutions[{j}].{key}", "player")
    rounds = {r["number"] for r in doc["rounds"]}
    if len(rounds) != len(doc["rounds"]):
        raise _refuse("rounds", "a round number is used twice")
    for i, a in enumerate(doc["availability"]):
        _need(a["entry"], entries, f"availability[{i}].entry", "entry")
    matches = _ids(doc["team_matches"], "team_matches")
    for i, m in enumerate(doc["team_matches"]):
        _need(m["round"], rounds, f"team_matches[{i}].round", "round")
        _need(m["club_a"], clubs, f"team_matches[{i}].club_a", "club")
        _need(m["club_b"], clubs, f"team_matches[{i}].club_b", "club", optional=True)
        for key in ("team_a", "team_b"):
            _need(m.get(key), teams, f"team_matches[{i}].{key}", "team", optional=True)
        for side in ("lineup_a", "lineup_b"):
            for j, entry in enumerate(m.get(side, [])):
                _need(entry, entries, f"team_matches[{i}].{side}[{j}]", "entry")
    for i, m in enumerate(doc["team_matches"]):
        _need(m.get("replay_of"), matches, f"team_matches[{i}].replay_of", "team match", optional=True)
    for i, d in enumerate(doc.get("deductions", [])):
        _need(d["team"], teams, f"deductions[{i}].team", "team")
        _need(d.get("team_match"), matches, f"deductions[{i}].team_match", "team match", optional=True)
    for i, sub in enumerate(doc.get("lineup_substitutions", [])):
        _need(sub["team_match"], matches, f"lineup_substitutions[{i}].team_match", "team match")
        _need(sub["team"], teams, f"lineup_substitutions[{i}].team", "team")
        _need(sub["in_entry"], entries, f"lineup_substitutions[{i}].in_entry", "entry")
        _need(sub.get("out_entry"), entries, f"lineup_substitutions[{i}].out_entry", "entry", optional=True)
    tables = doc["standings"].get("league_tables") or {"overall": [], "divisions": []}
    for i, row in enumerate(tables["overall"]):
        _need(row["team"], teams, f"standings.league_tables.overall[{i}].team", "team")
    if doc.get("league") is None and (doc["standings"].get("league_tables") is not None):
        raise _refuse("standings.league_tables", "league tables without a league")
    _check_boards(doc, entries, players, matches, rounds)
    _check_games(doc)
    for i, row in enumerate(doc["standings"]["pairs"]):
        _need(row["entry"], entries, f"standings.pairs[{i}].entry", "entry")
    for i, row in enumerate(doc["standings"]["clubs"]):
        _need(row["club"], clubs, f"standings.clubs[{i}].club", "club")


def _check_boards(doc: dict[str, Any], entries: set[int], players: set[int], matches: set[int],
                  rounds: set[int]) -> None:
    _ids(doc["boards"], "boards")
    tables: set[tuple[int, int]] = set()
    seated: set[tuple[int, int]] = set()
    for i, b in enumerate(doc["boards"]):
        _need(b["round"], rounds, f"boards[{i}].round", "round")
        _need(b["pair_a"], entries, f"boards[{i}].pair_a", "entry")
        _need(b["pair_b"], entries, f"boards[{i}].pair_b", "entry", optional=True)
        _need(b.get("team_match"), matches, f"boards[{i}].team_match", "team match", optional=True)
        for seat, player in (b.get("seating") or {}).items():
            _need(player, players, f"boards[{i}].seating.{seat}", "player", optional=True)
        if b.get("table") is not None:
            if (b["round"], b["table"]) in tables:
                raise _refuse(f"boards[{i}].table", f"round {b['round']} has two boards at table {b['table']}")
            tables.add((b["round"], b["table"]))
        for key in ("pair_a", "pair_b"):
            if b[key] is not None:
                if (b["round"], b[key]) in seated:
                    raise _refuse(f"boards[{i}].{key}", f"the entry plays twice in round {b['round']}")
                seated.add((b["round"], b[key]))


def _check_games(doc: dict[str, Any]) -> None:
    boards = {b["id"] for b in doc["boards"]}
    games = _ids(doc["games"], "games")
    live: set[tuple[int, int]] = set()
    for i, g in enumerate(doc["games"]):
        _need(g["board"], boards, f"games[{i}].board", "board")
        if g["status"] != "voided":
            if (g["board"], g["number"]) in live:
                raise _refuse(f"games[{i}].number", f"the board has two live games numbered {g['number']}")
            live.add((g["board"], g["number"]))
    versions: set[tuple[int, int, int]] = set()
    active: set[tuple[int, int]] = set()
    for i, h in enumerate(doc["hands"]):
        _need(h["game"], games, f"hands[{i}].game", "game")
        key = (h["game"], h["number"], h["version"])
        if key in versions:
            raise _refuse(f"hands[{i}].version", f"version {h['version']} of hand {h['number']} appears twice")
        versions.add(key)
        if h["status"] == "active":
            if key[:2] in active:
                raise _refuse(f"hands[{i}].status", f"hand {h['number']} has two live versions")
            active.add(key[:2])
    for i, h in enumerate(doc["hands"]):
        if h.get("supersedes") is not None and (h["game"], h["number"], h["supersedes"]) not in versions:
            raise _refuse(f"hands[{i}].supersedes", f"hand {h['number']} has no version {h['supersedes']}")
    standing: set[tuple[int, str]] = set()
    for i, c in enumerate(doc["confirmations"]):
        _need(c["game"], games, f"confirmations[{i}].game", "game")
        if not c.get("cleared", False):
            if (c["game"], c["party"]) in standing:
                raise _refuse(f"confirmations[{i}]", f"party {c['party']} has two standing words on the game")
            standing.add((c["game"], c["party"]))


__all__ = ["archive_check_references"]
