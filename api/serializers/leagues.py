"""Request and answer shapes of the league API (issue 15): a fixture entered, a game from a chalk sheet, a
fixture's match totals, a season's import, and the answers (a fixture, a game, the tables, the import)."""

from __future__ import annotations

from rest_framework import serializers

from tournaments.models import TeamMatch


class FixtureCreateSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The match day (a round id of the season)")
    home = serializers.IntegerField(help_text="The home team's id")
    away = serializers.IntegerField(allow_null=True, required=False, help_text="The away team's id; null: a bye")


class PaperGameSerializer(serializers.Serializer):
    board = serializers.IntegerField(help_text="A board of the fixture")
    score = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2,
                                  help_text="The final score (side A, side B of the board), as chalked")
    hang_jacks = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    kicks = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2, required=False,
                                  allow_null=True, help_text="Kicks that scored, when the sheet has them")
    game_counts = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2, required=False,
                                        allow_null=True, help_text="Hands whose Game point each side took")


class MatchTotalsSerializer(serializers.Serializer):
    games = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2,
                                  help_text="Games (bullseyes) per team: home, away")
    hang_jacks = serializers.ListField(child=serializers.IntegerField(), min_length=2, max_length=2)
    played_on = serializers.DateField(required=False, allow_null=True)
    time_called = serializers.BooleanField(required=False, default=False)


class FixtureSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField(source="round.number")
    home = serializers.CharField(source="team_a.name")
    away = serializers.CharField(source="team_b.name", allow_null=True, default=None)
    status = serializers.CharField()
    result_source = serializers.CharField()
    games = serializers.SerializerMethodField()
    hang_jacks = serializers.SerializerMethodField()
    entered_as = serializers.CharField()
    confirmed = serializers.BooleanField()

    def get_games(self, match: TeamMatch) -> list[int]:
        return [match.bullseyes_a, match.bullseyes_b]

    def get_hang_jacks(self, match: TeamMatch) -> list[int]:
        return [match.hang_jacks_a, match.hang_jacks_b]


class PaperGameAnswerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    board = serializers.IntegerField(source="board_id")
    number = serializers.IntegerField()
    score = serializers.ListField(child=serializers.IntegerField())
    winner = serializers.IntegerField(allow_null=True)
    result_source = serializers.CharField()
    entered_as = serializers.CharField()
    confirmed = serializers.BooleanField()


class SeasonImportRequestSerializer(serializers.Serializer):
    teams_file = serializers.FileField(required=False, help_text="CSV or XLSX: team,club,division")
    results_file = serializers.FileField(required=False, help_text="CSV or XLSX: round,date,division,home,away,"
                                         "home_games,away_games,home_hang_jacks,away_hang_jacks[,status,played_on]")
    commit = serializers.BooleanField(required=False, default=False,
                                      help_text="false: preview only; true: store when every row is good")


class ImportRowSerializer(serializers.Serializer):
    kind = serializers.CharField()
    line = serializers.IntegerField()
    values = serializers.DictField(child=serializers.CharField(allow_blank=True))
    ok = serializers.BooleanField()
    errors = serializers.DictField(child=serializers.CharField(), help_text="column -> why")
    outcome = serializers.CharField(allow_blank=True)


class SeasonImportSerializer(serializers.Serializer):
    ok = serializers.BooleanField()
    stored = serializers.BooleanField()
    counts = serializers.DictField(child=serializers.IntegerField())
    teams = ImportRowSerializer(many=True)
    results = ImportRowSerializer(many=True)


class SeasonTablesSerializer(serializers.Serializer):
    season = serializers.DictField()
    overall = serializers.DictField(help_text="tie_breaks, bye_policy, race_target, rows (played never counts "
                                    "a bye; byes apart; sources: where each team's counted results come from)")
    divisions = serializers.ListField(child=serializers.DictField())
