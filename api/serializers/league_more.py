"""Request and answer shapes of the league API's setup and fixture handling (issue 15): leagues, seasons,
divisions, teams, rosters, captains, match days, fixtures moved or settled, point deductions, line-ups and
substitutions (``api/views/league_setup.py``, ``api/views/league_fixtures.py``)."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.models import Team, TeamMatch


# ---- requests -------------------------------------------------------------------------------------------
class LeagueCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, help_text="The league's name (unique within its organisation)")
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True,
                                 help_text="Its address (default: made from the name)")


class SeasonCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, help_text="The season's name, e.g. North League 2026")
    slug = serializers.SlugField(max_length=80, required=False, allow_blank=True,
                                 help_text="Its address (default: made from the name)")
    season = serializers.CharField(max_length=60, required=False, allow_blank=True, default="",
                                   help_text="The season's label, e.g. 2026")
    boards = serializers.IntegerField(min_value=1, max_value=30, required=False, default=3,
                                      help_text="Boards (pairs per team) in a fixture")
    race_to = serializers.IntegerField(min_value=1, max_value=99, required=False, default=17,
                                       help_text="The race target: games (bullseyes) that win a fixture")


class DivisionCreateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120)
    order = serializers.IntegerField(required=False, allow_null=True, help_text="Default: after the last")
    boards = serializers.IntegerField(required=False, allow_null=True, help_text="K inside the division (null: the season's)")
    race_target = serializers.IntegerField(required=False, allow_null=True,
                                           help_text="The race target inside the division (null: the season's)")
    cross_overall_only = serializers.BooleanField(required=False, default=True,
                                                  help_text="A fixture against another division counts overall only")


class DivisionUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    order = serializers.IntegerField(required=False)
    boards = serializers.IntegerField(required=False, allow_null=True)
    race_target = serializers.IntegerField(required=False, allow_null=True)
    cross_overall_only = serializers.BooleanField(required=False)


class TeamCreateSerializer(serializers.Serializer):
    club = serializers.CharField(max_length=200, help_text="The club's name (one of yours, else made in the league's "
                                 "organisation)")
    name = serializers.CharField(max_length=120, required=False, allow_blank=True, default="",
                                 help_text="The team's name this season (default: the club's)")
    division = serializers.IntegerField(required=False, allow_null=True, help_text="A division of the season")


class TeamUpdateSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=120, required=False)
    division = serializers.IntegerField(required=False, allow_null=True)
    seed = serializers.IntegerField(required=False, allow_null=True, min_value=1)
    withdrawn = serializers.BooleanField(required=False)


class RosterAddSerializer(serializers.Serializer):
    player_1 = serializers.CharField(max_length=120, help_text="A player of the team's club (found by name, or made)")
    player_2 = serializers.CharField(max_length=120)


class RosterMoveSerializer(serializers.Serializer):
    entry = serializers.IntegerField(help_text="An entered pair of the season")
    team = serializers.IntegerField(allow_null=True, help_text="The team whose roster it joins (null: none)")


class CaptainsSerializer(serializers.Serializer):
    captains = serializers.ListField(child=serializers.CharField(max_length=150), max_length=20,
                                     help_text="Account names (replacing the list; empty: none)")


class MatchDayCreateSerializer(serializers.Serializer):
    date = serializers.DateField(required=False, allow_null=True)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    number = serializers.IntegerField(required=False, allow_null=True, min_value=1,
                                      help_text="Default: after the last match day")


class MatchDayUpdateSerializer(serializers.Serializer):
    date = serializers.DateField(required=False, allow_null=True)
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)


class FixtureMoveSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The match day it moves to (a round id of the season)")


class ReasonSerializer(serializers.Serializer):
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class FixtureReplaySerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The match day of the replay")
    reason = serializers.CharField(max_length=300)


class WalkoverSerializer(serializers.Serializer):
    absent = serializers.ChoiceField(choices=["home", "away", "both"], help_text="Which team did not come")
    reason = serializers.CharField(max_length=300, required=False, allow_blank=True, default="")


class DeductionCreateSerializer(serializers.Serializer):
    team = serializers.IntegerField(help_text="A team of the season")
    reason = serializers.CharField(max_length=300, help_text="Shown under the table")
    match_points = serializers.IntegerField(required=False, default=0)
    bullseyes = serializers.IntegerField(required=False, default=0)
    team_match = serializers.IntegerField(required=False, allow_null=True, help_text="The fixture it is for, if one")


class LineupSerializer(serializers.Serializer):
    team = serializers.IntegerField(help_text="One of the fixture's two teams")
    entries = serializers.ListField(child=serializers.IntegerField(), max_length=30,
                                    help_text="K roster pairs (entry ids) in board order")


class SubstitutionCreateSerializer(serializers.Serializer):
    team = serializers.IntegerField(help_text="One of the fixture's two teams")
    slot = serializers.IntegerField(help_text="The board, from 0")
    entry = serializers.IntegerField(help_text="The roster pair (entry id) that comes in")
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


# ---- answers --------------------------------------------------------------------------------------------
class SeasonSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    season = serializers.CharField(help_text="The season's label")
    league = serializers.IntegerField(source="league_id")


class LeagueSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    slug = serializers.CharField()
    owner = serializers.IntegerField(source="owner_id", help_text="The organisation that runs it")
    seasons = SeasonSummarySerializer(many=True, source="seasons.all")


class DivisionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    order = serializers.IntegerField()
    boards = serializers.IntegerField(allow_null=True)
    race_target = serializers.IntegerField(allow_null=True)
    cross_overall_only = serializers.BooleanField()


class TeamSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField(source="club.name")
    division = serializers.IntegerField(source="division_id", allow_null=True)
    seed = serializers.IntegerField(allow_null=True)
    withdrawn = serializers.BooleanField()
    captains = serializers.SerializerMethodField()

    def get_captains(self, team: Team) -> list[str]:
        return sorted(u.get_username() for u in team.captains.all())


class RosterEntrySerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The entry (the pair entered in the season)")
    pair = serializers.CharField(source="pair.__str__")
    team = serializers.IntegerField(source="team_id", allow_null=True)


class MatchDaySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField()
    date = serializers.DateField(allow_null=True)
    venue = serializers.CharField(allow_blank=True)


class DeductionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    team_match = serializers.IntegerField(source="team_match_id", allow_null=True)
    match_points = serializers.IntegerField()
    bullseyes = serializers.IntegerField()
    reason = serializers.CharField()
    voided = serializers.BooleanField()


class LineupAnswerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    lineup_a = serializers.ListField(child=serializers.IntegerField(), help_text="The home line-up (entry ids)")
    lineup_b = serializers.ListField(child=serializers.IntegerField(), help_text="The away line-up (entry ids)")
    seated = serializers.SerializerMethodField(help_text="Both line-ups in: the boards are seated")

    def get_seated(self, match: TeamMatch) -> bool:
        return bool(match.boards.exists())


class SubstitutionSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    team = serializers.IntegerField(source="team_id")
    slot = serializers.IntegerField()
    out_entry = serializers.IntegerField(source="out_entry_id", allow_null=True)
    in_entry = serializers.IntegerField(source="in_entry_id")
    reason = serializers.CharField(allow_blank=True)
