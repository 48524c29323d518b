"""What a perfect move order would save the solver: how far better guidance at the winning seat's moves could go.

Run ``python -m benchmarks.move_order [--cards 14] [--seed 1] [--only I,J,...] [--max-nodes N] [--exact-only]
[--phases lead,second,respond] [--wrong F]``.

Each position of the solver benchmark's sample (the same options choose it) is solved once. The proof
the solver found is read off its table (:meth:`~rules.players.solver.Solver.proof_strategy`: at the winning
seat's positions the winning move of lowest height, the ``perfect`` player's move), and the position is
solved again by a fresh solver told those moves in advance: wherever the winning seat is to act at a
position of that proof (at the ``--phases`` asked), the exact search tries the proof's move first
(:attr:`~rules.players.solver.Solver.first_moves`). Both node counts are printed, with how often the greedy
choice, the move the search tries first on its own, is the proof's move, by phase. Draws and positions not
settled within ``--max-nodes`` have no proof and are passed over. With ``--wrong F`` a share ``F`` of the moves
told (drawn at random, seeded by ``--seed`` and the position's number) are another legal move: a guide that errs.

It is a bound, not a method: the proof's moves are known only once the proof is found. It shows where the
solver's nodes go that a better order could save, and where they do not.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter
from typing import NamedTuple

import rules.native
from benchmarks.solver import add_sample_arguments, chosen_sample
from rules import core
from rules.players.greedy import heuristic_move
from rules.players.solver import Solver, SolverLimit

CHOICE_PHASES = ("lead", "respond", "second")


class Choice(NamedTuple):
    """A position of a proof where the winning seat has more than one move."""

    phase: int
    move: int
    """The proof's move."""
    greedy: int
    """The greedy choice, the move the search tries first on its own (past its first plies)."""
    others: tuple[int, ...]
    """The other legal moves."""


def proof_moves(solver: Solver, state: core.State, seat: int) -> dict[core.PositionKey, Choice]:
    """The winning ``seat``'s positions of the proof in ``solver``'s table where it has a choice."""
    strategy, _ = solver.proof_strategy(state, seat)
    choices = {}
    for key, move in strategy.items():
        if move is None:
            continue
        hands, pile, to_act, phase = core.key_parts(key, state.players)
        position = core.State.from_position(
            state.trumps, [core.moves_of_mask(hand) for hand in hands], pile, to_act, phase, state.must_beat
        )
        others = tuple(other for other in core.legal_moves(position) if other != move)
        if others:
            choices[key] = Choice(phase, move, heuristic_move(position, position.hands), others)
    return choices


class Measured(NamedTuple):
    """One position solved twice: its value, the proof's choices and the nodes without and with them told."""

    value: int
    choices: dict[core.PositionKey, Choice]
    nodes: int
    told_nodes: int


def measure(
    state: core.State, max_nodes: int, told: set[int], exact_only: bool = False, wrong: float = 0.0, seed: str = ""
) -> Measured | None:
    """Solve ``state``, then again with the proof's moves tried first at the ``told`` phases; ``None`` if no proof.

    With ``wrong`` > 0, that share of the choices told (drawn with ``seed``) names another legal move instead, drawn
    at random: a guide that errs.

    Raises :class:`SolverLimit` if the first solve does not settle the value within ``max_nodes``; the second is
    counted as ``max_nodes`` if it does not.
    """
    solver = Solver(max_nodes=max_nodes, proof_numbers=not exact_only)
    value = solver.value(state)
    if value == 0:
        return None
    choices = proof_moves(solver, state, state.to_act if value == 1 else 1 - state.to_act)
    guided = Solver(max_nodes=max_nodes, proof_numbers=not exact_only)
    rng = random.Random(seed)
    guided.first_moves = {
        key: rng.choice(choice.others) if wrong and rng.random() < wrong else choice.move
        for key, choice in choices.items()
        if choice.phase in told
    }
    try:
        same = guided.value(state)
    except SolverLimit:
        return Measured(value, choices, solver.nodes, max_nodes)
    if same != value:
        raise AssertionError(f"{same} with the proof's moves first, {value} without")
    return Measured(value, choices, solver.nodes, guided.nodes)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_sample_arguments(parser)
    parser.add_argument("--max-nodes", type=int, default=3_000_000, help="nodes per position before giving up")
    parser.add_argument("--exact-only", action="store_true", help="the exact Boolean search alone, both times")
    parser.add_argument("--wrong", type=float, default=0.0, help="this share of the moves told are another move")
    parser.add_argument(
        "--phases", default=",".join(CHOICE_PHASES), help="where the proof's moves are told: lead, respond, second"
    )
    args = parser.parse_args()
    names = args.phases.split(",")
    if not set(names) <= set(CHOICE_PHASES):
        parser.error(f"--phases: each of {', '.join(CHOICE_PHASES)}, not {args.phases!r}")
    told = {core.PHASE_NUMBERS[name] for name in names}
    print("path:", "native (rules.native, compiled by mypyc)" if rules.native.active() else "pure Python", flush=True)
    plain_total = told_total = 0
    agree: Counter[int] = Counter()
    choices: Counter[int] = Counter()
    for index, state in chosen_sample(args):
        try:
            measured = measure(state, args.max_nodes, told, args.exact_only, args.wrong, f"{args.seed}/{index}")
        except SolverLimit:
            print(f"{index:3}  not settled within {args.max_nodes:,} nodes", flush=True)
            continue
        if measured is None:
            print(f"{index:3}  a draw: no proof", flush=True)
            continue
        for choice in measured.choices.values():
            choices[choice.phase] += 1
            agree[choice.phase] += choice.move == choice.greedy
        plain_total += measured.nodes
        told_total += measured.told_nodes
        print(
            f"{index:3}  value {measured.value:2}  {len(measured.choices):6} choices of the winning seat in the proof  "
            f"{measured.nodes:>9} nodes, {measured.told_nodes:>9} with the proof's moves first "
            f"({measured.told_nodes / measured.nodes:.2f})",
            flush=True,
        )
    if plain_total:
        print(
            f"nodes: {plain_total:,}, with the proof's moves first at {args.phases}: {told_total:,} "
            f"({told_total / plain_total:.3f} times)"
        )
    for phase in sorted(choices):
        print(
            f"the greedy choice is the proof's move at {agree[phase]:,} of the winning seat's "
            f"{choices[phase]:,} choices at {core.PHASE_NAMES[phase]} ({agree[phase] / choices[phase]:.1%})"
        )


if __name__ == "__main__":
    main()
