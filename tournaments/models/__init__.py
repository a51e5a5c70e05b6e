"""The tournament's stored state. Each module holds one part of the domain:

- ``people``: Club, Player, Pair (a partnership).
- ``events``: Tournament, TournamentRole, Entry (a pair entered in a tournament), Round.
- ``boards``: TeamMatch, Board, BoardPair (one board per pair per round), Game, GameConfirmation, Hand.
- ``devices``: Device (a table's scoring tablet) and PairingCode.
- ``records``: AuditEvent, IdempotencyRecord, OutboxMessage, StandingsSnapshot.
- ``registration``: Availability (check-in, requested byes), Invitation (accounts and roles).
"""

from .boards import Board, BoardPair, Game, GameConfirmation, Hand, TeamMatch
from .devices import Device, PairingCode
from .events import Entry, Round, Tournament, TournamentRole
from .people import Club, Pair, Player
from .records import AuditEvent, IdempotencyRecord, OutboxMessage, StandingsSnapshot
from .registration import Availability, Invitation

__all__ = [
    "AuditEvent", "Availability", "Board", "BoardPair", "Club", "Device", "Entry", "Game", "GameConfirmation", "Hand",
    "IdempotencyRecord", "Invitation", "OutboxMessage", "Pair", "PairingCode", "Player", "Round", "StandingsSnapshot",
    "TeamMatch", "Tournament", "TournamentRole",
]
