"""The domain services: every write of the tournament's state goes through one of these functions.

HackSoft style: ``<entity>_<verb>(*, ...)``, typed, one transaction each, locking what they change
(``select_for_update``; lock order: round, games by id, team match, board). Reads are in
``tournaments.selectors``; the model <-> engine translation is in ``tournaments.adapters``. Refusals are
``errors.DomainError`` subclasses. docs/services.md documents every service and error code.
"""

from .accounts import (
    invitation_accept,
    invitation_create,
    invitation_revoke,
    organiser_grant,
    password_link_issue,
    password_link_use,
    role_grant,
    role_revoke,
    signup,
)
from .audit import audit_record
from .boards import board_call_help, board_help_clear, board_results_refresh, board_seat, team_match_refresh
from .checkin import (
    entry_bye_request,
    entry_check_in,
    entry_details_set,
    entry_fee_paid_set,
    entry_tags_set,
)
from .closing import (
    round_call_time,
    round_clock,
    round_clock_set,
    round_close,
    round_close_preview,
    round_reopen,
)
from .confirmations import game_confirm, round_confirm_all
from .errors import (
    Conflict,
    DomainError,
    IdempotencyKeyReused,
    NotAllowed,
    NotFound,
    PreconditionFailed,
    PreconditionRequired,
    ValidationFailed,
)
from .events import (
    entry_create,
    entry_delete,
    entry_update,
    tournament_create,
    tournament_delete,
    tournament_settings_clean,
    tournament_update,
)
from .field import (
    board_forfeit,
    board_forfeit_cancel,
    entry_enter_late,
    entry_withdraw,
    team_match_forfeit,
)
from .finish import tournament_finish, tournament_reopen
from .hands import hand_correct, hand_preview, hand_submit, hand_undo, hand_void
from .idempotency import idempotent_call, request_fingerprint
from .import_preview import (
    ImportRowsInvalid,
    Preview,
    pairs_import_check,
    pairs_import_commit,
    pairs_import_preview,
)
from .imports import ImportResult, PairsImportRefused, RowError, pairs_import
from .organisations import (
    organisation_create,
    organisation_member_add,
    organisation_personal,
    organisation_update,
)
from .outbox import outbox_enqueue, outbox_sweep
from .pairing import (
    round_draft_adopt_proposal,
    round_draft_swap,
    round_draft_swap_tables,
    round_pair,
    round_start,
    team_lineup_set,
)
from .people import (
    club_create,
    club_delete,
    club_update,
    pair_copy,
    pair_create,
    pair_delete,
    pair_update,
    player_create,
    player_delete,
    player_update,
)
from .prizes import prize_create, prize_delete, prize_settings_set, prize_update
from .rounds import (
    round_create,
    round_pair_rotation,
    round_publish,
    round_seat_boards,
    round_seat_team_matches,
    round_start_play,
    tournament_rules_resolve,
)
from .standings import tournament_standings_recompute

__all__ = [
    "Conflict", "DomainError", "IdempotencyKeyReused", "NotAllowed", "NotFound", "PreconditionFailed",
    "PreconditionRequired", "ValidationFailed", "audit_record", "board_call_help", "board_help_clear",
    "board_results_refresh", "board_seat", "game_confirm", "hand_correct", "hand_preview", "hand_submit",
    "hand_undo", "hand_void", "idempotent_call", "outbox_enqueue", "outbox_sweep", "request_fingerprint",
    "round_call_time", "round_clock", "round_clock_set", "round_close", "round_close_preview", "round_reopen",
    "round_confirm_all", "round_create", "round_pair_rotation", "round_publish",
    "round_seat_boards", "round_seat_team_matches", "round_start_play", "team_match_refresh",
    "tournament_rules_resolve",
    # accounts and roles (docs/services.md)
    "invitation_accept", "invitation_create", "invitation_revoke", "organiser_grant", "password_link_issue",
    "password_link_use", "role_grant", "role_revoke", "signup",
    # registration: the import with a preview, check-in (docs/services.md)
    "ImportRowsInvalid", "Preview", "entry_bye_request", "entry_check_in", "entry_details_set",
    "entry_fee_paid_set", "entry_tags_set", "pairs_import_check", "pairs_import_commit", "pairs_import_preview",
    # pairing and standings
    "round_draft_swap", "round_draft_swap_tables", "round_pair", "round_start", "team_lineup_set",
    "tournament_standings_recompute",
    # the registry: tournaments, entries, clubs, players, pairs, the pairs import
    "ImportResult", "PairsImportRefused", "RowError", "club_create", "club_delete", "club_update", "entry_create",
    "entry_delete", "entry_update", "pair_create", "pair_delete", "pair_update", "pairs_import", "player_create",
    "player_delete", "player_update", "tournament_create", "tournament_delete", "tournament_settings_clean",
    "tournament_update",
    # when the field changes (docs/adr/0012-result-source.md) and the end of an event
    "board_forfeit", "board_forfeit_cancel", "entry_enter_late", "entry_withdraw", "team_match_forfeit",
    "tournament_finish", "tournament_reopen", "prize_create", "prize_delete", "prize_settings_set", "prize_update",
    "round_draft_adopt_proposal",
    # owners (docs/adr/0010-owners-and-organisations.md)
    "organisation_create", "organisation_member_add", "organisation_personal", "organisation_update", "pair_copy",
]
