"""The middle-game benchmark's MCTS variant (:mod:`benchmarks.middle_game`) starts from the real search: with nothing
changed it plays move for move as ``mcts-learned``, so its figures measure the change alone."""

from __future__ import annotations

import random

import pytest

from benchmarks import learned_score as fitting
from benchmarks.learned_score import positions
from benchmarks.middle_game import RICH_FEATURES, SCORES, SearchMove, Variant, VariantPlayer, bot, rich_features
from rules import core
from rules.cards import Card
from rules.game import Game
from rules.options import RuleSet
from rules.players import learned_score
from rules.players.knowledge import event_of, sample_state
from rules.players.levels import parse_bot
from rules.players.mcts import Node
from rules.players.perfect import PerfectPlayer
from rules.position import state_position
from rules.state import View


def dealt_view() -> tuple[core.State, View]:
    """The first position of a dealt duel (:func:`benchmarks.learned_score.dealt`), and the view of its seat to act."""
    state = fitting.dealt(1)
    return state, Game.from_position(state_position(state)).view(state.to_act)


def test_the_variant_with_nothing_changed_plays_as_mcts_learned() -> None:
    game = Game(RuleSet(players=2), seed=21)
    variant, learned = VariantPlayer(Variant(iterations=60), seed=5), parse_bot("mcts-learned:60it", seed=5)
    while len(game.events) < 30 and not game.is_over():
        if game.phase == "deal":
            game.push(game.sample_deal())
            continue
        seat = game.to_act
        assert seat is not None
        move = variant.choose(game.view(seat))
        assert move == learned.choose(game.view(seat))
        game.push(move)


def test_a_variant_of_three_trees_and_implicit_minimax_plays_legal_moves() -> None:
    game = Game(RuleSet(players=2), seed=22)
    player = bot("variant:30it:minimax=0.4,trees=3,explore=0.35,plies=5,scale=0.5,score=rich", seed=1)
    assert isinstance(player, VariantPlayer) and (player.variant.trees, player.variant.scale) == (3, 0.5)
    while len(game.events) < 20 and not game.is_over():
        if game.phase == "deal":
            game.push(game.sample_deal())
            continue
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        move = player.choose(view)
        assert view.phase == "trump_choice" or move in view.legal_moves
        game.push(move)


def test_a_pool_of_trees_plays_the_move_with_the_most_visits_over_them_all() -> None:
    _, view = dealt_view()
    pooled, reference = bot("variant:40it:pool=2", seed=0), bot("variant:40it", seed=0)
    assert isinstance(pooled, VariantPlayer) and isinstance(reference, VariantPlayer)
    legal = core.legal_moves(sample_state(view, reference._rng))
    trees = [reference.tree(lambda: sample_state(view, reference._rng)) for _ in range(2)]

    def most_visited(roots: list[Node]) -> int:
        visits = dict.fromkeys(legal, 0)
        for root in roots:
            for move, child in root.children.items():
                visits[move] += child.visits
        return max(legal, key=visits.__getitem__)

    move = most_visited(trees)
    assert most_visited(trees[:1]) != move and most_visited(trees[1:]) != move  # neither tree alone would play it
    assert pooled.choose(view) == event_of(view, move)


def scored_positions(spec: str) -> list[core.State]:
    """The positions the variant of ``spec`` scores in one search from the first position of a dealt duel."""
    player = bot(spec, seed=0)
    assert isinstance(player, VariantPlayer)
    scored: list[core.State] = []
    score = player._score

    def recording(state: core.State) -> list[float]:
        scored.append(state.copy())
        return score(state)

    player._score = recording  # type: ignore[method-assign]
    state = fitting.dealt(1)
    player.tree(lambda: state.copy())
    return scored


def test_quiet_rollouts_are_scored_only_where_a_lead_is_due_or_the_game_is_over() -> None:
    def quiet(position: core.State) -> bool:
        return position.outcome is not None or position.phase == core.LEAD

    assert not all(quiet(position) for position in scored_positions("variant:30it:plies=0"))
    scored = scored_positions("variant:30it:plies=0,quiet=1000")
    assert len(scored) == 30 and all(quiet(position) for position in scored)


def test_rollouts_without_noise_play_the_greedy_move() -> None:
    quiet, noisy = bot("variant:30it:noise=0", seed=0), bot("variant:30it:noise=1", seed=0)
    assert isinstance(quiet, VariantPlayer) and isinstance(noisy, VariantPlayer)
    state, rng = fitting.dealt(1), random.Random(0)
    greedy = quiet._rollout(state, rng)
    assert all(quiet._rollout(state, rng) == greedy for _ in range(50))
    assert {noisy._rollout(state, rng) for _ in range(50)} != {greedy}


def test_a_large_bias_plays_the_move_whose_position_the_learned_score_likes_best() -> None:
    state, view = dealt_view()
    liked = {}
    for move in core.legal_moves(state):
        after = state.copy()
        core.apply(after, move)
        liked[move] = learned_score.evaluate(after)[state.to_act]
    best = max(liked, key=liked.__getitem__)
    assert liked[best] > 0
    assert bot("variant:200it:bias=1000", seed=0).choose(view) == event_of(view, best)  # type: ignore[attr-defined]
    assert bot("variant:200it", seed=0).choose(view) != event_of(view, best)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("variant:30", "variant:Nit"),
        ("variant:30it:depth=3", "unknown key 'depth'"),
        ("variant:30it:policy=best", "the policy is greedy or tuned"),
        (
            "variant:30it:score=best",
            "the score one of learned, playouts, search, tuned, fourth, deep-play, rich, outcomes",
        ),
        ("greedy-style:premium=4,risk=1", "unknown key 'risk'"),
        ("perfect-score:best", "the score is one of learned, playouts"),
        ("perfect-mcts:0", "must be positive"),
    ],
)
def test_a_bad_specification_is_refused_naming_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        bot(spec)


def test_positions_of_a_searchs_own_games_are_its_moves_and_the_same_on_two_workers() -> None:
    play = SearchMove(iterations=4)
    alone = positions(4, games=2, every=60, playouts=1, play=play)
    together = positions(4, games=2, every=60, playouts=1, play=play, jobs=2)
    assert [state.key() for _, state, _ in alone] == [state.key() for _, state, _ in together]
    assert {number for number, _, _ in alone} == {0, 1}
    greedy = positions(4, games=2, every=60, playouts=1)
    assert [state.key() for _, state, _ in alone] != [state.key() for _, state, _ in greedy]
    state = fitting.dealt(1)
    assert play(state, random.Random(1)) in core.legal_moves(state)


def test_the_rich_counts_see_the_other_trump_the_cheap_beats_the_empty_suits_and_the_ranks() -> None:
    hands = (("AS", "8H", "6D", "8D", "QC"), ("7S", "7H", "TD", "KD", "9C"))
    state = core.State.from_position(
        trumps=(0, 1),  # seat 0 spades, seat 1 hearts
        hands=tuple(tuple(Card.parse(code) for code in hand) for hand in hands),
        pile=(),
        to_act=0,
        phase=core.LEAD,
    )
    rich = dict(zip(RICH_FEATURES, rich_features(state), strict=True))
    assert rich["my cards of their trump / 9"] == 1 / 9  # 8H
    assert rich["their cards of my trump / 9"] == 1 / 9  # 7S
    assert rich["my cards they beat without a trump / 18"] == 2 / 18  # 6D and 8D by KD; not 8H, their trump
    assert rich["their cards I beat without a trump / 18"] == 2 / 18  # 7H by 8H, 9C by QC; 7S is of my trump
    assert rich["my empty suits but my trump / 3"] == 0
    assert rich["their empty suits but their trump / 3"] == 0
    assert rich["my other cards' mean rank"] == (2 + 0 + 2 + 6) / 32  # 8H, 6D, 8D, QC
    assert rich["their other cards' mean rank"] == (1 + 4 + 7 + 3) / 32  # 7S, TD, KD, 9C
    assert rich_features(state)[: len(RICH_FEATURES) - 9] == learned_score.features(state)


def test_positions_labelled_by_their_games_carry_how_the_game_ended_for_the_seat_to_act() -> None:
    found = positions(7, games=2, every=5, playouts=1, finish=None)
    for number in (0, 1):
        game = [(state, label) for found_in, state, label in found if found_in == number]
        assert game[0][0].key() == fitting.dealt(7 * 1_000_003 + number).key()
        seats_and_labels = {(state.to_act, label) for state, label in game}
        assert len(seats_and_labels) == 2 and sum(label for _, label in seats_and_labels) == 1


def test_perfect_with_another_score_scores_its_rollouts_with_it() -> None:
    player = bot("perfect-score:rich", seed=1)
    assert isinstance(player, PerfectPlayer) and player.name == "perfect-score:rich"
    state = fitting.dealt(3)
    weights, counts = SCORES["rich"]
    assert player.duel_rollouts.score(state) == learned_score.evaluate(state, weights, counts)
    assert player.duel_rollouts.score(state) != learned_score.evaluate(state)


def test_perfect_with_another_time_for_its_mcts_searches_that_long() -> None:
    player = bot("perfect-mcts:0.1", seed=1)
    assert isinstance(player, PerfectPlayer) and (player.name, player.mcts_seconds) == ("perfect-mcts:0.1", 0.1)
