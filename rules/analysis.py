"""The evaluation of a position: exact where the solver answers within a budget, else an estimate.

What the analysis board (``/replay``) and ``trumps solve`` show for a position:

* ``exact``: the duel solver settled the position within its budget: the value for the seat to
  act (``1`` win, ``0`` draw, ``-1`` loss), the values of the moves it settled and the best moves.
  The value is exact as soon as it is proven (a winning move found, or a draw with the other
  seat refuted), even if some moves are not settled yet: those are listed as ``unsettled``;
* ``estimate``: the solver gave up (or the game has three or four players, which it does not
  handle): each move's expected score
  from playouts, games played to their end with the greedy-with-noise policy of the search
  players' rollouts (:func:`rules.players.greedy.noisy_move`), from this exact position (every
  hand known, as in a replay, and the repetitions the game has had), labelled with their number;
* ``over``: the game is over; its result;
* ``none``: nothing to evaluate yet (the trumps are chosen blind, then the cards are dealt).

A *score* is what a seat can expect: 1 for a win, ½ for a draw, 0 for a loss, so an
exact value ``v`` is the score ``(v + 1) / 2``; a move's estimated score is its playouts' mean, and
a position's estimate is that of its best move for the seat to act.
Playouts are seeded by the position, so an estimate is the same each time it is asked for.

The solver is told the game's history (:meth:`~rules.players.solver.Solver.set_history`): a position
the game has had twice draws when it comes up again, so its values are the game's own, whatever the
game's repetitions.
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass, field
from typing import Any, Literal

from rules import convert, core
from rules.events import Event, event_dict
from rules.game import Game
from rules.players.greedy import noisy_move
from rules.players.mcts import ROLLOUT_NOISE
from rules.players.solver import Solver, SolverLimit

SOLVER_SECONDS = 0.5
"""The board's budget for the exact value of one position (``trumps solve`` has its own, ``--seconds``)."""

PLAYOUTS = 240
"""Playouts of an estimate, shared out among the moves (at least :data:`PLAYOUTS_PER_MOVE` each)."""

PLAYOUTS_PER_MOVE = 24

PLAYOUT_PLIES = 10_000
"""A playout still going after this many plies is counted a draw (noisy greedy play ends a duel within a few hundred
plies as a rule, and every game ends: a third occurrence of a position draws)."""

PLAYOUT_NOISE = ROLLOUT_NOISE
"""How often a playout plays a random move instead of the greedy one: as MCTS's rollouts do."""

Kind = Literal["exact", "estimate", "over", "none"]

ReasonCode = Literal["", "blind", "not_dealt", "duel_only", "not_asked", "budget"]
"""Why there is no exact value, for a program (``reason_code``; ``reason`` says it in English): the trumps are
chosen blind, the cards are not dealt, three or four players, no solver asked, or the solver's budget spent."""


@dataclass(frozen=True)
class MoveValue:
    """One legal move and its value: exact (``1``, ``0``, ``-1``), or an estimated score in [0, 1]."""

    move: Event
    value: float
    samples: int = 0


@dataclass(frozen=True)
class Evaluation:
    """A position's evaluation for the seat to act (``seat``); see the module's description of ``kind``."""

    kind: Kind
    seat: int | None
    scores: list[float]
    """Each seat's score (1 win, ½ draw, 0 loss): exact, estimated, or the result of a finished game."""
    value: int | None = None
    """``exact`` only: the value for ``seat``."""
    moves: list[MoveValue] = field(default_factory=list)
    samples: int = 0
    """``estimate`` only: how many playouts the scores come from."""
    reason: str = ""
    """Why the value is an estimate, or why there is nothing to evaluate."""
    reason_code: ReasonCode = ""
    """The same as a code (see :data:`ReasonCode`)."""
    pick: Event | None = None
    """``exact`` only: the solver's choice among the best moves (among wins, the quickest)."""
    unsettled: list[Event] = field(default_factory=list)
    """``exact`` only: the moves whose values the solver had not settled within its budget."""

    @property
    def best(self) -> list[Event]:
        """The settled moves of best value for the seat to act (the solver's pick first).

        Empty only in the rare exact evaluation where no move of the position's value was settled.
        """
        if not self.moves:
            return []
        top = max(entry.value for entry in self.moves)
        tied = [entry.move for entry in self.moves if entry.value == top]
        return sorted(tied, key=lambda move: move != self.pick)

    def as_dict(self) -> dict[str, Any]:
        """As JSON for the board and ``trumps solve --json``."""
        result: dict[str, Any] = {"kind": self.kind, "seat": self.seat, "scores": self.scores}
        if self.kind == "exact":
            result["value"] = self.value
        if self.kind == "estimate":
            result["samples"] = self.samples
        if self.kind in ("exact", "estimate"):
            result["best"] = [event_dict(move) for move in self.best]
            result["moves"] = [
                {"move": event_dict(entry.move), "value": entry.value}
                | ({"samples": entry.samples} if self.kind == "estimate" else {})
                for entry in self.moves
            ]
        if self.unsettled:
            result["unsettled"] = [event_dict(move) for move in self.unsettled]
        if self.reason:
            result["reason"] = self.reason
            result["reason_code"] = self.reason_code
        return result


def evaluate(game: Game, solver: Solver | None = None, playouts: int = PLAYOUTS) -> Evaluation:
    """Evaluate the position at the end of ``game``; ``solver`` (with its budget) tries the exact value first.

    Without a solver, or with three or four players, the evaluation is an estimate.
    """
    players = game.rules.players
    outcome = game.outcome
    if outcome is not None:
        if outcome.result == "draw":
            return Evaluation("over", None, [0.5] * players)
        return Evaluation("over", None, [0.0 if seat == outcome.loser else 1.0 for seat in range(players)])
    if game.phase in ("trump_choice", "deal"):
        if game.phase == "trump_choice":
            return Evaluation("none", game.to_act, [], reason="the trumps are chosen blind", reason_code="blind")
        return Evaluation("none", game.to_act, [], reason="the cards are not dealt yet", reason_code="not_dealt")
    real = game.core_state()  # with the repetitions the game has had
    events = {move: event for event in game.legal_moves() if (move := convert.move_of(event)) is not None}
    reason = "the solver handles the duel only"
    code: ReasonCode = "duel_only"
    if players == 2:
        reason, code = "no solver asked", "not_asked"
    if players == 2 and solver is not None:
        solver.set_history(real.seen)
        try:
            solution = solver.solve(real)
        except SolverLimit:
            reason, code = f"the solver found no exact value within {_budget(solver)}", "budget"
        else:
            seat = real.to_act
            score = (solution.value + 1) / 2
            scores = [score if other == seat else 1 - score for other in range(players)]
            moves = [MoveValue(events[move], value) for move, value in solution.moves]
            pick = None if solution.best is None else events[solution.best]
            unsettled = [events[move] for move in solution.unsettled]
            return Evaluation("exact", seat, scores, value=solution.value, moves=moves, pick=pick, unsettled=unsettled)
    return _estimate(game, real, events, playouts, reason, code)


def _budget(solver: Solver) -> str:
    if solver.seconds is not None:
        return f"{solver.seconds:g} s"
    return f"{solver.max_nodes} positions"


def _estimate(
    game: Game, state: core.State, events: dict[int, Event], playouts: int, reason: str, code: ReasonCode
) -> Evaluation:
    """Scores from playouts: each legal move is played, then the game is played to its end by the rollout policy."""
    seat = state.to_act
    players = game.rules.players
    rng = random.Random(int.from_bytes(hashlib.sha256(repr(state.key()).encode()).digest()[:8], "big"))
    each = max(PLAYOUTS_PER_MOVE, playouts // max(1, len(events)))
    moves: list[MoveValue] = []
    best: list[float] = []
    for move, event in events.items():
        totals = [0.0] * players
        for _ in range(each):
            work = state.copy()
            core.apply(work, move)
            rewards = playout(work, rng)
            for other in range(players):
                totals[other] += (rewards[other] + 1) / 2
        means = [round(total / each, 3) for total in totals]
        moves.append(MoveValue(event, means[seat], each))
        if not best or means[seat] > best[seat]:
            best = means
    # The seat to act picks its best move: the position is worth what that move is worth.
    return Evaluation("estimate", seat, best, moves=moves, samples=each * len(events), reason=reason, reason_code=code)


def playout(state: core.State, rng: random.Random) -> list[float]:
    """Each seat's result (+1 win, 0 draw, -1 loss) of ``state`` played to its end by the rollout policy.

    To its end, not for MCTS's :data:`~rules.players.mcts.ROLLOUT_PLIES` and then a guess from the hand sizes: an
    estimate says what a seat scores, 1 a win, ½ a draw, 0 a loss."""
    for _ply in range(PLAYOUT_PLIES):
        if state.outcome is not None:
            return core.returns(state)
        core.apply(state, noisy_move(state, rng, PLAYOUT_NOISE))
    return core.returns(state) if state.outcome is not None else [0.0] * state.players
