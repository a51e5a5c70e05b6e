"""The tournament's stored state. Each module holds one part of the domain:

- ``people``: Club, Player, Pair (a partnership), each owned by an organisation; ClubAlias, PlayerAlias.
- ``organisations``: Organisation (personal or shared) and OrganisationMember (owner or member).
- ``substitutions``: EntrySubstitution (a substitute player for an entry, from a round on).
- ``events``: Tournament, TournamentRole, Entry (a pair entered in a tournament), Round.
- ``boards``: TeamMatch, Board, BoardPair (one board per pair per round), Game, GameConfirmation, Hand.
- ``devices``: Device (a table's scoring tablet) and PairingCode.
- ``records``: AuditEvent, IdempotencyRecord, OutboxMessage, StandingsSnapshot.
- ``leagues``: League, Division, Team (a club's side in a season), LineupSubstitution, PointDeduction.
- ``late_hands``: LateHand (the organiser's inbox of entries a tablet could no longer send).
- ``prizes``: Prize (a place, best club, most hang jacks, highest count or a tag's place).
- ``registration``: Availability (check-in, requested byes), Invitation (accounts and roles).
"""

from .boards import Board, BoardPair, EnteredAs, Game, GameConfirmation, Hand, ResultSource, TeamMatch
from .devices import Device, PairingCode
from .events import Entry, Round, Tournament, TournamentRole
from .late_hands import LateHand
from .leagues import Division, League, LineupSubstitution, PointDeduction, Team
from .organisations import Organisation, OrganisationMember
from .people import Club, ClubAlias, Pair, Player, PlayerAlias
from .prizes import Prize
from .records import AuditEvent, IdempotencyRecord, OutboxMessage, StandingsSnapshot
from .registration import Availability, Invitation
from .substitutions import EntrySubstitution

__all__ = [
    "AuditEvent", "Availability", "Board", "BoardPair", "Club", "ClubAlias", "Device", "Division", "EnteredAs", "Entry", "EntrySubstitution",
    "Game", "GameConfirmation", "Hand", "IdempotencyRecord", "Invitation", "LateHand", "League", "LineupSubstitution",
    "Organisation", "OrganisationMember", "OutboxMessage", "Pair", "PairingCode", "Player", "PlayerAlias", "PointDeduction", "Prize",
    "ResultSource", "Round", "StandingsSnapshot", "Team", "TeamMatch", "Tournament", "TournamentRole",
]
