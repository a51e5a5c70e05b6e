"""Boards (tables in a round), team matches, games to the target, confirmations and hands.

Results on Board and Game are derived by the services from the active hands; hands are never
overwritten or deleted: a correction supersedes a hand with a new version, an undo voids it.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from tournaments import formats


class ResultSource(models.TextChoices):
    """Where a board's, a game's or a team match's result comes from (docs/adr/0012-result-source.md)."""

    HANDS = "hands", "Played"
    FORFEIT = "forfeit", "Forfeit"
    BYE = "bye", "Bye"
    TIME_CALLED = "time_called", "Time called"
    PAPER_GAME = "paper_game", "From paper"
    MATCH_TOTALS = "match_totals", "Match totals"


class EnteredAs(models.TextChoices):
    """Who typed a paper result: the organiser's entry counts as confirmed; a captain's waits for the other
    captain (or the organiser); an import is the organiser's."""

    ORGANISER = "organiser", "Organiser"
    CAPTAIN_A = "captain_a", "Home captain"
    CAPTAIN_B = "captain_b", "Away captain"
    IMPORT = "import", "Import"


class TeamMatch(models.Model):
    """Club v club in one round: K boards, slot i of one club's line-up meets slot i of the other's.

    In a league season (docs/leagues-model.md) it is a fixture between two teams (``team_a`` at home,
    ``team_b`` away; empty: a bye) on a match day (its round), with a status, and either boards (from hands
    or paper games) or only its totals (``result_source`` ``match_totals``).
    """

    class Status(models.TextChoices):
        SCHEDULED = "scheduled", "Scheduled"
        POSTPONED = "postponed", "Postponed"
        PLAYED = "played", "Played"
        WALKOVER = "walkover", "Walkover"
        VOID = "void", "Void"

    Source = ResultSource

    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="team_matches")
    club_a = models.ForeignKey("tournaments.Club", on_delete=models.PROTECT, related_name="+")
    club_b = models.ForeignKey("tournaments.Club", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    team_a = models.ForeignKey("tournaments.Team", null=True, blank=True, on_delete=models.PROTECT,
                               related_name="home_matches", help_text="The home team")
    team_b = models.ForeignKey("tournaments.Team", null=True, blank=True, on_delete=models.PROTECT,
                               related_name="away_matches", help_text="The away team; empty: a bye")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.SCHEDULED)
    #: The day it was really played (a postponed fixture's may differ from its round's date).
    played_on = models.DateField(null=True, blank=True)
    #: The fixture this one replays (the earlier one is void).
    replay_of = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="replays")
    #: Walkover: the side that did not come (0 = team A, 1 = team B, 2 = both).
    walkover_by = models.PositiveSmallIntegerField(null=True, blank=True)
    result_source = models.CharField(max_length=12, choices=ResultSource.choices, default=ResultSource.HANDS)
    #: Hang jacks per team: typed with ``match_totals``, else totalled from the boards.
    hang_jacks_a = models.PositiveIntegerField(default=0)
    hang_jacks_b = models.PositiveIntegerField(default=0)
    #: Who typed a paper result or the totals and in which capacity; who confirmed it.
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    entered_as = models.CharField(max_length=10, choices=EnteredAs.choices, blank=True)
    entered_at = models.DateTimeField(null=True, blank=True)
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    #: The typed totals are confirmed (the organiser's entry, or the other captain's word): standings count them.
    confirmed = models.BooleanField(default=False)
    #: The tournament's ``formats.TeamFormat`` (canonical form), copied when the match is made.
    team_format = models.JSONField(default=dict)
    lineup_a = models.JSONField(default=list, blank=True, help_text="Entry ids in board order")
    lineup_b = models.JSONField(default=list, blank=True)
    bullseyes_a = models.PositiveIntegerField(default=0)
    bullseyes_b = models.PositiveIntegerField(default=0)
    decided = models.BooleanField(default=False)
    winner = models.PositiveSmallIntegerField(null=True, blank=True, help_text="0 = club A, 1 = club B")
    explanation = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["round", "id"]

    def __str__(self) -> str:
        return f"{self.round}: {self.club_a} v {self.club_b or 'bye'}"

    def format_value(self) -> formats.TeamFormat:
        """The team format copied onto the match, as the registry's type."""
        return formats.TeamFormat.from_dict(self.team_format or formats.DEFAULT_TEAM_FORMAT.to_dict())


class Board(models.Model):
    """One table in one round: pair A on side 0 (seats 0 and 2), pair B on side 1; no pair B = a bye."""

    Source = ResultSource

    class Forfeit(models.IntegerChoices):
        """Who forfeited: side 0 (pair A), side 1 (pair B) or both (two losses)."""

        SIDE_A = 0, "Pair A"
        SIDE_B = 1, "Pair B"
        BOTH = 2, "Both pairs"

    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="boards")
    table = models.PositiveIntegerField(null=True, blank=True, help_text="Empty for a bye")
    pair_a = models.ForeignKey("tournaments.Entry", on_delete=models.PROTECT, related_name="boards_as_a")
    pair_b = models.ForeignKey(
        "tournaments.Entry", null=True, blank=True, on_delete=models.PROTECT, related_name="boards_as_b"
    )
    team_match = models.ForeignKey(TeamMatch, null=True, blank=True, on_delete=models.CASCADE, related_name="boards")
    slot = models.PositiveSmallIntegerField(null=True, blank=True, help_text="Board order within a team match")
    #: {"kind": "first_to" | "games", "n": N}, resolved from round/tournament when the board is made.
    match_format = models.JSONField(default=dict)
    #: Seat -> player id, recorded before hand 1: {"0": 12, "1": 7, "2": 13, "3": 8}.
    seating = models.JSONField(null=True, blank=True)
    first_dealer = models.PositiveSmallIntegerField(null=True, blank=True)
    help_called = models.BooleanField(default=False)
    needs_review = models.BooleanField(default=False)
    explanation = models.CharField(max_length=300, blank=True, help_text="Why the pairing put these pairs here")
    # Derived results (services.results), counted from confirmed games for standings.
    bullseyes_a = models.PositiveIntegerField(default=0)
    bullseyes_b = models.PositiveIntegerField(default=0)
    chalks_a = models.PositiveIntegerField(default=0)
    chalks_b = models.PositiveIntegerField(default=0)
    hang_jacks_a = models.PositiveIntegerField(default=0)
    hang_jacks_b = models.PositiveIntegerField(default=0)
    decided = models.BooleanField(default=False)
    winner = models.PositiveSmallIntegerField(null=True, blank=True, help_text="0 = pair A, 1 = pair B")
    is_draw = models.BooleanField(default=False)
    all_confirmed = models.BooleanField(default=False)
    disputed = models.BooleanField(default=False)
    result_source = models.CharField(max_length=12, choices=ResultSource.choices, default=ResultSource.HANDS)
    #: Set on a forfeited board: who did not play (``Forfeit``); its games to nil go to the other side.
    forfeited = models.PositiveSmallIntegerField(choices=Forfeit.choices, null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["round", "table", "id"]
        constraints = [
            models.UniqueConstraint(fields=["round", "table"], name="one_board_per_table_per_round"),
        ]

    def __str__(self) -> str:
        return f"{self.round} table {self.table or 'bye'}"

    def format_value(self) -> formats.MatchFormat:
        """The format copied onto the board when it was seated (a race board or an extra game included)."""
        return formats.MatchFormat.from_dict(self.match_format or formats.DEFAULT_MATCH_FORMAT.to_dict(), chosen=False)

    @property
    def is_bye(self) -> bool:
        return self.pair_b_id is None

    @property
    def status(self) -> str:
        """Derived in the precedence of docs/decisions.md: disputed, awaiting confirmation, in play, waiting, done."""
        if self.disputed:
            return "disputed"
        if self.forfeited is not None:
            return "forfeited"
        if self.decided and not self.all_confirmed:
            return "awaiting_confirmation"
        if self.decided:
            return "done"
        if self.is_bye:
            return "done"
        return "in_play" if self.seating is not None or self.first_dealer is not None else "waiting"


class BoardPair(models.Model):
    """Enforces one board per pair per round (a pair may sit as A on one board or B on another)."""

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey("tournaments.Round", on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey("tournaments.Entry", on_delete=models.PROTECT, related_name="+")
    side = models.PositiveSmallIntegerField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="one_board_per_pair_per_round"),
            models.UniqueConstraint(fields=["board", "side"], name="one_pair_per_side"),
        ]

    def __str__(self) -> str:
        return f"{self.entry} on side {self.side} of {self.board}"


class Game(models.Model):
    """A game to the target (a bullseye to its winner) on a board."""

    class Status(models.TextChoices):
        IN_PLAY = "in_play", "In play"
        FINISHED = "finished"
        VOIDED = "voided"

    Source = ResultSource

    board = models.ForeignKey(Board, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveIntegerField()
    first_dealer = models.PositiveSmallIntegerField()
    #: Every rule option resolved (RuleSet.to_dict()): the game can always be rescored.
    rules = models.JSONField()
    score = models.JSONField(default=list)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    next_dealer = models.PositiveSmallIntegerField()
    #: The number of the game's last active hand (0 before hand 1), kept by the hand services so that a
    #: submission learns the next number from the row it locks (no MAX query on the hot path).
    last_hand_number = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.IN_PLAY)
    #: True when the game was decided by the organiser when time was called, not by play.
    awarded = models.BooleanField(default=False)
    confirmed = models.BooleanField(default=False)
    #: ``hands`` (scored by the engine from its hands) or ``paper_game`` (its final score typed from a chalk
    #: sheet: ``score``, ``winner`` and the figures below; it has no hands, and a tablet may not write to it).
    result_source = models.CharField(max_length=12, choices=ResultSource.choices, default=ResultSource.HANDS)
    #: A paper game's hang jacks per side, and its kicks and Game counts when the sheet has them (empty: unknown).
    hang_jacks_a = models.PositiveSmallIntegerField(null=True, blank=True)
    hang_jacks_b = models.PositiveSmallIntegerField(null=True, blank=True)
    kicks_a = models.PositiveSmallIntegerField(null=True, blank=True)
    kicks_b = models.PositiveSmallIntegerField(null=True, blank=True)
    game_counts_a = models.PositiveSmallIntegerField(null=True, blank=True)
    game_counts_b = models.PositiveSmallIntegerField(null=True, blank=True)
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")
    entered_as = models.CharField(max_length=10, choices=EnteredAs.choices, blank=True)
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                     related_name="+")
    started_at = models.DateTimeField(auto_now_add=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["board", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["board", "number"], condition=~Q(status="voided"), name="one_live_game_per_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.board} game {self.number}"


class GameConfirmation(models.Model):
    """One party's word on a finished game: pair A, pair B, or the organiser. ``agrees`` False is a
    refusal (a dispute). Cleared rows stay (``cleared``) for the audit trail."""

    class Party(models.TextChoices):
        PAIR_A = "a", "Pair A"
        PAIR_B = "b", "Pair B"
        ORGANISER = "organiser"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="confirmations")
    party = models.CharField(max_length=10, choices=Party.choices)
    agrees = models.BooleanField(default=True)
    reason = models.CharField(max_length=300, blank=True)
    device = models.ForeignKey("tournaments.Device", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    cleared = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["game", "party"], condition=Q(cleared=False), name="one_confirmation_per_party_per_game"
            ),
        ]

    def __str__(self) -> str:
        word = "confirms" if self.agrees else "refuses"
        return f"{self.get_party_display()} {word} {self.game}"


class Hand(models.Model):
    """One hand as submitted (HAND_FORMAT v1), with what the engine scored for it.

    ``status``: active, voided (undo or organiser void) or superseded (replaced by a correction, whose
    row points back through ``supersedes``).
    """

    class Status(models.TextChoices):
        ACTIVE = "active"
        VOIDED = "voided"
        SUPERSEDED = "superseded"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveIntegerField()
    record = models.JSONField(help_text="The hand exactly as submitted")
    form = models.CharField(max_length=5, default="tally")
    dealer = models.PositiveSmallIntegerField()
    events = models.JSONField(default=list)
    trump = models.CharField(max_length=1, blank=True)
    score_after = models.JSONField(default=list)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    next_dealer = models.PositiveSmallIntegerField()
    version = models.PositiveIntegerField(default=1)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    supersedes = models.OneToOneField("self", null=True, blank=True, on_delete=models.PROTECT, related_name="superseded_by")
    device = models.ForeignKey("tournaments.Device", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    voided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "number", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"], condition=Q(status="active"), name="one_active_hand_per_number"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} hand {self.number} v{self.version}"
