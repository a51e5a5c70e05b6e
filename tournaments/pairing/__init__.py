"""Pairing: pure functions that draft rounds from plain data (no Django, no database).

Like Tabbycat's draw generator, this package is fed plain frozen dataclasses and returns plain ones;
the tournaments service turns rows into ``Entrant``/``History`` and stores the ``DraftRound``.

* Swiss: ``pair_swiss(entrants, history, round_number=..., config=SwissConfig())``
* Round robin: ``round_robin_round(ids, round_number)`` / ``round_robin(ids)`` (Berger tables);
  when the field changes, ``round_robin_replan(ids, history, rounds_remaining, cycles=...)``
* Knockout: ``knockout_bracket(seeded_ids, third_place=...)``, ``bracket_state(bracket, winners)``
* Club teams: ``default_lineup``, ``check_lineup``, ``team_match_boards``
* Board and team match results: ``tournaments.formats`` (``match_outcome``, ``team_match_decision``)
* Before publishing: ``rematch_outlook(ids, history_with_draft, rounds_remaining)``; a small Swiss
  that would trap itself: ``swiss_lookahead(entrants, history, round_number, rounds_remaining)``
* The float rule: ``History(floats=round_floats(last_round, entrants_then))``
* Organiser edits: ``swap_entrants``, ``swap_tables``, ``flip_sides``, ``review_round``

docs/pairing.md has the API with examples and the reasoning behind the weights.
"""

from .draft import flip_sides, review_round, swap_entrants, swap_tables
from .feasibility import EXACT_LIMIT, Outlook, RematchOutlook, rematch_outlook
from .knockout import (
    Bracket,
    KnockoutMatch,
    MatchState,
    MatchStatus,
    Slot,
    Take,
    bracket_state,
    knockout_bracket,
    placings,
    ready_matches,
    round_name,
    seeding_order,
)
from .round_robin import berger_round, round_robin, round_robin_round, round_robin_rounds
from .schedule import PlannedRematch, Replan, ReplanVerdict, round_robin_replan
from .swiss import (
    DraftFigures,
    LookAhead,
    LookAheadStatus,
    SwissGraph,
    bye_candidates,
    candidate_window,
    draft_figures,
    pair_swiss,
    round_floats,
    swiss_graph,
    swiss_lookahead,
)
from .team import (
    TeamBoard,
    check_lineup,
    default_lineup,
    team_match_boards,
)
from .types import (
    ClubAvoidance,
    DraftBoard,
    DraftBye,
    DraftRound,
    Entrant,
    FloatDirection,
    GroupPairing,
    History,
    PairingCost,
    PairingError,
    PairingWarning,
    PastBoard,
    PastBye,
    PastFloat,
    SwissConfig,
)

__all__ = [
    "EXACT_LIMIT",
    "Bracket",
    "ClubAvoidance",
    "DraftBoard",
    "DraftBye",
    "DraftFigures",
    "DraftRound",
    "Entrant",
    "FloatDirection",
    "GroupPairing",
    "History",
    "KnockoutMatch",
    "LookAhead",
    "LookAheadStatus",
    "MatchState",
    "MatchStatus",
    "Outlook",
    "PairingCost",
    "PairingError",
    "PairingWarning",
    "PastBoard",
    "PastBye",
    "PastFloat",
    "PlannedRematch",
    "RematchOutlook",
    "Replan",
    "ReplanVerdict",
    "Slot",
    "SwissConfig",
    "SwissGraph",
    "Take",
    "TeamBoard",
    "berger_round",
    "bracket_state",
    "bye_candidates",
    "candidate_window",
    "check_lineup",
    "default_lineup",
    "draft_figures",
    "flip_sides",
    "knockout_bracket",
    "pair_swiss",
    "placings",
    "ready_matches",
    "rematch_outlook",
    "review_round",
    "round_floats",
    "round_name",
    "round_robin",
    "round_robin_replan",
    "round_robin_round",
    "round_robin_rounds",
    "seeding_order",
    "swap_entrants",
    "swap_tables",
    "swiss_graph",
    "swiss_lookahead",
    "team_match_boards",
]
