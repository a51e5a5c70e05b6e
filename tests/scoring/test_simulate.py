"""The seeded game simulator: deterministic, complete games in both forms, under every rule set."""

import json
import random

import pytest

from scoring import InvalidHand, RuleSet, score_game
from scoring.rules import PRESETS
from scoring.simulate import SimulatedGame, simulate_game, simulate_hand


def test_the_same_seed_gives_the_same_game():
    first = simulate_game("trinidad", seed=11, renege_rate=0.05, misdeal_rate=0.05)
    again = simulate_game("trinidad", seed=11, renege_rate=0.05, misdeal_rate=0.05)
    assert first.document("play") == again.document("play")
    assert first.document("tally") == again.document("tally")


def test_different_seeds_give_different_games():
    assert simulate_game(seed=1).play_hands != simulate_game(seed=2).play_hands


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_game_is_played_until_the_engine_names_a_winner(preset):
    game = simulate_game(preset, seed=5)
    rules = RuleSet.from_spec(preset)
    assert isinstance(game, SimulatedGame)
    assert game.winner is not None and game.score[game.winner] >= rules.target
    for form in ("tally", "play"):
        result = score_game(game.document(form))
        assert (result["winner"], tuple(result["score"])) == (game.winner, game.score)


def test_documents_are_json_ready_and_carry_the_rules_as_given():
    spec = {"preset": "trinidad", "game_points": 2}
    game = simulate_game(spec, seed=3, score=[5, 9], first_dealer=2)
    doc = game.document("play")
    assert json.loads(json.dumps(doc)) == doc
    assert doc["rules"] == spec and doc["score"] == [5, 9]
    assert doc["hands"][0]["dealer"] == 2
    assert game.rules_spec == spec and len(game.play_hands) == len(game.tally_hands)


def test_a_rule_set_object_is_written_out_in_full():
    rules = RuleSet.from_spec("tobago")
    game = simulate_game(rules, seed=3)
    assert RuleSet.from_spec(game.rules_spec) == rules


def test_a_score_the_rules_refuse_is_refused():
    with pytest.raises(InvalidHand):
        simulate_game(seed=1, score=[14, 0])


def test_the_deal_passes_to_the_right():
    game = simulate_game("trinidad", seed=8, first_dealer=3)
    dealers = [h["dealer"] for h in game.play_hands]
    assert dealers[:3] == [3, 0, 1]


def test_misdeals_are_recorded_and_the_same_dealer_deals_again():
    game = simulate_game("trinidad", seed=4, misdeal_rate=0.5)
    hands = game.play_hands
    misdeals = [i for i, h in enumerate(hands) if h.get("misdeal")]
    assert misdeals
    for i in misdeals:
        assert hands[i] == {"dealer": hands[i]["dealer"], "misdeal": True} == game.tally_hands[i]
        if i + 1 < len(hands):
            assert hands[i + 1]["dealer"] == hands[i]["dealer"]


def test_misdeals_pass_the_deal_in_the_tournament_rules():
    game = simulate_game("trinidad-tournament", seed=4, misdeal_rate=0.5)
    hands = game.play_hands
    for i, hand in enumerate(hands[:-1]):
        assert hands[i + 1]["dealer"] == (hand["dealer"] + 1) % 4


def test_every_illegal_card_becomes_one_penalty():
    game = simulate_game("english", seed=2, renege_rate=0.5)
    assert sum(h.illegal_cards for h in game.hands) > 0
    for hand in game.hands:
        penalties = hand.tally.get("penalties", [])
        assert [(p["kind"], p["side"]) for p in penalties] == [(p.kind, p.side) for p in hand.reneges]


def test_no_illegal_card_without_a_renege_rate():
    for seed in range(20):
        game = simulate_game("trinidad", seed=seed)
        assert all(not h.tally.get("penalties") for h in game.hands)


def _hands(preset, seeds, **kw):
    for seed in range(seeds):
        yield from simulate_game(preset, seed=seed, **kw).hands


def test_runs_rerun_on_the_same_suit_and_a_pack_run_out_is_dealt_again():
    plays = [h.play for h in _hands("trinidad", 150)]
    reruns = [p for p in plays if len(p["kicks"]) == 3]
    assert reruns and all(p["kicks"][0][-1] == p["kicks"][1][-1] != p["kicks"][2][-1] for p in reruns)
    redeals = [p for p in plays if "abandoned" in p]
    assert redeals and all(len(deal) == 3 and len({k[-1] for k in deal}) == 1
                           for p in redeals for deal in p["abandoned"])


def test_each_choice_of_the_beggar_and_dealer_happens():
    begs = {h.play.get("beg") for h in _hands("trinidad", 30)}
    assert {"stand", "give", "run"} <= begs


def test_discards_down_to_discard_to_after_a_run():
    plays = [h.play for h in _hands("english", 40) if "runs" in h.play and "tricks" in h.play]
    assert plays
    for play in plays:
        assert len(play["discards"]) == 4
        assert all(len(d) == 3 * len(play["runs"]) for d in play["discards"])
        assert len(play["tricks"]) == 6


def test_seven_up_records_always_say_beg():
    assert all("beg" in h.play for h in _hands("seven-up", 30) if not h.play.get("misdeal"))


@pytest.mark.parametrize("spec", [{"players": 3, "renege": "one_point"}, {"players": 2}])
def test_two_and_three_players(spec):
    rules = RuleSet.from_spec(spec)
    game = simulate_game(spec, seed=9, renege_rate=0.05)
    assert score_game(game.document("play")) == score_game(game.document("tally"))
    played = [h.play for h in game.hands if "tricks" in h.play]
    assert played and all(len(h["deal"]) == rules.players for h in played)


def test_a_winning_kick_ends_the_record():
    # side 1 deals at 13: the first kick worth anything wins; nothing after it is recorded
    for seed in range(40):
        hand = simulate_hand("trinidad", 1, random.Random(seed), [0, 13])
        if hand.winner == 1 and hand.result.events[-1].kind == "kick":
            assert set(hand.play) <= {"dealer", "abandoned", "kicks", "beg"}
            assert hand.play["kicks"][-1] == str(hand.result.events[-1].card)
            assert hand.tally == hand.play
            return
    pytest.fail("no winning kick in 40 seeds")


def test_a_winning_gift_ends_the_record():
    for seed in range(40):
        hand = simulate_hand("trinidad", 1, random.Random(seed), [13, 0])
        if hand.result.events and hand.result.events[-1].kind == "gift":
            assert hand.play == {"dealer": 1, "kicks": hand.play["kicks"], "beg": "give"}
            return
    pytest.fail("no winning gift in 40 seeds")


def test_no_winning_gift_where_the_rules_forbid_it():
    for seed in range(60):
        hand = simulate_hand("english", 1, random.Random(seed), [10, 0])
        assert hand.play.get("beg") != "give"
