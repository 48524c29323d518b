"""The middle-game benchmark's MCTS variant (:mod:`benchmarks.middle_game`) starts from the real search: with nothing
changed it plays move for move as ``mcts-learned``, so its figures measure the change alone."""

from __future__ import annotations

import random

import pytest

from benchmarks import learned_score as fitting
from benchmarks.learned_score import positions
from benchmarks.middle_game import SearchMove, Variant, VariantPlayer, bot
from rules import core
from rules.game import Game
from rules.options import RuleSet
from rules.players.levels import parse_bot


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
        ("variant:30it:policy=best", "the policy is greedy or tuned"),
        ("variant:30it:score=best", "the score one of learned, playouts, search, tuned, fourth, deep-play"),
        ("greedy-style:premium=4,risk=1", "unknown key 'risk'"),
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
