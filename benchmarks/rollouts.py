"""How long should MCTS's rollouts be? Play MCTS against MCTS, one rollout length against another.

Run ``python -m benchmarks.rollouts [--plies 30] [--against 120] [--seconds 0.2] [--deals 10]
[--seed 1] [--players 2] [--jobs 1]``.

Both sides are :class:`~rules.players.mcts.MCTSPlayer` with the same time per move; they differ
only in how many plies a rollout plays before it scores the hand sizes. Each seeded deal is played
in every seating of the pair, as ``trumps arena`` plays it (:func:`~rules.players.arena.seatings`),
so both sides hold every hand. Prints every game (its length in events and its time) and the tally
for ``--plies``: wins, draws and losses, and its win rate with the 95% Wilson interval.

With a time budget the figures depend on the machine's speed: a side that runs fewer iterations
a move is weaker. Both sides share the machine, so what this measures is the exchange of depth
for iterations that the rollout length makes.
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from rules.game import Game
from rules.options import RuleSet
from rules.players.arena import play_out, seatings, wilson, winner
from rules.players.mcts import MCTSPlayer, Rollouts, evaluate


@dataclass(frozen=True)
class Pairing:
    """One game: the deal, the seating (per seat 0 for ``--plies``, 1 for ``--against``) and the settings."""

    deal: int
    seating: tuple[int, ...]
    plies: tuple[int, int]
    seconds: float
    seed: int


def play(pairing: Pairing) -> tuple[Pairing, int, int, float]:
    """Play one game: ``1`` if the ``--plies`` side won, ``-1`` if it lost, ``0`` a draw; its events; its seconds."""
    started = time.perf_counter()
    bots = [
        MCTSPlayer(
            seconds=pairing.seconds,
            seed=pairing.seed * 1_000_003 + pairing.deal * 101 + seat * 11 + side,
            rollouts=Rollouts(pairing.plies[side], evaluate),
        )
        for seat, side in enumerate(pairing.seating)
    ]
    game = Game(RuleSet(players=len(bots)), seed=pairing.seed * 1_000_003 + pairing.deal)
    play_out(game, bots)
    return pairing, winner(game, pairing.seating), len(game.events), time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--plies", type=int, default=30, help="rollout length of the side counted")
    parser.add_argument("--against", type=int, default=120, help="rollout length of the other side")
    parser.add_argument("--seconds", type=float, default=0.2, help="time per move, both sides")
    parser.add_argument("--deals", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    work = [
        Pairing(deal, seating, (args.plies, args.against), args.seconds, args.seed)
        for deal in range(args.deals)
        for seating in seatings(args.players)
    ]
    tally = {1: 0, 0: 0, -1: 0}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for pairing, result, events, seconds in pool.map(play, work):
            tally[result] += 1
            word = {1: "win", 0: "draw", -1: "loss"}[result]
            print(
                f"deal {pairing.deal:3} seating {''.join(map(str, pairing.seating))}: rollouts of {args.plies} "
                f"{word:4}  {events:5} events  {seconds:6.1f} s",
                flush=True,
            )
    games = len(work)
    rate, low, high = wilson(tally[1], games)
    print(
        f"rollouts of {args.plies} against {args.against} plies, {args.seconds:g} s a move, {args.players} players: "
        f"{tally[1]} wins, {tally[0]} draws, {tally[-1]} losses in {games} games; "
        f"win rate {rate:.1%} (95% interval {low:.1%}-{high:.1%})"
    )


if __name__ == "__main__":
    main()
