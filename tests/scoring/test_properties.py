"""Properties of whole simulated games, under every preset and a few variants (hypothesis).

Each example is a game from the seeded simulator, scored by the engine in both forms.
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import Card, InvalidHand, RuleSet, score_game
from scoring.legal import legal_cards, renege_of, trick_winner
from scoring.play import read_play_hand
from scoring.rules import PRESETS
from scoring.simulate import SimulatedGame, simulate_game

SPECS = [
    *sorted(PRESETS),
    {"players": 3, "renege": "one_point"},
    {"players": 2},
    {"preset": "english", "players": 3},
    {"undertrump": "forbidden", "low": "captured", "game_tie": "non_dealer"},
    {"follow": "trump_only", "renege": "lose_game", "run_cards": 2},
    {"preset": "seven-up", "players": 4, "discard_to": 7},
]
PENALTY_KINDS = {"revoke", "trump_revoke", "undertrump"}
# docs/rules.md section 6: kicks, the gift, penalties, then High, Low, Jack, Game
ORDER = {"kick": 0, "gift": 1, "revoke": 2, "trump_revoke": 2, "undertrump": 2, "high": 3, "low": 4,
         "jack": 5, "hang_jack": 5, "game": 6}

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def games(draw, renege_rates=(0.0, 0.0, 0.03, 0.2)) -> SimulatedGame:
    spec = draw(st.sampled_from(SPECS))
    rules = RuleSet.from_spec(spec)
    score = draw(st.lists(st.integers(0, rules.target - 1), min_size=rules.sides, max_size=rules.sides))
    return simulate_game(
        spec,
        seed=draw(st.integers(0, 2**32)),
        score=score,
        first_dealer=draw(st.integers(0, rules.players - 1)),
        renege_rate=draw(st.sampled_from(renege_rates)),
        misdeal_rate=draw(st.sampled_from([0.0, 0.0, 0.05])),
    )


def replay(rules: RuleSet, play: dict) -> tuple[list[tuple[str | None, int]], int]:
    """Replay a played hand independently of the reader: the offence of every card (None if legal)
    with the side that played it, and the card points of the cards in play."""
    n = rules.players
    trump = Card.parse(play["kicks"][-1]).suit
    hands = [[Card.parse(t) for t in cards] for cards in play["deal"]]
    for run in play.get("runs", []):
        for seat in range(n):
            hands[seat] += [Card.parse(t) for t in run[seat]]
    for seat, cards in enumerate(play.get("discards", [])):
        for t in cards:
            hands[seat].remove(Card.parse(t))
    in_play = sum(card.points for hand in hands for card in hand)
    offences = []
    leader = rules.beggar(play["dealer"])
    for trick in play["tricks"]:
        cards = [Card.parse(t) for t in trick]
        for i, card in enumerate(cards):
            seat = (leader + i) % n
            holding = hands[seat]
            legal = card in legal_cards(rules, trump, holding, cards[:i])
            offence = renege_of(rules, trump, holding, cards[:i], card)
            assert legal == (offence is None)
            offences.append((offence, rules.side_of(seat)))
            holding.remove(card)
        leader = (leader + trick_winner(trump, cards)) % n
    return offences, in_play


def check_both_forms_score_identically(game: SimulatedGame) -> None:
    assert score_game(game.document("tally")) == score_game(game.document("play"))


def check_scores_climb_to_the_winning_event(game: SimulatedGame) -> None:
    result = score_game(game.document("play"))
    rules = game.rules
    score = list(game.start_score)
    for h, hand in enumerate(result["hands"]):
        last_hand = h == len(result["hands"]) - 1
        for e, event in enumerate(hand["events"]):
            assert event["points"] > 0
            assert max(score) < rules.target  # the game was still on
            score[event["side"]] += event["points"]
            if not (last_hand and e == len(hand["events"]) - 1):
                assert max(score) < rules.target
        assert hand["score"] == score
    assert result["winner"] is not None and score[result["winner"]] >= rules.target


def check_event_order(game: SimulatedGame) -> None:
    result = score_game(game.document("tally"))
    for raw, hand in zip(game.tally_hands, result["hands"], strict=True):
        kinds = [e["kind"] for e in hand["events"]]
        assert [ORDER[k] for k in kinds if k != "misdeal"] == sorted(ORDER[k] for k in kinds if k != "misdeal")
        assert sum(k in ("jack", "hang_jack") for k in kinds) <= 1
        # penalties among themselves in the order they happened: one event per opponent side
        expected = [(p["kind"], side, p["side"]) for p in raw.get("penalties", [])
                    for side in range(game.rules.sides) if side != p["side"]]
        got = [(e["kind"], e["side"], e["offender"]) for e in hand["events"] if e["kind"] in PENALTY_KINDS]
        assert got == expected[:len(got)]
        if got != expected:  # cut short only by the end of the game
            assert hand is result["hands"][-1] and result["winner"] is not None


def check_card_points(game: SimulatedGame) -> None:
    for hand in game.hands:
        if "tricks" in hand.play:
            _, in_play = replay(game.rules, hand.play)
            kicked = sum(Card.parse(k).points for k in hand.play["kicks"])
            assert sum(hand.tally["game"]) == in_play <= 80 - kicked


def check_every_card_legal(game: SimulatedGame) -> None:
    for hand in game.hands:
        if "tricks" in hand.play:
            offences, _ = replay(game.rules, hand.play)
            assert all(offence is None for offence, _ in offences)
            assert "penalties" not in hand.tally


def check_one_penalty_per_illegal_card(game: SimulatedGame) -> None:
    for hand in game.hands:
        if "tricks" in hand.play:
            offences, _ = replay(game.rules, hand.play)
            illegal = [(offence, side) for offence, side in offences if offence is not None]
            penalties = [(p["kind"], p["side"]) for p in hand.tally.get("penalties", [])]
            assert penalties == illegal == [(p.kind, p.side) for p in hand.reneges]


@SETTINGS
@given(games())
def test_the_tally_form_derived_from_the_play_form_scores_identically(game):
    check_both_forms_score_identically(game)


@SETTINGS
@given(games())
def test_scores_never_decrease_and_nobody_passes_the_target_before_the_winning_event(game):
    check_scores_climb_to_the_winning_event(game)


@SETTINGS
@given(games())
def test_events_follow_the_scoring_order_and_one_jack_per_hand(game):
    check_event_order(game)


@SETTINGS
@given(games())
def test_card_points_in_the_lifts_are_the_card_points_in_play(game):
    check_card_points(game)


@SETTINGS
@given(games(renege_rates=(0.0,)))
def test_without_reneges_every_card_played_is_legal(game):
    check_every_card_legal(game)


@SETTINGS
@given(games(renege_rates=(0.05, 0.3)))
def test_each_illegal_card_becomes_exactly_one_penalty(game):
    check_one_penalty_per_illegal_card(game)


@pytest.mark.parametrize("spec", SPECS, ids=str)
def test_every_rule_set_over_fixed_seeds(spec):
    for seed in range(8):
        game = simulate_game(spec, seed=seed, renege_rate=0.05, misdeal_rate=0.05)
        check_both_forms_score_identically(game)
        check_scores_climb_to_the_winning_event(game)
        check_event_order(game)
        check_card_points(game)
        check_one_penalty_per_illegal_card(game)
    for seed in range(4):
        check_every_card_legal(simulate_game(spec, seed=seed))



JSON_VALUES = st.one_of(
    st.none(), st.booleans(), st.integers(-2, 60), st.sampled_from(["AS", "10H", "th", "ZZ", "", "run"]),
    st.lists(st.sampled_from(["AS", "2C", "QD"]), max_size=3), st.dictionaries(st.just("x"), st.integers()),
)


def _mutate(value, path, new):
    """``value`` with the leaf or list at ``path`` (a list of keys/indices) replaced by ``new``."""
    if not path:
        return new
    key, rest = path[0], path[1:]
    if isinstance(value, dict):
        return {**value, key: _mutate(value[key], rest, new)}
    return [_mutate(v, rest, new) if i == key else v for i, v in enumerate(value)]


def _paths(value, prefix=()):
    yield prefix
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32), st.sampled_from(SPECS), st.data())
def test_a_damaged_play_record_is_refused_with_a_code_never_a_crash(seed, spec, data):
    rules = RuleSet.from_spec(spec)
    game = simulate_game(spec, seed=seed, renege_rate=0.05)
    played = [h.play for h in game.hands if "tricks" in h.play]
    if not played:
        return
    raw = data.draw(st.sampled_from(played))
    path = data.draw(st.sampled_from(list(_paths(raw))[1:]))
    damaged = _mutate(raw, list(path), data.draw(JSON_VALUES))
    try:
        read_play_hand(damaged, rules, "hand")
    except InvalidHand as error:
        assert error.code and error.path.startswith("hand") and error.message
