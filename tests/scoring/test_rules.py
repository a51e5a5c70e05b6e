"""Rule sets: the presets of docs/rules.md section 9, every option, and what a rule set refuses."""

from __future__ import annotations

import dataclasses

import pytest

from scoring import PRESETS, InvalidHand, Rank, RuleSet

# docs/rules.md section 9, column by column
TABLE = {
    "players": (4, 4, 4, 4, 2),
    "target": (14, 14, 14, 11, 7),
    "kick_points": (
        {Rank.ACE: 1, Rank.SIX: 2, Rank.JACK: 3},
        {Rank.ACE: 1, Rank.SIX: 2, Rank.JACK: 3},
        {Rank.ACE: 1, Rank.TWO: 2, Rank.JACK: 3},
        {Rank.JACK: 1},
        {Rank.JACK: 1},
    ),
    "every_kick_scores": (True, True, True, True, False),
    "gift_points": (1, 1, 1, 1, 1),
    "gift_can_win": (True, True, True, False, False),
    "run_cards": (3, 3, 3, 3, 3),
    "follow": ("follow_or_trump",) * 5,
    "undertrump": ("allowed",) * 5,
    "low": ("dealt",) * 5,
    "jack_points": (1, 1, 1, 1, 1),
    "hang_jack_points": (3, 3, 3, 1, 1),
    "game_points": (1, 2, 1, 1, 1),
    "game_tie": ("none", "none", "none", "none", "non_dealer"),
    "renege": ("two_tier", "two_tier", "two_tier", "one_point", "one_point"),
    "revoke_points": (1, 1, 1, 1, 1),
    "revoke_bars_game": (True,) * 5,
    "misdeal_points": (1, 1, 1, 1, 1),
    "misdeal_passes_deal": (False, True, False, False, False),
    "discard_to": (None, None, None, 6, 6),
}
NAMES = ("trinidad", "trinidad-tournament", "tobago", "english", "seven-up")


@pytest.mark.parametrize("option", list(TABLE))
def test_presets_match_the_rules_table(option):
    for name, expected in zip(NAMES, TABLE[option], strict=True):
        rules = RuleSet.from_spec(name)
        value = rules.kick_value if option == "kick_points" else getattr(rules, option)
        assert value == expected, (name, option)


def test_there_are_exactly_the_five_presets():
    assert tuple(PRESETS) == NAMES


def test_every_option_of_the_table_is_an_option_of_the_rule_set():
    options = {f.name for f in dataclasses.fields(RuleSet) if f.init} - {"preset"}
    assert options == set(TABLE)


def test_options_without_preset_apply_over_trinidad():
    rules = RuleSet.from_spec({"game_points": 2})
    assert rules.preset == "trinidad" and rules.game_points == 2 and rules.target == 14


def test_options_override_the_named_preset():
    rules = RuleSet.from_spec({"preset": "english", "players": 2})
    assert rules.players == 2 and rules.target == 11 and rules.hang_jack_points == 1


def test_kick_points_replace_the_whole_map_and_drop_zeroes():
    rules = RuleSet.from_spec({"kick_points": {"J": 3, "A": 0, "10": 2}})
    assert rules.kick_value == {Rank.JACK: 3, Rank.TEN: 2}


def test_to_dict_round_trips():
    for name in NAMES:
        rules = RuleSet.from_spec(name)
        assert RuleSet.from_spec(rules.to_dict()) == rules
    custom = RuleSet.from_spec({"preset": "tobago", "game_points": 2, "kick_points": {"Q": 1}, "discard_to": 7})
    assert RuleSet.from_spec(custom.to_dict()) == custom


def test_a_rule_set_is_accepted_as_its_own_spec():
    rules = RuleSet.from_spec("english")
    assert RuleSet.from_spec(rules) is rules


def test_repeated_specs_are_cached():
    spec = {"preset": "trinidad", "game_points": 2}
    assert RuleSet.from_spec(spec) is RuleSet.from_spec(dict(spec))


def test_a_cached_spec_still_distinguishes_true_from_one():
    assert RuleSet.from_spec({"gift_points": 1}).gift_points == 1
    with pytest.raises(InvalidHand):
        RuleSet.from_spec({"gift_points": True})


@pytest.mark.parametrize(("players", "runs"), [(4, 2), (3, 3), (2, 5)])
def test_the_pack_allows_r_runs(players, runs):
    options = {"players": players}
    if players == 3:
        options["renege"] = "one_point"
    assert RuleSet.from_spec(options).max_runs == runs


@pytest.mark.parametrize(("players", "sides"), [(4, 2), (3, 3), (2, 2)])
def test_sides_are_partnerships_with_four_players_else_one_per_player(players, sides):
    rules = RuleSet.from_spec({"preset": "english", "players": players})
    assert rules.sides == sides
    assert [rules.side_of(s) for s in range(players)] == ([0, 1, 0, 1] if players == 4 else list(range(players)))


def test_the_beggar_sits_on_the_dealers_right():
    rules = RuleSet.from_spec("trinidad")
    assert [rules.beggar(d) for d in range(4)] == [1, 2, 3, 0]


# ---- refusals ----------------------------------------------------------------------------------------
def refused(spec, code, path):
    with pytest.raises(InvalidHand) as info:
        RuleSet.from_spec(spec)
    assert info.value.code == code, info.value.message
    if path is not None:
        assert info.value.path == path
    return info.value


def test_unknown_preset_is_an_error():
    refused("trinidad-classic", "unknown_preset", "rules")


def test_unknown_preset_inside_an_object_is_an_error():
    refused({"preset": "nope"}, "unknown_preset", "rules.preset")


@pytest.mark.parametrize("preset", [1, None, ["trinidad"], {"x": 1}])
def test_a_preset_that_is_not_a_name_is_an_error(preset):
    refused({"preset": preset}, "unknown_preset", "rules.preset")


def test_an_unknown_option_is_an_error_never_ignored():
    refused({"preset": "trinidad", "jokers": True}, "unknown_option", "rules.jokers")


@pytest.mark.parametrize("spec", [1, None, True, ["trinidad"], 2.5])
def test_rules_must_be_a_name_or_an_object(spec):
    refused(spec, "rules_type", "rules")


@pytest.mark.parametrize(
    ("option", "value"),
    [
        ("players", 5), ("players", 1), ("players", "4"), ("players", True), ("players", 4.0),
        ("target", 0), ("target", "14"), ("target", True), ("target", None),
        ("gift_points", -1), ("run_cards", 0), ("jack_points", 1.5), ("hang_jack_points", -3),
        ("game_points", [2]), ("revoke_points", {}), ("misdeal_points", False),
        ("every_kick_scores", 1), ("gift_can_win", "true"), ("revoke_bars_game", None),
        ("misdeal_passes_deal", 0),
        ("follow", "follow"), ("undertrump", "never"), ("low", "won"), ("game_tie", "dealer"),
        ("renege", "two-tier"), ("renege", ["two_tier"]),
        ("discard_to", 0), ("discard_to", "6"), ("discard_to", True),
        ("kick_points", ["J"]), ("kick_points", None),
    ],
)
def test_a_wrong_option_value_is_an_error(option, value):
    refused({option: value}, "bad_option_value", f"rules.{option}")


@pytest.mark.parametrize(("kicks", "path"), [({"T": 1}, "rules.kick_points.T"), ({"J": -1}, "rules.kick_points.J"),
                                            ({"J": "3"}, "rules.kick_points.J"), ({"j": 3}, "rules.kick_points.j"),
                                            ({"J": True}, "rules.kick_points.J")])
def test_kick_points_need_canonical_ranks_and_whole_points(kicks, path):
    refused({"kick_points": kicks}, "bad_option_value", path)


def test_run_cards_the_pack_cannot_supply_leave_no_run():
    """R = floor((52 - 6n - 1) / (n * run_cards + 1)) may be 0: a valid rule set in which no run fits."""
    assert RuleSet.from_spec({"run_cards": 7}).max_runs == 0


@pytest.mark.parametrize("option", ["target", "gift_points", "run_cards", "game_points", "misdeal_points",
                                    "discard_to"])
def test_a_whole_number_option_stays_within_exact_json_integers(option):
    assert getattr(RuleSet.from_spec({option: 2**53 - 1}), option) == 2**53 - 1
    refused({option: 2**53}, "bad_option_value", f"rules.{option}")
    refused({"kick_points": {"J": 10**400}}, "bad_option_value", "rules.kick_points.J")


def test_three_players_need_one_point_reneges():
    refused({"players": 3}, "three_players_lost_game", "rules")


def test_three_players_must_allow_undertrumping():
    refused({"players": 3, "renege": "one_point", "undertrump": "forbidden"}, "three_players_lost_game", "rules")


def test_three_player_english_is_fine():
    assert RuleSet.from_spec({"preset": "english", "players": 3}).sides == 3


def test_an_absurdly_nested_option_value_is_an_error_not_a_crash():
    value: object = 1
    for _ in range(5000):
        value = [value]
    refused({"kick_points": value}, "bad_option_value", "rules.kick_points")


def test_a_huge_option_name_gives_a_short_path():
    error = refused({"x" * 10000: 1}, "unknown_option", None)
    assert len(error.path) < 60 and len(error.message) < 200
