"""When the field changes during play (issue 13): a withdrawal's report, a board forfeited (and the board as
it then stands), a club's team forfeit. The tournament's settings of issue 13 are in ``forfeits.py``.

Shapes only: who may be withdrawn or forfeited, the grace time, the re-pairing are the services'
(``tournaments.services.field``).
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.models import Board, TeamMatch

from .boards import BoardSummarySerializer
from .events import MAX_ROUNDS, EntrySerializer

# ---- withdrawals -----------------------------------------------------------------------------------------


class WithdrawSerializer(serializers.Serializer):
    from_round = serializers.IntegerField(
        min_value=1, max_value=MAX_ROUNDS, required=False,
        help_text="The first round the pair no longer plays; by default the round in progress, else the next.")


class WithdrawalActionSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    kind = serializers.CharField(help_text="re-paired, bye, bye_removed, forfeit, walkover, substitute or kept.")
    text = serializers.CharField(help_text="What was done, in a sentence for the organiser.")
    boards = serializers.ListField(child=serializers.IntegerField(), help_text="The boards it touched.")


class WithdrawalReportSerializer(serializers.Serializer):
    """``services.field.entry_withdraw``'s report, with the entry as it now is."""

    entry = EntrySerializer()
    from_round = serializers.IntegerField(allow_null=True, source="entry.withdrawn_from")
    actions = WithdrawalActionSerializer(many=True)
    summary = serializers.CharField()


# ---- forfeits -------------------------------------------------------------------------------------------


class ForfeitSerializer(serializers.Serializer):
    absent = serializers.ChoiceField(choices=["a", "b", "both"],
                                     help_text="Who has not come: pair A, pair B, or both (a loss for each).")


class ForfeitBoardSerializer(BoardSummarySerializer):
    """A board as the round's list shows it (where its result comes from, who forfeited), and when its grace
    time ends: the answer to a forfeit, or its cancellation."""

    grace_ends = serializers.SerializerMethodField(
        help_text="When a pair that has not come may be forfeited (the grace time after publishing); null "
                  "before the round is published.")

    class Meta(BoardSummarySerializer.Meta):
        fields = [*BoardSummarySerializer.Meta.fields, "grace_ends"]
        read_only_fields = fields

    @extend_schema_field({"type": ["string", "null"], "format": "date-time"})
    def get_grace_ends(self, board: Board) -> str | None:
        from tournaments.services.field import grace_ends

        if board.round.published_at is None:
            return None
        return serializers.DateTimeField().to_representation(grace_ends(board.round))


class TeamForfeitSerializer(serializers.Serializer):
    club = serializers.IntegerField(min_value=1, max_value=2**63 - 1,
                                    help_text="The club of the match that cannot field its team.")


class TeamMatchForfeitSerializer(serializers.ModelSerializer):
    """A team match after a club's forfeit: the clubs' totals and every board."""

    round = serializers.IntegerField(source="round.number", read_only=True)
    boards = serializers.SerializerMethodField()

    class Meta:
        model = TeamMatch
        fields = ["id", "round", "club_a", "club_b", "bullseyes_a", "bullseyes_b", "decided", "winner", "boards"]
        read_only_fields = fields

    @extend_schema_field(ForfeitBoardSerializer(many=True))
    def get_boards(self, match: TeamMatch) -> list[dict[str, Any]]:
        boards = (Board.objects.filter(team_match=match)
                  .select_related("round", "pair_a__pair", "pair_b__pair").order_by("slot", "id"))
        return list(ForfeitBoardSerializer(boards, many=True).data)
