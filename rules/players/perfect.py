"""The ``perfect`` player: the exact solver when the duel position is small enough, MCTS otherwise.

In the duel the view determines the position (:func:`~rules.players.knowledge.duel_state`).
When the hands hold at most ``solver_cards`` cards the solver is asked for the best move
within ``solver_seconds``; if it cannot finish, or the position is larger, or there are
three or four players, MCTS decides. The solver's table is kept for the whole game, so once
a win is proven every later move of the win is read from the table and the proof height
falls with each move (see :mod:`rules.players.solver`, point 3): a proven win is never let go.
"""

from __future__ import annotations

import random

from rules.events import Event
from rules.players.knowledge import duel_state, event_of
from rules.players.mcts import search
from rules.players.random_player import choose_trump
from rules.players.solver import Solver, SolverLimit, hand_cards
from rules.state import View


class PerfectPlayer:
    """Solver in small duel positions, MCTS (``mcts_seconds`` per move) everywhere else."""

    def __init__(
        self,
        seed: int | None = None,
        solver_cards: int = 12,
        solver_seconds: float = 2.0,
        mcts_seconds: float | None = 0.5,
        mcts_iterations: int | None = None,
    ) -> None:
        self._rng = random.Random(seed)
        self.solver_cards = solver_cards
        self.solver = Solver(seconds=solver_seconds)
        self.mcts_seconds = mcts_seconds
        self.mcts_iterations = mcts_iterations
        self._game: tuple[object, ...] | None = None
        self.name = "perfect"
        self.solved_moves = 0
        """Moves the solver chose (positions it settled within its budget)."""
        self.unsolved_moves = 0
        """Moves at which the solver was asked and ran out of budget, so MCTS chose."""
        self.proven_win = False
        """Whether the solver has proven, at some move of this game, that this player wins."""

    def choose(self, view: View) -> Event:
        if view.phase == "trump_choice":
            return choose_trump(view, self._rng)
        if view.players == 2:
            state = duel_state(view)
            # The table's keys hold hands, pile, seat and phase; trumps, the cards in play and the
            # rule must_beat must stay the same for its entries to hold. (Within a game the solver
            # bounds its own memory, keeping the proven wins this player steers by.)
            game = (tuple(view.trumps), tuple(view.out_of_play), state.must_beat)
            if game != self._game:
                self.solver.clear()
                self._game = game
                self.proven_win = False
            if hand_cards(state) <= self.solver_cards:
                try:
                    self.proven_win = self.proven_win or self.solver.value(state) == 1
                    move = self.solver.best_move(state)
                except SolverLimit:
                    self.unsolved_moves += 1
                else:
                    self.solved_moves += 1
                    return event_of(view, move)
        return event_of(view, search(view, self._rng, self.mcts_iterations, self.mcts_seconds))
