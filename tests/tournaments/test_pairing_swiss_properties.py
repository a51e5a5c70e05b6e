"""Swiss pairing over seeded random tournaments, judged by the independent checker and networkx."""

from __future__ import annotations

import random

import networkx as nx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.tourney_gen import check_swiss_round, play_swiss, random_field, random_history
from tournaments.pairing import ClubAvoidance, Entrant, GroupPairing, SwissConfig, pair_swiss, swiss_graph
from tournaments.pairing.swiss import match, total_weight

FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

configs = st.builds(
    SwissConfig,
    club_avoidance=st.sampled_from(list(ClubAvoidance)),
    group_pairing=st.sampled_from(list(GroupPairing)),
)


@FAST
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(2, 22),
    clubs=st.integers(0, 5),
    config=configs,
    data=st.data(),
)
def test_every_round_of_a_random_swiss_passes_the_checker(seed, n, clubs, config, data):
    # Each pair once per round, no avoidable rematch, fair bye, equal records first: the checker
    # runs on every round as play_swiss drafts it, up to (and past) the point where rematches come.
    rounds = data.draw(st.integers(1, min(n + 1, 8)))
    t = play_swiss(seed, n, rounds, clubs=clubs, config=config)
    assert len(t.rounds) == rounds


@FAST
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(1, 14).map(lambda k: 2 * k),
    rounds=st.integers(0, 5),
    config=configs,
)
def test_rustworkx_finds_the_same_total_weight_as_networkx(seed, n, rounds, config):
    rng = random.Random(seed)
    entrants = random_field(rng, n, clubs=3)
    entrants = [Entrant(e.id, e.club_id, points=2 * rng.randrange(rounds + 1)) for e in entrants]
    history = random_history(rng, [e.id for e in entrants], rounds)
    sg = swiss_graph(entrants, history, config, complete=True)
    ours = total_weight(sg, match(sg))
    reference = nx.Graph()
    for a, b, w in sg.graph.weighted_edge_list():
        reference.add_edge(a, b, weight=w)
    theirs = nx.max_weight_matching(reference, maxcardinality=True)
    assert 2 * len(theirs) == n
    assert ours == sum(reference[a][b]["weight"] for a, b in theirs)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(20, 70),
    rounds=st.integers(1, 5),
    strong=st.booleans(),
)
def test_the_candidate_graph_keeps_the_optimum_of_the_upper_tiers(seed, n, rounds, strong):
    # docs/pairing.md, "Large fields": on the candidate graph the rematches, the bye, the score spread
    # (and, under strong avoidance, club-mates) are as good as on the complete graph.
    t = play_swiss(seed, n, rounds, clubs=6, check=False)
    current = t.standing_fields[-1]
    mode = ClubAvoidance.STRONG if strong else ClubAvoidance.PREFER
    sparse = pair_swiss(
        current,
        t.history,
        round_number=rounds + 1,
        config=SwissConfig(mode, full_graph_limit=0, min_window=0),
    )
    full = pair_swiss(
        current, t.history, round_number=rounds + 1, config=SwissConfig(mode, full_graph_limit=10**6)
    )
    assert (sparse.cost.rematches, sparse.cost.bye_rank, sparse.cost.score_spread) == (
        full.cost.rematches,
        full.cost.bye_rank,
        full.cost.score_spread,
    )
    if strong:
        assert sparse.cost.same_club == full.cost.same_club
    assert not check_swiss_round(current, t.history, sparse, strong)


def test_a_long_event_runs_into_rematches_only_when_forced():
    # Seven entrants, eight rounds: more rounds than opponents, so rematches must come, and the
    # checker confirms each one is forced.
    t = play_swiss(2024, 7, 8, clubs=2)
    assert sum(r.cost.rematches for r in t.rounds) > 0
    assert all(r.cost.rematches == 0 for r in t.rounds[:3])


@FAST
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(1, 20).map(lambda k: 2 * k),
    rounds=st.integers(0, 4),
    config=configs,
)
def test_every_edge_weighs_what_docs_pairing_md_says(seed, n, rounds, config):
    # weight = base - (rematch * met^2 + club * same_club + score * gap^2 + tidiness), with tidiness
    # (2d - g)^2 (fold) or d^2 (adjacent) for two entrants d apart in a score group of g, and the
    # squared distance in the standings across groups; recomputed here from the definition.
    rng = random.Random(seed)
    entrants = random_field(rng, n, clubs=3)
    entrants = [Entrant(e.id, e.club_id, points=2 * rng.randrange(rounds + 1)) for e in entrants]
    history = random_history(rng, [e.id for e in entrants], rounds)
    sg = swiss_graph(entrants, history, config, complete=True)
    order = sg.entrants
    assert [e.points for e in order] == sorted((e.points for e in entrants), reverse=True)
    group_start = {}
    for p, e in enumerate(order):
        group_start.setdefault(e.points, p)
    size = {pts: sum(1 for e in order if e.points == pts) for pts in group_start}
    u = sg.units
    for i, j, w in sg.graph.weighted_edge_list():
        a, b = order[i], order[j]
        met = history.times_met(a.id, b.id)
        same = a.club_id is not None and a.club_id == b.club_id
        if a.points == b.points:
            d = abs(i - j)
            tidy = (2 * d - size[a.points]) ** 2 if config.group_pairing is GroupPairing.FOLD else d * d
        else:
            tidy = (i - j) ** 2
        cost = u.rematch * met * met + u.club * same + u.score * (a.points - b.points) ** 2 + tidy
        assert w == u.base - cost
    if config.club_avoidance is ClubAvoidance.OFF:
        assert u.club == 0
    assert sg.graph.num_edges() == n * (n - 1) // 2


@FAST
@given(seed=st.integers(0, 10**6), n=st.integers(3, 24), strong=st.booleans(), data=st.data())
def test_the_narrowest_candidate_graphs_still_pass_the_checker(seed, n, strong, data):
    # Every field takes the candidate-graph path with the narrowest window the lemma allows, odd
    # fields included (the bye's phantom graph too), deep into the event.
    rounds = data.draw(st.integers(1, min(n + 1, 8)))
    mode = ClubAvoidance.STRONG if strong else ClubAvoidance.PREFER
    config = SwissConfig(club_avoidance=mode, full_graph_limit=0, min_window=0)
    t = play_swiss(seed, n, rounds, clubs=3, config=config)
    assert len(t.rounds) == rounds
