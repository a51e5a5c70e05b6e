"""Leagues (issue 15; docs/leagues-model.md): an organisation's competition, its seasons' divisions and teams,
the recorded changes to a fixture's line-up, and point deductions.

A **season** is one ``Tournament`` whose ``league`` is set (``Tournament.season`` is its label). Its
**match days** are its ``Round`` rows (``Round.date``, ``Round.venue``); its **fixtures** are ``TeamMatch`` rows
between two ``Team`` rows (``team_b`` empty: a bye). A team's **roster** is the season's ``Entry`` rows whose
``team`` is that team (more pairs than a match needs); a fixture's **line-up** is ``TeamMatch.lineup_a`` /
``lineup_b`` (entry ids in board order), and a pair swapped into it is a ``LineupSubstitution``.
Written only by ``tournaments.services.leagues``.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class League(models.Model):
    """An organisation's competition, run as a season after season (``Tournament.league``)."""

    owner = models.ForeignKey("tournaments.Organisation", on_delete=models.PROTECT, related_name="leagues",
                              help_text="The organisation whose members run the league")
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=80, unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["name", "id"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="league_name_unique_per_owner")]

    def __str__(self) -> str:
        return self.name


class Division(models.Model):
    """A group of teams inside one season, with its own table (and its share of the overall table)."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="divisions")
    name = models.CharField(max_length=120)
    #: The division's place in the season's list (1 = the top division).
    order = models.PositiveSmallIntegerField(default=1)
    #: K, the boards of this division's matches; empty: the season's team format.
    boards = models.PositiveSmallIntegerField(null=True, blank=True)
    #: The race target (games that win a match) of this division's matches; empty: the season's.
    race_target = models.PositiveSmallIntegerField(null=True, blank=True)
    #: A fixture against a team of another division counts in the overall table only (True), or in this
    #: division's table too (False).
    cross_overall_only = models.BooleanField(default=True)

    class Meta:
        ordering = ["tournament", "order", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="division_name_unique_per_season")]

    def __str__(self) -> str:
        return self.name


class Team(models.Model):
    """A club's side in one season (a club may field several). Its roster is ``Entry.team``; its name is the
    name it played under that season (a later rename of the club does not change it)."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="teams")
    club = models.ForeignKey("tournaments.Club", on_delete=models.PROTECT, related_name="teams")
    name = models.CharField(max_length=120)
    division = models.ForeignKey(Division, null=True, blank=True, on_delete=models.PROTECT, related_name="teams")
    #: Order in the season's list and the round-robin schedule (empty: after the seeded ones, by id).
    seed = models.PositiveIntegerField(null=True, blank=True)
    #: Accounts that may submit and confirm this team's results (docs/decisions.md, "Where a result comes from").
    captains = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True, related_name="captain_of")
    withdrawn = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "division__order", "seed", "id"]
        constraints = [models.UniqueConstraint(fields=["tournament", "name"], name="team_name_unique_per_season")]

    def __str__(self) -> str:
        return self.name


class LineupSubstitution(models.Model):
    """A roster pair put into a fixture's line-up at board ``slot`` in place of another (recorded, never
    edited). ``out_entry`` empty: the slot was empty (a late line-up)."""

    team_match = models.ForeignKey("tournaments.TeamMatch", on_delete=models.CASCADE, related_name="substitutions")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="+")
    slot = models.PositiveSmallIntegerField(help_text="Board order within the match, from 0")
    out_entry = models.ForeignKey("tournaments.Entry", null=True, blank=True, on_delete=models.PROTECT, related_name="+")
    in_entry = models.ForeignKey("tournaments.Entry", on_delete=models.PROTECT, related_name="+")
    reason = models.CharField(max_length=200, blank=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["team_match", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.in_entry} for {self.out_entry or 'nobody'} at board {self.slot + 1} of {self.team_match}"


class PointDeduction(models.Model):
    """Match points and/or bullseyes taken from a team, with the reason (a fixture's, or the season's when
    ``team_match`` is empty). Cancelled by ``voided``, never deleted."""

    tournament = models.ForeignKey("tournaments.Tournament", on_delete=models.CASCADE, related_name="point_deductions")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="deductions")
    team_match = models.ForeignKey("tournaments.TeamMatch", null=True, blank=True, on_delete=models.CASCADE,
                                   related_name="deductions")
    match_points = models.PositiveSmallIntegerField(default=0)
    bullseyes = models.PositiveSmallIntegerField(default=0)
    reason = models.CharField(max_length=300)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    voided = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "created_at", "id"]

    def __str__(self) -> str:
        return f"{self.team}: -{self.match_points} pts, -{self.bullseyes} bullseyes ({self.reason})"
