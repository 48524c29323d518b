"""The ``perfect`` player: exact play wherever its solver settles the duel position, MCTS otherwise.

In the duel the view determines the position (:func:`~rules.players.knowledge.duel_state`).
At every duel position with at most ``solver_cards`` cards in the hands the solver is asked
for the position's exact value within ``solver_seconds``; above that, up to ``probe_cards``,
it gets a shorter try (``probe_seconds``) as long as it has not failed at a position as large
in this game: so exact play starts as early as the solver can afford it. Once the value is
known, a win is played by the proof of lowest height, a draw by a move proven to draw, and a
lost position by MCTS (every move loses against best play, and MCTS keeps the most chances
against an opponent who errs). Where the solver cannot finish, or with three or four players,
MCTS decides: in the duel as ``mcts-learned`` plays (rollouts scored by
:mod:`rules.players.learned_score`), with three or four players as ``mcts``. The solver's table
is kept for the whole game, so once a win is proven every later move of the win is read from
the table and the proof height falls with each move (see :mod:`rules.players.solver`, point 3):
a proven win is never let go.

A view holds no count of the positions the game has had. A caller that has the game tells the
player (:meth:`PerfectPlayer.set_history`, :func:`~rules.players.base.choose_move`), and the
solver then takes a position the game has had twice for the draw its next occurrence is
(:meth:`~rules.players.solver.Solver.set_history`): its values are the game's own. Told
nothing, it counts repetitions from the position it is asked about.

The player announces a proven forced win once: :meth:`PerfectPlayer.announcement` gives
:data:`FORCED_WIN` once, after the move at which the win was first proven, for an interface
to say in its language.
"""

from __future__ import annotations

import random
from collections.abc import Mapping

from rules import core
from rules.events import Event
from rules.players import learned_score
from rules.players.knowledge import duel_state, event_of
from rules.players.mcts import SECONDS, Rollouts, search
from rules.players.random_player import choose_trump
from rules.players.solver import Solver, SolverLimit, hand_cards
from rules.state import View

FORCED_WIN = "forced_win"
"""The announcement of a proven forced win (a code: each interface words it in its language)."""

SOLVER_CARDS = 14
"""Up to this many cards in the two hands the solver always gets its full budget."""

SOLVER_SECONDS = 2.0
"""The solver's budget a move up to :data:`SOLVER_CARDS` cards (a quarter of it for the shorter tries)."""

PROBE_CARDS = 20
"""Up to this many cards the solver gets a shorter try, until it fails at a position that large."""


class PerfectPlayer:
    """Exact play where the solver settles the duel position within its budget, MCTS (``mcts_seconds``) elsewhere."""

    def __init__(
        self,
        seed: int | None = None,
        solver_cards: int = SOLVER_CARDS,
        solver_seconds: float = SOLVER_SECONDS,
        mcts_seconds: float | None = SECONDS,
        mcts_iterations: int | None = None,
        probe_cards: int = PROBE_CARDS,
        probe_seconds: float | None = None,
        duel_rollouts: Rollouts = learned_score.ROLLOUTS,
    ) -> None:
        self._rng = random.Random(seed)
        self.solver_cards = solver_cards
        self.solver_seconds = solver_seconds
        self.probe_cards = max(probe_cards, solver_cards)
        self.probe_seconds = solver_seconds / 4 if probe_seconds is None else probe_seconds
        self.solver = Solver(seconds=solver_seconds)
        self.mcts_seconds = mcts_seconds
        self.mcts_iterations = mcts_iterations
        self.duel_rollouts = duel_rollouts
        """How MCTS's rollouts end in the duel: scored by the learned score, as ``mcts-learned`` plays."""
        self._game: tuple[object, ...] | None = None
        self._failed_at = self.probe_cards + 1
        self.name = "perfect"
        self.solved_moves = 0
        """Moves made exactly: at positions whose value the solver settled within its budget."""
        self.unsolved_moves = 0
        """Moves at which the solver was asked and ran out of budget, so MCTS chose."""
        self.proven_win = False
        """Whether the solver has proven, at some move of this game, that this player wins."""
        self.last_value: int | None = None
        """The exact value of the last position this player moved in, if the solver settled it."""
        self._announced = False
        self._to_announce = False
        self._seen: Mapping[core.PositionKey, int] = {}

    def announcement(self) -> str | None:
        """:data:`FORCED_WIN` once, after the move at which this player first proved its win in a game, else ``None``.

        Asked after each of its moves, it says so once per game.
        """
        if self._to_announce:
            self._to_announce = False
            return FORCED_WIN
        return None

    def set_history(self, seen: Mapping[core.PositionKey, int]) -> None:
        """How often each position of the game has come up (``State.seen``), for the next :meth:`choose` only.

        Once the player has proven its win, the history it was proven with stays the solver's: the
        proof's lines avoid the positions that were then drawn, repeat no position, and the
        heights fall with every move, so no position of the rest of the proof has come up since,
        and following it repeats none a third time. Telling the solver a newer history would
        empty its table, the proof with it.
        """
        self._seen = seen

    def choose(self, view: View) -> Event:
        seen, self._seen = self._seen, {}
        if view.phase == "trump_choice":
            self._new_game(None)  # even if its trumps turn out as the last game's
            return choose_trump(view, self._rng)
        self.last_value = None
        if view.players == 2:
            state = duel_state(view)
            # The table's keys hold hands, pile, seat and phase; trumps, the cards in play and the
            # rule must_beat must stay the same for its entries to hold. (Within a game the solver
            # bounds its own memory, keeping the proven wins this player steers by.)
            game = (tuple(view.trumps), tuple(view.out_of_play), state.must_beat)
            if game != self._game:
                self._new_game(game)
            move = self._exact_move(state, seen)
            if move is not None:
                return event_of(view, move)
        return event_of(view, search(view, self._rng, self.mcts_iterations, self.mcts_seconds, duel=self.duel_rollouts))

    def _new_game(self, game: tuple[object, ...] | None) -> None:
        """Forget the last game: what was proven, announced and failed at, and the solver's table."""
        self.solver.clear()
        self._game = game
        self.proven_win = self._announced = self._to_announce = False
        self._failed_at = self.probe_cards + 1

    def _exact_move(self, state: core.State, seen: Mapping[core.PositionKey, int]) -> int | None:
        """The solver's move where it settles the position within this move's budget; ``None`` leaves it to MCTS."""
        if not self.proven_win:
            self.solver.set_history(seen)
        cards = hand_cards(state)
        if cards <= self.solver_cards or self.proven_win:
            # After a proven win every position of the proof is in the table, whatever the cards
            # in hand (a take adds cards): the solver must keep playing it, or the win could slip.
            self.solver.seconds = self.solver_seconds
        elif cards < self._failed_at:
            self.solver.seconds = self.probe_seconds
        else:
            return None
        try:
            value = self.solver.value(state)
            self.last_value = value
            move = None if value == -1 else self.solver.best_move(state)
        except SolverLimit:
            self.unsolved_moves += 1
            if cards > self.solver_cards:
                self._failed_at = cards
            return None
        self.solved_moves += 1
        if value == 1 and not self._announced:
            self.proven_win = self._announced = self._to_announce = True
        return move
