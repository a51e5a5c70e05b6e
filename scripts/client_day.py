"""A short tablet day, played with the Python client that openapi-python-client generates (make client-check).

    python scripts/client_day.py http://127.0.0.1:PORT      (HANGJACK_ORGANISER_PASSWORD set)

Run by scripts/client_check.sh against a live server loaded with the demo (``manage.py demo`` prints the
organiser's password). Every request goes through ``hang_jack_api_client``, the generated package, and
its typed models; this program imports nothing of the project and speaks no HTTP itself.

The organiser signs in, finds a board still waiting in the demo's live round and prints a pairing code for
its table. The tablet pairs with the code, reads its board, seats it, previews a hand, submits a tally hand
with a jack outcome (a hang jack) and a card-by-card hand, undoes the card-by-card one, plays the game
out in tally hands, and both pairs confirm it. The public standings are read without credentials.
Exit 1 at the first answer that is not the documented one.
"""

from __future__ import annotations

import os
import sys
import uuid
from typing import Any, TypeVar

from hang_jack_api_client import AuthenticatedClient, Client
from hang_jack_api_client.api.auth import auth_login
from hang_jack_api_client.api.devices import pairing_codes_create
from hang_jack_api_client.api.public import public_standings
from hang_jack_api_client.api.rounds import rounds_boards_list, rounds_list
from hang_jack_api_client.api.tablet import (
    tablet_board,
    tablet_board_seat,
    tablet_game_confirm,
    tablet_hand_preview,
    tablet_hand_submit,
    tablet_hand_undo,
    tablet_pair,
)
from hang_jack_api_client.api.tournaments import tournaments_list
from hang_jack_api_client.models import (
    BoardState,
    Confirmation,
    Hand,
    HandFormatDealStartBeg,
    HandFormatHandTallyFormJackObject,
    HandFormatSidecardObject,
    HandPreviewRequest,
    HandStatusEnum,
    HandSubmitRequest,
    LoginRequest,
    PaginatedBoardSummaryList,
    PaginatedRoundList,
    PaginatedTournamentList,
    PairingCode,
    PairingCodesRequestRequest,
    PairRequestRequest,
    PairResponse,
    PlayForm,
    Preview,
    PublicStandings,
    RoundStatusEnum,
    SeatingRequest,
    SideEnum,
    TabletConfirmationRequest,
    TallyForm,
    Token,
    UndoRequest,
)
from hang_jack_api_client.types import Response

DEMO_SLUG = "hang-jack-demo-open"
T = TypeVar("T")

#: A card-by-card hand dealt by seat 1 (side 1) at 7-0 on trinidad-tournament rules: trump hearts, nobody
#: reneges; it scores 9-2 if it stands (it is undone). Generated once by the engine's simulator.
PLAY_FORM_HAND: dict[str, Any] = {
    "dealer": 1, "kicks": ["2H"], "beg": "stand",
    "deal": [["4C", "5S", "3D", "5H", "QS", "2D"], ["8H", "3S", "5D", "9S", "JD", "2C"],
             ["10C", "QH", "4H", "7C", "6C", "6H"], ["KC", "AC", "2S", "3C", "8D", "7H"]],
    "tricks": [["6H", "7H", "5H", "8H"], ["2C", "7C", "3C", "4C"], ["4H", "2S", "2D", "JD"],
               ["6C", "KC", "3D", "3S"], ["8D", "QS", "5D", "QH"], ["10C", "AC", "5S", "9S"]],
}


def say(text: str) -> None:
    print(f"[client-day] {text}", flush=True)


def expect(step: str, response: Response[Any], status: int, kind: type[T]) -> T:
    """The parsed answer of ``step``, if it has the documented status and model; else stop with the body."""
    if int(response.status_code) != status or not isinstance(response.parsed, kind):
        body = response.content.decode("utf-8", errors="replace")[:800]
        say(f"FAILED {step}: HTTP {int(response.status_code)}, expected {status} {kind.__name__}: {body}")
        raise SystemExit(1)
    return response.parsed


def key() -> str:
    return str(uuid.uuid4())


def hang_jack_hand(dealer: int) -> TallyForm:
    """A tally hand: trump hearts (5H kicked, no kick points), High and Low to side 0, the jack of hearts
    dealt to side 1 and won by side 0 (hanged), game 50-20 to side 0."""
    return TallyForm(
        dealer=dealer,
        kicks=["5H"],
        beg=HandFormatDealStartBeg.STAND,
        high=HandFormatSidecardObject(side=0, card="AH"),
        low=HandFormatSidecardObject(side=0, card="2H"),
        jack=HandFormatHandTallyFormJackObject(held_by=1, won_by=0),
        game=[50, 20],
    )


def events(result: Any) -> str:
    """The engine's events of a preview or a hand, as ``kind:side+points``."""
    items = result if isinstance(result, list) else result.to_dict().get("events", [])
    return ", ".join(f"{e['kind']}:{e['side']}+{e['points']}" for e in items)


def main(base_url: str, password: str) -> None:
    public = Client(base_url=base_url, raise_on_unexpected_status=True)

    # ---- the organiser: sign in, find a waiting board, print a pairing code for its table -------------
    token = expect("sign in", auth_login.sync_detailed(
        client=public, body=LoginRequest(username="organiser", password=password)), 201, Token)
    organiser = AuthenticatedClient(base_url=base_url, token=token.token, prefix="Token",
                                    raise_on_unexpected_status=True)
    say(f"organiser signed in as {token.user.username}")
    tournaments = expect("tournaments", tournaments_list.sync_detailed(client=organiser), 200,
                         PaginatedTournamentList)
    tournament = next(t for t in tournaments.results if t.slug == DEMO_SLUG)
    rounds = expect("rounds", rounds_list.sync_detailed(str(tournament.id), client=organiser), 200,
                    PaginatedRoundList)
    live = max((r for r in rounds.results if r.status in (RoundStatusEnum.PUBLISHED, RoundStatusEnum.IN_PLAY)),
               key=lambda r: r.number)
    boards = expect("boards", rounds_boards_list.sync_detailed(str(live.id), client=organiser), 200,
                    PaginatedBoardSummaryList)
    waiting = next(b for b in boards.results if b.status == "waiting")
    assert waiting.table is not None
    say(f"{tournament.name}: round {live.number} ({live.status.value}), table {waiting.table} is waiting "
        f"(board {waiting.id})")
    codes = expect("pairing code", pairing_codes_create.sync_detailed(
        str(tournament.id), client=organiser, body=PairingCodesRequestRequest(tables=[waiting.table])),
        201, list)
    code = codes[0]
    assert isinstance(code, PairingCode)

    # ---- the tablet: pair, read the board, seat it ---------------------------------------------------
    paired = expect("pair", tablet_pair.sync_detailed(
        client=public, body=PairRequestRequest(code=code.code, label="client-check tablet")), 201, PairResponse)
    tablet = AuthenticatedClient(base_url=base_url, token=paired.token, prefix="Device",
                                 raise_on_unexpected_status=True)
    say(f"paired: device {paired.device.id} for table {paired.device.table} ({paired.tournament.slug})")
    state = expect("board", tablet_board.sync_detailed(client=tablet), 200, BoardState)
    board = str(state.board)
    assert state.board == waiting.id and state.status == "waiting", (state.board, state.status)
    pair_b = state.pairs.b
    assert pair_b is not None
    seating: dict[str, int] = {}
    for pair in (state.pairs.a, pair_b):
        for seat, player in zip(pair.seats, pair.players, strict=True):
            seating[str(seat)] = int(player["id"])
    say(f"board {board}: {state.pairs.a.name} (side {state.pairs.a.side}) v {pair_b.name} (side {pair_b.side})")
    state = expect("seat", tablet_board_seat.sync_detailed(
        board, client=tablet, idempotency_key=key(),
        body=SeatingRequest.from_dict({"seating": seating, "first_dealer": 0})), 200, BoardState)
    say(f"seated {seating}: game {state.game_number}, next dealer {state.next_dealer}, "
        f"next hand {state.next_hand_number}")

    # ---- preview, then a tally hand with a jack outcome ----------------------------------------------
    first = hang_jack_hand(dealer=0)
    preview = expect("preview", tablet_hand_preview.sync_detailed(
        board, client=tablet, body=HandPreviewRequest(hand=first, game=1)), 200, Preview)
    say(f"preview of hand {preview.hand_number}: {events(preview.result)} -> {preview.result['score']}")
    hand = expect("submit tally hand", tablet_hand_submit.sync_detailed(
        board, client=tablet, idempotency_key=key(), body=HandSubmitRequest(game=1, number=1, hand=first)),
        201, Hand)
    assert hand.form == "tally" and hand.record["jack"] == {"held_by": 1, "won_by": 0}, hand.record
    say(f"tally hand {hand.number} stored (id {hand.id}, jack held by 1, won by 0): {events(hand.events)} "
        f"-> {hand.score}, next dealer {hand.next_dealer}")

    # ---- a card-by-card hand, then undo it -----------------------------------------------------------
    assert hand.next_dealer == PLAY_FORM_HAND["dealer"], hand.next_dealer
    played = expect("submit card-by-card hand", tablet_hand_submit.sync_detailed(
        board, client=tablet, idempotency_key=key(),
        body=HandSubmitRequest(game=1, number=2, hand=PlayForm.from_dict(PLAY_FORM_HAND))), 201, Hand)
    assert played.form == "play", played.form
    say(f"card-by-card hand {played.number} stored (id {played.id}, trump {played.trump}): "
        f"{events(played.events)} -> {played.score}")
    undone = expect("undo", tablet_hand_undo.sync_detailed(
        board, client=tablet, idempotency_key=key(), body=UndoRequest(hand=played.id)), 200, Hand)
    assert undone.status == HandStatusEnum.VOIDED, undone.status
    state = expect("board after undo", tablet_board.sync_detailed(client=tablet), 200, BoardState)
    say(f"undid hand {undone.number} (status {undone.status.value}): score {state.score}, "
        f"next hand {state.next_hand_number}, next dealer {state.next_dealer}")

    # ---- play the game out in tally hands ------------------------------------------------------------
    for _ in range(10):
        assert state.next_dealer is not None and state.next_hand_number is not None
        number = state.next_hand_number
        hand = expect(f"submit hand {number}", tablet_hand_submit.sync_detailed(
            board, client=tablet, idempotency_key=key(),
            body=HandSubmitRequest(game=1, number=number, hand=hang_jack_hand(state.next_dealer))), 201, Hand)
        say(f"tally hand {number} by seat {hand.dealer}: {events(hand.events)} -> {hand.score}, "
            f"game {hand.game_status}")
        if hand.winner is not None:
            break
        state = expect("board", tablet_board.sync_detailed(client=tablet), 200, BoardState)
    else:
        say("FAILED: game 1 did not end in 10 hands")
        raise SystemExit(1)
    say(f"game 1 won by side {hand.winner}")

    # ---- both pairs confirm game 1 -------------------------------------------------------------------
    for side in (SideEnum.A, SideEnum.B):
        confirmation = expect(f"confirm as pair {side.value}", tablet_game_confirm.sync_detailed(
            board, client=tablet, idempotency_key=key(), body=TabletConfirmationRequest(game=1, side=side)),
            201, Confirmation)
        say(f"pair {confirmation.party} confirms game {confirmation.game}: "
            f"game confirmed {confirmation.game_confirmed}")
    if not confirmation.game_confirmed:
        say("FAILED: game 1 is not confirmed after both pairs confirmed")
        raise SystemExit(1)

    # ---- the public standings, no credentials --------------------------------------------------------
    standings = expect("public standings", public_standings.sync_detailed(tournament.slug, client=public), 200,
                       PublicStandings)
    say(f"public standings after round {standings.after_round}: {len(standings.rows)} rows; top 3:")
    keys = [column.key for column in standings.columns]
    for row in standings.rows[:3]:
        values = ", ".join(f"{k} {row.values[k]}" for k in keys[:3] if k in row.values.additional_properties)
        say(f"  {row.rank}. {row.name} ({row.club}): {values}")
    if not standings.rows:
        say("FAILED: the public standings have no rows")
        raise SystemExit(1)
    say("done")


if __name__ == "__main__":
    if len(sys.argv) != 2 or not os.environ.get("HANGJACK_ORGANISER_PASSWORD"):
        sys.exit(__doc__)
    main(sys.argv[1].rstrip("/"), os.environ["HANGJACK_ORGANISER_PASSWORD"])
