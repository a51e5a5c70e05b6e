"""Issue 13, what the reads say when the field changes (bugs found by the console work): a check-in count for
a round before a late entry joins, an import once play has begun enters late, a forfeited board's public
result, and the look-ahead's proposal names pairs, not entry ids."""

from __future__ import annotations

import pytest

from tests.tournaments.field_helpers import board_of, fresh, grace_over, play_and_close
from tests.tournaments.test_services_field import published, swiss
from tournaments.models import Entry
from tournaments.selectors.availability import LATE, round_field
from tournaments.selectors.boards import round_boards
from tournaments.services import round_start
from tournaments.services.field import board_forfeit
from tournaments.services.import_preview import pairs_import_commit

pytestmark = pytest.mark.django_db


def _late_by_import(tournament, organiser) -> Entry:
    row = {"player_1": "Late Comer", "player_2": "Also Late", "club": "", "seed": "", "tags": "", "byes": ""}
    pairs_import_commit(rows=[row], tournament=tournament, user=organiser)
    return Entry.objects.get(tournament=tournament, pair__player_1__name="Late Comer")


def test_an_import_once_play_has_begun_enters_the_pair_late_and_round_1_counts_it_as_joining_later():
    tournament, e, organiser = swiss(4)
    first = published(round_start(tournament=tournament, user=organiser), organiser)
    play_and_close(first, organiser, lambda b: 0)
    late = _late_by_import(tournament, organiser)
    assert late.joins_from == 2
    counts = round_field(tournament, 1).counts()  # a KeyError before the fix
    assert counts[LATE] == 1 and sum(counts.values()) == 5


def test_a_forfeited_boards_public_result_says_forfeit_with_the_match_score():
    tournament, e, organiser = swiss(4)
    round_ = published(round_start(tournament=tournament, user=organiser), organiser)
    grace_over(round_)
    board = board_of(round_, e[0])
    board_forfeit(board=board, absent="a" if board.pair_a_id == e[0].pk else "b", user=organiser)
    summary = next(s for s in round_boards(fresh(round_)) if s.board.pk == board.pk)
    assert summary.result.endswith("won 2-0 by forfeit") and summary.status_label == "forfeit"


def test_the_proposal_names_the_bye_pairs():
    """The pure look-ahead speaks of entry ids; what the round stores for people names the pairs."""
    from tournaments.pairing import DraftBye, DraftRound, LookAhead, LookAheadStatus
    from tournaments.services.pairing import _proposal

    tournament, e, organiser = swiss(3)
    best = DraftRound(2, (), DraftBye(e[2].pk, "lowest"))
    proposal = DraftRound(2, (), DraftBye(e[1].pk, "chosen"))
    look = LookAhead(LookAheadStatus.PROPOSED, best, None,
                     f"... keeps one, and gives the bye to {e[1].pk} instead of {e[2].pk}.", proposal=proposal)
    stored = _proposal(look, {x.pk: x for x in Entry.objects.filter(tournament=tournament).select_related("pair")})
    assert stored is not None
    assert f"gives the bye to {e[1].pair} instead of {e[2].pair}" in stored["message"]
    assert stored["bye"][0] == e[1].pk
