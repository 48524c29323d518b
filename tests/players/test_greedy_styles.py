"""The greedy player's styles: the ``medium`` level plays the tuned one, MCTS's rollouts and the solver the classic."""

from __future__ import annotations

import random

from benchmarks.learned_score import dealt
from rules import core
from rules.players.arena import play_game
from rules.players.greedy import CLASSIC, TUNED, GreedyPlayer, heuristic_move, noisy_move, style
from rules.players.levels import make_player, parse_bot


def _duel(deal: int, styles: tuple[object, object]) -> float:
    """Seat 0's result in the duel dealt from ``deal``, each seat playing the greedy move of its style."""
    state = dealt(deal)
    while state.outcome is None:
        core.apply(state, heuristic_move(state, state.hands, styles[state.to_act]))  # type: ignore[arg-type]
    return core.returns(state)[0]


def test_the_tuned_style_beats_the_classic_one_in_most_duels_with_seats_swapped() -> None:
    results = [_duel(deal, (TUNED, CLASSIC)) for deal in range(40)] + [
        -_duel(deal, (CLASSIC, TUNED)) for deal in range(40)
    ]
    wins, losses = results.count(1.0), results.count(-1.0)
    assert wins > 2 * losses  # 80.3% of 6,000 (docs/players.md): 40 deals are far from the line


def test_the_default_style_is_the_classic_one_and_a_style_of_its_numbers_is_equal() -> None:
    assert style() == CLASSIC and style(premium=4, shed=1.0) == TUNED
    rng, state, differ = random.Random(2), dealt(7), 0
    while state.outcome is None:
        assert heuristic_move(state, state.hands) == heuristic_move(state, state.hands, CLASSIC)
        differ += heuristic_move(state, state.hands, TUNED) != heuristic_move(state, state.hands)
        core.apply(state, noisy_move(state, rng, 0.2))
    assert differ  # the tuned style is not the classic one under another name


def test_medium_plays_the_tuned_style_and_the_arena_names_both() -> None:
    medium = make_player("medium", seed=1)
    assert isinstance(medium, GreedyPlayer) and medium.style == TUNED
    assert parse_bot("greedy-tuned", seed=1).name == "greedy-tuned"
    assert parse_bot("greedy-tuned:0.25", seed=1).name == "greedy-tuned:0.25"
    classic = parse_bot("greedy", seed=1)
    assert isinstance(classic, GreedyPlayer) and classic.style == CLASSIC and classic.name == "greedy"
    easy = make_player("easy", seed=1)
    assert isinstance(easy, GreedyPlayer) and easy.style == CLASSIC and easy.noise > 0


def test_the_medium_level_plays_to_the_end_with_three_players() -> None:
    game = play_game([make_player("medium", seed=seat) for seat in range(3)], seed=4)  # an illegal move is refused
    assert game.is_over() and game.outcome is not None
