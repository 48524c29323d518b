"""The middle-game benchmark's players (:mod:`benchmarks.middle_game`) start from the real ones: with nothing
changed they play move for move as the greedy player and ``mcts-learned``, so its figures measure the change alone."""

from __future__ import annotations

import random

import pytest

from benchmarks.learned_score import dealt
from benchmarks.middle_game import Style, Variant, VariantPlayer, bot
from rules import core
from rules.game import Game
from rules.options import RuleSet
from rules.players.greedy import heuristic_move, noisy_move
from rules.players.levels import parse_bot


def test_the_default_style_is_the_greedy_player_at_every_position_of_noisy_duels() -> None:
    policy, rng, compared = Style().policy(), random.Random(3), 0
    for deal in range(12):
        state = dealt(deal)
        while state.outcome is None and compared < 6000:
            assert policy(state, state.hands) == heuristic_move(state, state.hands)
            compared += 1
            core.apply(state, noisy_move(state, rng, 0.3))
    assert compared > 2000


def test_a_style_changes_the_greedy_move_somewhere() -> None:
    tuned, rng = Style.parse("premium=4,shed=1").policy(), random.Random(4)
    state, differ = dealt(1), 0
    while state.outcome is None:
        differ += tuned(state, state.hands) != heuristic_move(state, state.hands)
        core.apply(state, noisy_move(state, rng, 0.3))
    assert differ


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
    player = bot("variant:30it:minimax=0.4,trees=3,explore=0.35,plies=5", seed=1)
    assert isinstance(player, VariantPlayer) and player.variant.trees == 3
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


@pytest.mark.parametrize(
    ("spec", "words"),
    [
        ("variant:30", "variant:Nit"),
        ("variant:30it:depth=3", "unknown key 'depth'"),
        ("variant:30it:policy=best", "policy and score"),
        ("greedy-style:premium=4,risk=1", "unknown key 'risk'"),
    ],
)
def test_a_bad_specification_is_refused_naming_what_is_wrong(spec: str, words: str) -> None:
    with pytest.raises(ValueError, match=words):
        bot(spec)
