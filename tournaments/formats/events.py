"""What an event is: its entrants, its pairing system, and its policies for called time and club-mates.

Each is a ``StrEnum`` whose value is what the database stores, with a ``label`` and an ``explanation``
for organisers and players. Every entrant type combines with every pairing system (a Swiss of club
teams, a knockout of pairs: docs/decisions.md, "Events, entrants and formats").
"""

from __future__ import annotations

from enum import StrEnum


class EntrantType(StrEnum):
    """Who is ranked: pairs, or clubs' teams of pairs."""

    PAIRS = "pairs"
    CLUB_TEAMS = "club_teams"

    @property
    def label(self) -> str:
        return {"pairs": "Pairs", "club_teams": "Club teams"}[self.value]

    @property
    def explanation(self) -> str:
        return {
            "pairs": "Each entrant is a pair of partners; boards are pair against pair.",
            "club_teams": "Clubs field several pairs; a team match is K boards between two clubs.",
        }[self.value]


class PairingSystem(StrEnum):
    """How rounds are drawn."""

    SWISS = "swiss"
    ROUND_ROBIN = "round_robin"
    KNOCKOUT = "knockout"

    @property
    def label(self) -> str:
        return {"swiss": "Swiss", "round_robin": "Round robin", "knockout": "Knockout"}[self.value]

    @property
    def explanation(self) -> str:
        return {
            "swiss": "Each round pairs entrants with similar scores who have not met yet.",
            "round_robin": "Every entrant meets every other once.",
            "knockout": "The loser of each match goes out; a level match plays one more game.",
        }[self.value]


class TimeCalled(StrEnum):
    """What closing a round does to a game still unfinished."""

    VOID = "void"
    AWARD = "award"

    @property
    def label(self) -> str:
        return {"void": "Void unfinished games", "award": "Award unfinished games to the side ahead"}[self.value]

    @property
    def explanation(self) -> str:
        return {
            "void": "A game still in play when the round closes does not count.",
            "award": "A game still in play when the round closes goes to the side ahead in it.",
        }[self.value]


class ClubAvoidance(StrEnum):
    """How hard a Swiss draw keeps two pairs of one club off one board.

    ``off``: ignored. ``prefer`` (default): only among draws equal on rematches, bye and score groups.
    ``strong``: above score groups (a pair floats rather than meet a club-mate), still below rematches
    and the fair bye. Stored on the tournament as a level 0 to 3 (0 off, 1 and 2 prefer, 3 strong).
    """

    OFF = "off"
    PREFER = "prefer"
    STRONG = "strong"

    @property
    def level(self) -> int:
        """The stored level."""
        return {"off": 0, "prefer": 2, "strong": 3}[self.value]

    @property
    def label(self) -> str:
        return {"off": "Ignore clubs", "prefer": "Avoid club-mates when it costs nothing else",
                "strong": "Avoid club-mates strongly (a pair may float instead)"}[self.value]

    @property
    def explanation(self) -> str:
        return {"off": "Pairs of one club may meet whenever the draw puts them together.",
                "prefer": "Of two equally good draws, the one with fewer club-mates facing each other is taken.",
                "strong": "A pair rather plays someone further down the table than a club-mate."}[self.value]

    @classmethod
    def of_level(cls, level: int) -> ClubAvoidance:
        """The setting of a stored level 0 to 3."""
        if level <= 0:
            return cls.OFF
        return cls.STRONG if level >= 3 else cls.PREFER


DEFAULT_ENTRANT_TYPE = EntrantType.PAIRS
DEFAULT_PAIRING_SYSTEM = PairingSystem.SWISS
DEFAULT_TIME_CALLED = TimeCalled.VOID
DEFAULT_CLUB_AVOIDANCE = ClubAvoidance.PREFER
