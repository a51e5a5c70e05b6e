"""A tournament (one stage), the roles people hold on it, the pairs entered, and its rounds."""

from __future__ import annotations

from typing import Any

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


def default_forfeit_policy() -> dict[str, object]:
    return formats.DEFAULT_FORFEIT_POLICY.to_dict()


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
    #: What a forfeit credits the side present (``formats.forfeit_policy``; docs/decisions.md).
    forfeit_policy = models.JSONField(default=default_forfeit_policy)
    #: Minutes after a round is published before a pair that has not come may be forfeited (a no-show).
    grace_minutes = models.PositiveSmallIntegerField(default=15)
    #: Whether a late entry may take the bye of its first round (off: the bye goes to another pair).
    late_entry_bye = models.BooleanField(default=False)
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
    #: The end of the event (``tournament_finish``): when, and the results frozen then (final standings with
    #: the tie-break order, prizes and their winners, the payout).
    finished_at = models.DateTimeField(null=True, blank=True)
    final_results = models.JSONField(null=True, blank=True)
    #: One prize per pair (a pair that wins two keeps the better, the next pair takes the other).
    one_prize_per_pair = models.BooleanField(default=True)
    #: A tie for a prize (still level after every tie-break): ``tie_breaks`` gives it to the standings'
    #: order (the seed order inside a shared rank), ``split`` shares the prizes of the tied places equally.
    prize_ties = models.CharField(max_length=10, choices=[("tie_breaks", "Settled by the tie-breaks"),
                                                          ("split", "Split equally")], default="tie_breaks")
    #: A league season (docs/leagues-model.md): the league it belongs to and its label ("2026", "Spring 2027").
    league = models.ForeignKey("tournaments.League", null=True, blank=True, on_delete=models.PROTECT,
                               related_name="seasons")
    season = models.CharField(max_length=60, blank=True)
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

    def forfeit_policy_value(self) -> formats.AwardPolicy:
        """What a forfeit credits the side present."""
        return formats.forfeit_policy(self.forfeit_policy)

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


def entry_of_club(club: Any) -> models.Q:
    """Entries of ``club`` (a Club or its id): the club recorded on the entry, else (not recorded yet) the
    pair's club. The one test of "a club's entry" for its pages, history and published files."""
    club_id = getattr(club, "pk", club)
    return models.Q(club_id=club_id) | models.Q(club__isnull=True, pair__club_id=club_id)


class EntryQuerySet(models.QuerySet["Entry"]):
    def bulk_create(self, objs: Any, *args: Any, **kwargs: Any) -> list[Entry]:
        """As Django's, with each entry's club and players taken from its pair (as ``Entry.save`` does)."""
        objs = list(objs)
        for obj in objs:
            obj.record_pair()
        return super().bulk_create(objs, *args, **kwargs)


class Entry(models.Model):
    """A pair entered in a tournament, with its seed there.

    The entry records the pair's club and players as they were when it was entered (``record_pair``, on
    every save that has none yet): what was played stays credited to who played it (issue 11 item 3). The
    services keep them in step with the pair until the entry has a board, and refuse to change them after
    (``entry_has_boards``, ``pair_has_boards``); a substitute is an ``EntrySubstitution``.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    pair = models.ForeignKey("tournaments.Pair", on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    withdrawn = models.BooleanField(default=False)
    #: The first round the pair no longer plays (set by ``entry_withdraw``; empty with ``withdrawn``: from
    #: the start, or withdrawn before this field existed).
    withdrawn_from = models.PositiveSmallIntegerField(null=True, blank=True)
    #: A late entry: the first round the pair plays (empty: from round 1).
    joins_from = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The organiser's labels for prize categories and lists ("ladies", "juniors", ...).
    tags = models.JSONField(default=list, blank=True)
    fee_paid = models.BooleanField(default=False)
    #: The pair's club and players at entry (empty only before ``record_pair``).
    club = models.ForeignKey("tournaments.Club", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    player_1 = models.ForeignKey("tournaments.Player", null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="+")
    player_2 = models.ForeignKey("tournaments.Player", null=True, blank=True, on_delete=models.PROTECT,
                                 related_name="+")
    #: The club's name when the pair was entered (what this event's pages show: a later rename of the club
    #: does not change an event already played; docs/leagues-model.md, "Club and player identity").
    club_name = models.CharField(max_length=120, blank=True)
    #: The team whose roster this pair is on (club-team events and league seasons; docs/leagues-model.md).
    team = models.ForeignKey("tournaments.Team", null=True, blank=True, on_delete=models.PROTECT, related_name="roster")
    #: How many substitutions are recorded (``EntrySubstitution``): readers look them up only when any are.
    substitutions_count = models.PositiveSmallIntegerField(default=0)

    objects = EntryQuerySet.as_manager()

    class Meta:
        ordering = ["seed", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "pair"], name="pair_entered_once")]
        verbose_name_plural = "entries"

    def __str__(self) -> str:
        return str(self.pair)

    def save(self, *args: Any, **kwargs: Any) -> None:
        if self.player_1_id is None:
            self.record_pair()
            if kwargs.get("update_fields") is not None:
                kwargs["update_fields"] = {*kwargs["update_fields"], "club", "club_name", "player_1", "player_2"}
        super().save(*args, **kwargs)

    def record_pair(self, *, again: bool = False) -> None:
        """Take the pair's club (and its name now) and players (when none are recorded yet, or ``again``)."""
        if self.pair_id is not None and (again or self.player_1_id is None):
            pair = self.pair
            self.club_id, self.player_1_id, self.player_2_id = pair.club_id, pair.player_1_id, pair.player_2_id
            self.club_name = pair.club.name if pair.club_id is not None else ""

    @property
    def club_label(self) -> str:
        """The club's name this event shows: the name recorded at entry (a later rename does not reach an
        event already played), else the pair's club's name now."""
        if self.club_name:
            return self.club_name
        return self.pair.club.name if self.pair.club_id is not None else ""

    def players_in_round(self, number: int | None = None) -> list[tuple[Any, Any]]:
        """The two players who play for this entry in round ``number`` (the recorded players with the
        substitutions made from that round or before; ``None``: the latest), each as ``(player, replaced)``:
        ``replaced`` is the player a substitute plays for, else None."""
        if self.player_1_id is None:
            self.record_pair()
        seats: list[tuple[Any, Any]] = [(self.player_1, None), (self.player_2, None)]
        if not self.substitutions_count:
            return seats
        for sub in self.substitutions.select_related("in_player", "out_player").order_by("round_from", "id"):
            if number is not None and sub.round_from > number:
                break
            seats = [(sub.in_player, _replaced(replaced or sub.out_player, sub.in_player))
                     if player.pk == sub.out_player_id else (player, replaced) for player, replaced in seats]
        return seats


def _replaced(original: Any, player: Any) -> Any:
    """Whom ``player`` plays for in that seat: nobody when they are that seat's own player back again."""
    return None if original.pk == player.pk else original


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
    #: A Swiss look-ahead's proposal when the best draft leaves no rematch-free finish: {"boards": [[a, b],
    #: ...], "bye": id | null, "message": ..., "extra": {...}} (``round_draft_adopt_proposal`` seats it).
    proposal = models.JSONField(null=True, blank=True)
    published_at = models.DateTimeField(null=True, blank=True)
    #: The round clock: when time is called (published + the event's round minutes, or now when the organiser
    #: calls time by hand); time left is computed on read.
    ends_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    #: What closing changed (games voided, awarded and confirmed, boards decided by the clock), so that
    #: ``round_reopen`` reverses exactly that.
    close_record = models.JSONField(null=True, blank=True)
    reopened_at = models.DateTimeField(null=True, blank=True)
    #: A league's match day: its date and venue (docs/leagues-model.md).
    date = models.DateField(null=True, blank=True)
    venue = models.CharField(max_length=200, blank=True)

    objects = RoundQuerySet.as_manager()

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"
