"""Solver benchmark: how long the exact duel solver takes on random positions.

Run ``python -m benchmarks.solver [--cards 14] [--up-to] [--positions 30] [--limit 30] [--from-games]
[--no-proof-numbers | --no-exact-search] [--solve] [--check SECONDS] [--max-nodes N] [--only I,J,...]
[--both] [--proof] [--playouts N] [--reachable N]``.

Positions are random duel positions with ``--cards`` cards in the two hands together (split
at random, each hand 1–9 cards; with ``--up-to``, the number of cards is drawn for each
position uniformly from 2 to ``--cards``), a pile of 0–3 cards and the rest of the pack out of
play, a random pair of trumps, seat and phase. With ``--from-games`` they are instead the
first position of a seeded greedy-with-noise game at which the hands hold at most
``--cards`` cards (the rest of the pack then lies in the pile, which makes them much
harder). Prints each position's value, time and nodes, then the median time, how many were
solved within ``--limit`` seconds, and nodes per second. ``--no-proof-numbers`` runs the
exact Boolean search alone, ``--no-exact-search`` the proof-number search alone (which leaves open
the draws whose disproofs do not pass their check). ``--solve`` times :meth:`~rules.players.solver.Solver.solve` instead
(what ``trumps solve`` and the analysis board ask: the exact value, then every move's value
within the same budget) and counts the moves it left unsettled. ``--check SECONDS`` solves
every settled position again with the exact Boolean search alone (the solver without the
proof-number search) and reports any disagreement where both settle. ``--max-nodes N`` bounds
each position by nodes as well as by ``--limit``: the node counts do not depend on the
machine's load, so a run with a generous ``--limit`` and ``--max-nodes`` is the same on any
machine (at 140,000 nodes a second, 1,400,000 nodes are 10 s). ``--only 0,7,15`` solves only
those positions of the sample (numbered from 0 in the order printed without it), the same
positions as in the full run: a fixed development set for comparing node counts.

``--proof`` prints, for each position settled as a win or a loss, the size of the proof the solver
found: the positions of the winning seat's strategy that its table holds (at that seat's moves the
winning move of lowest height, as the ``perfect`` player plays it; at the other seat's every move; a
position reached on two lines counted once) and its height in plies. The summary then gives the
nodes searched per position of the proofs: how much of the search went into lines the proof does
not need (a proof found, not the smallest there is).

``--reachable N`` also counts the positions that can arise from each position, up to N: the graph that a
retrograde analysis (endgame tables) would have to build for it, beside the proof the solver finds.

``--playouts N`` also plays N games on from each position by the greedy player with a random move one
time in five (seeded by ``--seed`` and the position's number) and prints how many the seat to act won,
drew and lost, and their median length in plies: what the position is like in play, beside its value.

The first line says which path runs the search: the compiled modules of :mod:`rules.native`
where they are built for these sources (``python -m rules.native``), else the pure-Python
ones (``TRUMPS_NATIVE=0`` asks for these). ``--both`` runs the same sample on the native path
and then on the pure-Python path, in two processes one after the other, and ends with the nodes
a second of each, their ratio, and whether the two agree on every position both settle (value
and node count: the same search on the same rules).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator

import rules.native
from rules import core
from rules.players.greedy import heuristic_move, noisy_move
from rules.players.solver import Solver, SolverLimit, hand_cards


def random_position(rng: random.Random, cards: int) -> core.State:
    pile = rng.randint(0, 3)
    mine = rng.randint(max(1, cards - 9), min(cards - 1, 9))
    drawn = rng.sample(range(36), cards + pile)
    phase = core.LEAD if pile == 0 else rng.choice((core.RESPOND, core.SECOND))
    return core.State.from_position(
        rng.sample(range(4), 2), [drawn[:mine], drawn[mine:cards]], drawn[cards:], rng.randrange(2), phase
    )


def game_position(rng: random.Random, cards: int) -> core.State | None:
    hands = core.deal_pack(2, 0, rng)
    state = core.State.from_position(rng.sample(range(4), 2), hands, (), 1, core.LEAD)
    while state.outcome is None:
        if hand_cards(state) <= cards and state.phase != core.SECOND:
            return core.State.from_position(
                state.trumps, [list(core.moves_of_mask(h)) for h in state.hands], state.pile, state.to_act, state.phase
            )
        move = heuristic_move(state, state.hands) if rng.random() < 0.7 else rng.choice(core.legal_moves(state))
        core.apply(state, move)
    return None


def sample(
    rng: random.Random, cards: int, positions: int, up_to: bool = False, from_games: bool = False
) -> Iterator[tuple[int, core.State]]:
    """The benchmark's positions, numbered from 0: random ones, or from games (``--from-games``).

    With ``up_to`` each position's cards are drawn from 2 to ``cards``.
    """
    index = 0
    while index < positions:
        size = rng.randint(2, cards) if up_to else cards
        state = game_position(rng, size) if from_games else random_position(rng, size)
        if state is not None:
            yield index, state
            index += 1


PLAYOUT_NOISE = 0.2
"""How often a playout (``--playouts``) plays a random legal move instead of the greedy one."""


def playouts(state: core.State, games: int, rng: random.Random) -> tuple[int, int, int, float]:
    """Play ``games`` games on from ``state`` by the greedy player with a random move one time in five.

    Returns the games the seat to act won, drew and lost, and their median length in plies. The
    repetition rule (a third occurrence is a draw) ends every game, so none runs for ever.
    """
    seat = state.to_act
    won = drawn = 0
    lengths = []
    for _ in range(games):
        game = state.copy()
        plies = 0
        while game.outcome is None:
            core.apply(game, noisy_move(game, rng, PLAYOUT_NOISE))
            plies += 1
        result = core.returns(game)[seat]
        won += result > 0
        drawn += result == 0
        lengths.append(plies)
    return won, drawn, games - won - drawn, statistics.median(lengths)


def reachable(state: core.State, limit: int) -> int:
    """How many positions (rules §3.3.1, at a turn's start) can arise from ``state``, counting up to ``limit``.

    A depth-first walk of every line, with the rules' ``apply`` and ``undo``, that goes on from each position
    once: the size of the whole graph a retrograde analysis would have to build, beside the proof the solver finds.
    """
    state = state.copy()
    seen = {state.key()}
    lines = [(None, list(core.legal_moves(state)))]  # the move that led to each position, and its moves left
    while lines and len(seen) < limit:
        token, moves = lines[-1]
        if not moves:
            lines.pop()
            if token is not None:
                core.undo(state, token)
            continue
        token = core.apply(state, moves.pop())
        if state.phase == core.SECOND:  # within a turn: no position is compared there (§3.3.2)
            lines.append((token, list(core.legal_moves(state))))
            continue
        key = state.key()
        if key in seen or state.outcome is not None:
            seen.add(key)
            core.undo(state, token)
            continue
        seen.add(key)
        lines.append((token, list(core.legal_moves(state))))
    return len(seen)


def add_sample_arguments(parser: argparse.ArgumentParser) -> None:
    """The options that choose the positions (:func:`chosen_sample` reads them)."""
    parser.add_argument("--cards", type=int, default=14)
    parser.add_argument("--up-to", action="store_true", help="draw each position's cards from 2 to --cards")
    parser.add_argument("--positions", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--from-games", action="store_true")
    parser.add_argument("--only", default=None, help="solve only these positions of the sample, e.g. 0,7,15")


def chosen_sample(args: argparse.Namespace) -> Iterator[tuple[int, core.State]]:
    """The positions of the sample the options chose (all, or those ``--only`` numbers), with their numbers."""
    only = None if args.only is None else {int(index) for index in args.only.split(",")}
    for index, state in sample(random.Random(args.seed), args.cards, args.positions, args.up_to, args.from_games):
        if only is None or index in only:
            yield index, state


def median_interval(times: list[float], confidence: float = 0.95) -> tuple[float, float, float]:
    """A distribution-free interval for the median time: two order statistics, and how sure it is.

    The median of the population lies between the ``j``-th smallest and the ``j``-th largest of
    ``n`` samples with the probability that a fair coin thrown ``n`` times shows heads ``j`` to
    ``n - j`` times; ``j`` is the largest for which that reaches ``confidence`` (or 1, if none does).
    """
    n = len(times)
    ordered = sorted(times)

    def covers(j: int) -> float:
        return sum(math.comb(n, heads) for heads in range(j, n - j + 1)) / 2**n

    j = 1
    while j + 1 <= n - j - 1 and covers(j + 1) >= confidence:
        j += 1
    return ordered[j - 1], ordered[n - j], covers(j)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    add_sample_arguments(parser)
    parser.add_argument("--limit", type=float, default=30.0, help="seconds per position before giving up")
    alone = parser.add_mutually_exclusive_group()
    alone.add_argument("--no-proof-numbers", action="store_true", help="the exact Boolean search alone")
    alone.add_argument("--no-exact-search", action="store_true", help="the proof-number search alone")
    parser.add_argument("--solve", action="store_true", help="time Solver.solve: the value and every move's value")
    parser.add_argument("--check", type=float, default=0.0, help="seconds to re-solve with the Boolean search alone")
    parser.add_argument("--max-nodes", type=int, default=None, help="nodes per position before giving up")
    parser.add_argument("--both", action="store_true", help="the native path, then the pure-Python one, compared")
    parser.add_argument("--proof", action="store_true", help="print the size of each proof found")
    parser.add_argument(
        "--playouts", type=int, default=0, help="also play this many greedy games (noise 0.2) on from each position"
    )
    parser.add_argument(
        "--reachable", type=int, default=0, help="also count the positions reachable from each, up to this many"
    )
    parser.add_argument("--results", action="store_true", help=argparse.SUPPRESS)  # a last line of JSON, for --both
    args = parser.parse_args()
    if args.both:
        both([argument for argument in sys.argv[1:] if argument != "--both"])
        return
    print("path:", "native (rules.native, compiled by mypyc)" if rules.native.active() else "pure Python", flush=True)
    times: list[float] = []
    counts: list[int] = []
    results: dict[int, tuple[int | None, int]] = {}
    solved = 0
    moves = unsettled = checked = disagreements = 0
    proof_nodes = proof_positions = 0
    for index, state in chosen_sample(args):
        solver = Solver(
            max_nodes=args.max_nodes,
            seconds=args.limit,
            proof_numbers=not args.no_proof_numbers,
            exact_search=not args.no_exact_search,
        )
        start = time.perf_counter()
        note = ""
        try:
            if args.solve:
                solution = solver.solve(state)
                value: int | None = solution.value
                moves += len(solution.moves) + len(solution.unsettled)
                unsettled += len(solution.unsettled)
                note = f"  {len(solution.unsettled)} of {len(solution.moves) + len(solution.unsettled)} moves open"
            else:
                value = solver.value(state)
            solved += 1
        except SolverLimit:
            value = None
        elapsed = time.perf_counter() - start
        if args.check and value is not None:
            try:
                other = Solver(seconds=args.check, proof_numbers=False).value(state)
            except SolverLimit:
                note += "  (check: not settled)"
            else:
                checked += 1
                disagreements += other != value
                note += "  check: agrees" if other == value else f"  CHECK DISAGREES: {other}"
        if args.proof and value in (1, -1):
            positions, proof_height = solver.proof_size(state, state.to_act if value == 1 else 1 - state.to_act)
            proof_nodes += solver.nodes
            proof_positions += positions
            note += f"  proof {positions} positions, height {proof_height}"
        if args.playouts:
            won, drawn, lost, plies = playouts(state, args.playouts, random.Random(f"{args.seed}/{index}"))
            note += f"  playouts: seat to act won {won}, drew {drawn}, lost {lost}; median {plies:g} plies"
        if args.reachable:
            count = reachable(state, args.reachable)
            note += f"  reachable: {'at least ' if count >= args.reachable else ''}{count:,} positions"
        times.append(elapsed)
        counts.append(solver.nodes)
        results[index] = (value, solver.nodes)
        sizes = "+".join(str(h.bit_count()) for h in state.hands)
        print(
            f"{index:3}  hands {sizes:>5} pile {len(state.pile):2}  value {value!s:>4}  {elapsed:7.3f} s"
            f"  {solver.nodes:>9} nodes{note}",
            flush=True,
        )
    nodes_bound = f" and {args.max_nodes:,} nodes" if args.max_nodes else ""
    low, high, sure = median_interval(times)
    size = f"up to {args.cards}" if args.up_to else str(args.cards)
    shown_high = f"> {args.limit:g}" if high >= args.limit else f"{high:.3f}"
    print(
        f"{len(times)} positions, {size} cards in hands: median {statistics.median(times):.3f} s "
        f"({sure:.0%} interval for the median: {low:.3f} to {shown_high} s), "
        f"solved within {args.limit:g} s{nodes_bound}: {solved}/{len(times)}, "
        f"within 1 s: {sum(t <= 1 for t in times)}, "
        f"{sum(counts) / sum(times):,.0f} nodes/s; nodes: median {statistics.median(counts):,.0f}, "
        f"total {sum(counts):,}"
    )
    if args.solve:
        print(f"moves of the settled positions: {moves}, left unsettled within the budget: {unsettled}")
    if args.check:
        print(f"checked with the Boolean search alone: {checked} settled by both, {disagreements} disagreements")
    if args.proof and proof_positions:
        print(
            f"proofs: {proof_positions:,} positions; the search took {proof_nodes / proof_positions:.1f} nodes "
            "per position of the proof"
        )
    if args.results:
        print(json.dumps({"results": results, "nodes_per_second": sum(counts) / sum(times)}))


def both(arguments: list[str]) -> None:
    """Run the benchmark on the native path, then on the pure one, and compare the two runs."""
    runs = {}
    for path in ("1", "0"):
        process = subprocess.Popen(
            [sys.executable, "-m", "benchmarks.solver", *arguments, "--results"],
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, rules.native.ENVIRONMENT: path},
        )
        assert process.stdout is not None
        last = ""
        for line in process.stdout:
            if line.startswith("{"):
                last = line
            else:
                print(line, end="", flush=True)
        if process.wait() != 0:
            raise SystemExit(f"the run with {rules.native.ENVIRONMENT}={path} failed")
        runs[path] = json.loads(last)
    fast, pure = runs["1"], runs["0"]
    settled = [index for index, (value, _) in pure["results"].items() if value is not None]
    common = [index for index in settled if fast["results"][index][0] is not None]
    differ = [index for index in common if fast["results"][index] != pure["results"][index]]
    print(
        f"native {fast['nodes_per_second']:,.0f} nodes/s, pure Python {pure['nodes_per_second']:,.0f} nodes/s: "
        f"{fast['nodes_per_second'] / pure['nodes_per_second']:.2f} times as fast; settled by both: {len(common)}, "
        f"the same value and nodes on {len(common) - len(differ)}"
        + (f"; DIFFERENT on positions {differ}" if differ else "")
    )


if __name__ == "__main__":
    main()
