"""A tournament (one stage), the roles people hold on it, the pairs entered, and its rounds."""

from __future__ import annotations

from django.conf import settings
from django.db import models


def default_rules() -> str:
    return "trinidad-tournament"


def default_match_format() -> dict[str, object]:
    return {"kind": "first_to", "n": 2}


def default_tiebreaks() -> list[str]:
    return ["match_points", "wins", "bullseyes_won", "chalk_difference", "hang_jacks_for", "buchholz"]


def default_bye_policy() -> dict[str, object]:
    return {"result": "win", "score": "average"}


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft"
        RUNNING = "running"
        FINISHED = "finished"

    class EntrantType(models.TextChoices):
        PAIRS = "pairs"
        CLUB_TEAMS = "club_teams"

    class PairingSystem(models.TextChoices):
        SWISS = "swiss"
        ROUND_ROBIN = "round_robin"
        KNOCKOUT = "knockout"

    class TimeCalled(models.TextChoices):
        VOID = "void", "Void unfinished games"
        AWARD = "award", "Award unfinished games to the side ahead"

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
    entrant_type = models.CharField(max_length=12, choices=EntrantType.choices, default=EntrantType.PAIRS)
    pairing_system = models.CharField(max_length=12, choices=PairingSystem.choices, default=PairingSystem.SWISS)
    #: A board's match format: {"kind": "first_to", "n": 2} or {"kind": "games", "n": 3}.
    match_format = models.JSONField(default=default_match_format)
    #: Club-team events: {"boards": K, "kind": "games" | "first_to_total", "n": N}.
    team_format = models.JSONField(null=True, blank=True)
    rounds_planned = models.PositiveIntegerField(default=5)
    tiebreaks = models.JSONField(default=default_tiebreaks)
    bye_policy = models.JSONField(default=default_bye_policy)
    #: How strongly Swiss pairing avoids two pairs of one club meeting: 0 (ignore) to 3 (strong).
    club_avoidance = models.PositiveSmallIntegerField(default=2)
    time_called = models.CharField(max_length=6, choices=TimeCalled.choices, default=TimeCalled.VOID)
    third_place_match = models.BooleanField(default=False)
    #: A knockout seeded from another tournament's final standings.
    qualifies_from = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-starts_on", "name"]

    def __str__(self) -> str:
        return self.name


class TournamentRole(models.Model):
    """An organiser of one tournament. Staff users run the admin; organisers act through roles."""

    class Role(models.TextChoices):
        ORGANISER = "organiser"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles")
    role = models.CharField(max_length=12, choices=Role.choices, default=Role.ORGANISER)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_user")]

    def __str__(self) -> str:
        return f"{self.user} organises {self.tournament}"


class Entry(models.Model):
    """A pair entered in a tournament, with its seed there."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    pair = models.ForeignKey("tournaments.Pair", on_delete=models.PROTECT, related_name="entries")
    seed = models.PositiveIntegerField(null=True, blank=True)
    withdrawn = models.BooleanField(default=False)

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

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique")]

    def __str__(self) -> str:
        return f"{self.tournament} round {self.number}"
