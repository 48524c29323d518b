"""Players: anything that, given one seat's :class:`~rules.state.View`, picks one of its legal moves.

A player is handed only its own seat's view, never the hidden hands, so every bot is
fair by construction. :func:`make_player` builds the opponent for a difficulty level,
:func:`parse_bot` a bot of the arena, and :func:`hint` suggests a move.

>>> from rules.game import Game
>>> from rules.options import RuleSet
>>> game = Game(RuleSet(players=2), seed=3)
>>> bots = [make_player("medium", seed=1), make_player("easy", seed=2)]
>>> while not game.is_over():
...     _ = game.push(game.sample_deal() if game.phase == "deal" else bots[game.to_act].choose(game.view(game.to_act)))
>>> game.outcome is not None
True
"""

from rules.players.base import Player
from rules.players.greedy import GreedyPlayer
from rules.players.levels import LEVELS, Advice, advice, hint, make_player, parse_bot
from rules.players.mcts import MCTSPlayer
from rules.players.perfect import PerfectPlayer
from rules.players.random_player import RandomPlayer
from rules.players.solver import Solution, Solver, SolverLimit

__all__ = [
    "LEVELS",
    "Advice",
    "GreedyPlayer",
    "MCTSPlayer",
    "PerfectPlayer",
    "Player",
    "RandomPlayer",
    "Solution",
    "Solver",
    "SolverLimit",
    "advice",
    "hint",
    "make_player",
    "parse_bot",
]
