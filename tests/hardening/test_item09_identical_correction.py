"""Issue 11 item 9: a "correction" that stores the record already stored is a no-op.

Before: PUT /api/v1/hands/{id}/ with the stored record on a closed round bumped the version, cleared the
game's confirmations and flagged the next round for review.
"""

from __future__ import annotations

from tests.tournaments.factories import make_board, make_organiser, win_game
from tournaments.models import AuditEvent, Game, GameConfirmation, Hand, Round
from tournaments.services import game_confirm, hand_correct


def _confirmed_game_on_a_closed_round():
    board = make_board()
    organiser = make_organiser(board.round.tournament)
    hands = win_game(board, to=0)
    game = Game.objects.get(board=board, number=1)
    game_confirm(game=game, party="organiser", agrees=True, user=organiser)
    Round.objects.filter(pk=board.round_id).update(status=Round.Status.CLOSED)
    later = Round.objects.create(tournament=board.round.tournament, number=2, status=Round.Status.DRAFTED,
                                 paired_from=None)
    return board, organiser, hands, game, later


def test_item09_an_identical_correction_changes_nothing(db):
    board, organiser, hands, game, later = _confirmed_game_on_a_closed_round()
    first = hands[0]
    confirmations = GameConfirmation.objects.filter(game=game, cleared=False).count()
    audits = AuditEvent.objects.count()
    same = hand_correct(hand=first, record=dict(first.record), expected_version=1, user=organiser)
    assert same.pk == first.pk and same.version == 1
    assert Hand.objects.filter(game=game, number=first.number).count() == 1
    assert GameConfirmation.objects.filter(game=game, cleared=False).count() == confirmations
    assert Game.objects.get(pk=game.pk).confirmed
    assert not Round.objects.get(pk=later.pk).needs_review
    assert AuditEvent.objects.count() == audits
