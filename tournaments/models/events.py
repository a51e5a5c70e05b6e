"""A tournament (one stage), the roles people hold on it, the pairs entered, and its rounds."""

from __future__ import annotations

from django.conf import settings
from django.db import models

from tournaments import formats

from .querysets import RoundQuerySet


def default_rules() -> str:
    return "trinidad-tournament"


def default_match_format() -> dict[str, object]:
    return formats.DEFAULT_MATCH_FORMAT.to_dict()


def default_tiebreaks() -> list[str]:
    return list(formats.DEFAULT_TIE_BREAKS)


def default_bye_policy() -> dict[str, object]:
    return formats.DEFAULT_BYE_POLICY.to_dict()


def _choices(enum: type[formats.EntrantType] | type[formats.PairingSystem] | type[formats.TimeCalled]) -> list[tuple[str, str]]:
    return [(member.value, member.label) for member in enum]


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft"
        RUNNING = "running"
        FINISHED = "finished"

    #: The registry's vocabularies (tournaments/formats), kept here for ``Tournament.EntrantType.PAIRS``.
    EntrantType = formats.EntrantType
    PairingSystem = formats.PairingSystem
    TimeCalled = formats.TimeCalled

    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    venue = models.CharField(max_length=200, blank=True)
    starts_on = models.DateField(null=True, blank=True)
    ends_on = models.DateField(null=True, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.DRAFT)
    published = models.BooleanField(default=False)
    #: The rule set exactly as the organiser gave it (a preset name or an object of options).
    rules = models.JSONField(default=default_rules)
    #: Every option resolved by the engine (RuleSet.to_dict()), so a result can always be recomputed.
    rules_resolved = models.JSONField(default=dict, blank=True)
    entrant_type = models.CharField(max_length=12, choices=_choices(formats.EntrantType),
                                    default=formats.DEFAULT_ENTRANT_TYPE.value)
    pairing_system = models.CharField(max_length=12, choices=_choices(formats.PairingSystem),
                                      default=formats.DEFAULT_PAIRING_SYSTEM.value)
    #: A board's match format: {"kind": "first_to", "n": 2} or {"kind": "games", "n": 3}.
    match_format = models.JSONField(default=default_match_format)
    #: Club-team events: a ``formats.TeamFormat`` in its canonical form (``team_format_value()`` reads it).
    team_format = models.JSONField(null=True, blank=True)
    rounds_planned = models.PositiveIntegerField(default=5)
    tiebreaks = models.JSONField(default=default_tiebreaks)
    bye_policy = models.JSONField(default=default_bye_policy)
    #: How strongly Swiss pairing avoids two pairs of one club meeting: 0 (ignore) to 3 (strong).
    club_avoidance = models.PositiveSmallIntegerField(default=formats.DEFAULT_CLUB_AVOIDANCE.level)
    time_called = models.CharField(max_length=6, choices=_choices(formats.TimeCalled),
                                   default=formats.DEFAULT_TIME_CALLED.value)
    third_place_match = models.BooleanField(default=False)
    #: Minutes a round may take (the round clock); empty: no limit.
    round_minutes = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The venue's time zone, for the clock and the dates shown.
    time_zone = models.CharField(max_length=64, default="America/Port_of_Spain")
    #: Pairs must be checked in before a round to be drawn (otherwise present unless marked absent).
    requires_check_in = models.BooleanField(default=False)
    #: The entry fee per pair in ``currency`` (recorded as paid at check-in); empty: free.
    entry_fee = models.DecimalField(max_digits=9, decimal_places=2, null=True, blank=True)
    currency = models.CharField(max_length=3, default="TTD")
    #: A knockout seeded from another tournament's final standings.
    qualifies_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]
        permissions = [("organise_events", "May create events and invite organisers")]

    def __str__(self) -> str:
        return self.name

    # ---- the stored settings as the registry's types (docs/README.md: "one source of truth") ----
    def board_format(self) -> formats.MatchFormat:
        """The board's match format (stored shapes are canonical since migration 0003)."""
        return formats.MatchFormat.from_dict(self.match_format or formats.DEFAULT_MATCH_FORMAT.to_dict())

    def team_format_value(self) -> formats.TeamFormat | None:
        """The team match format of a club-team event (None in a pairs event)."""
        if self.entrant_type != formats.EntrantType.CLUB_TEAMS:
            return None
        if not self.team_format:
            return formats.DEFAULT_TEAM_FORMAT
        return formats.TeamFormat.from_dict(self.team_format)

    def tie_break_order(self) -> tuple[str, ...]:
        """The tie-break names, best first."""
        return formats.TIE_BREAKS.parse(self.tiebreaks or list(formats.DEFAULT_TIE_BREAKS))

    def bye_policy_value(self) -> formats.AwardPolicy:
        """What a bye counts as and scores."""
        return formats.AwardPolicy.from_dict(self.bye_policy)

    def race_target(self) -> int | None:
        """The event's race target (games that win a match), if it has one."""
        return formats.race_target(self.board_format(), self.team_format_value())

    @property
    def is_knockout(self) -> bool:
        return self.pairing_system == formats.PairingSystem.KNOCKOUT

    @property
    def is_club_teams(self) -> bool:
        return self.entrant_type == formats.EntrantType.CLUB_TEAMS


class TournamentRole(models.Model):
    """A person's role on one tournament (docs/decisions.md, "Accounts and roles"): the organiser may do
    everything; a co-organiser everything but deleting the event and giving roles; a scorekeeper checks pairs
    in, pairs tablets and reads the console."""

    class Role(models.TextChoices):
        ORGANISER = "organiser", "Organiser"
        CO_ORGANISER = "co_organiser", "Co-organiser"
        SCOREKEEPER = "scorekeeper", "Scorekeeper"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles")
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.ORGANISER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_user")]

    def __str__(self) -> str:
        return f"{self.user} is {self.get_role_display().lower()} of {self.tournament}"


class Entry(models.Model):
    """A pair entered in a tournament, with its seed there."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    pair = models.ForeignKey("tournaments.Pair", on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    withdrawn = models.BooleanField(default=False)
    #: The organiser's labels for prize categories and lists ("ladies", "juniors", ...).
    tags = models.JSONField(default=list, blank=True)
    fee_paid = models.BooleanField(default=False)

    class Meta:
        ordering = ["seed", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "pair"], name="pair_entered_once")]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return str(self.pair)


class Round(models.Model):
    class Status(models.TextChoices):
        PENDING = "pending"
        DRAFTED = "drafted"
        PUBLISHED = "published"
        IN_PLAY = "in_play", "In play"
        CLOSED = "closed"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PENDING)
    #: The standings snapshot this round was paired from (confirmed results only).
    paired_from = models.ForeignKey(
        "tournaments.StandingsSnapshot", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    match_format = models.JSONField(null=True, blank=True, help_text="Overrides the tournament's match format")
    #: Set when a correction changed a result this round was paired from: the organiser looks again.
    needs_review = models.BooleanField(default=False)
    #: guaranteed, possible, not_guaranteed or impossible: can later rounds avoid rematches?
    feasibility = models.CharField(max_length=20, blank=True)
    feasibility_note = models.TextField(blank=True)
    changes = models.JSONField(default=list, blank=True, help_text="Organiser adjustments while drafted")
    published_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"
