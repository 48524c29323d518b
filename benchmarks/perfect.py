"""Does the ``perfect`` player keep every win its solver proves? Play it and count.

Run ``python -m benchmarks.perfect [--opponent greedy] [--deals 20] [--seed 3]``.

The ``perfect`` bot plays each seeded deal twice against ``--opponent`` (seats swapped).
A game counts as *proven won* once the solver has shown, at one of perfect's moves, that
perfect wins from there; such a game must end in perfect's win. Prints every game and the
tally, and how many of the positions the solver was asked about (see
:mod:`rules.players.perfect` for which) it settled within its budget: there perfect played
exactly; MCTS chose the other moves (and the moves of positions proven lost, where every
move is as good as another against best play).
"""

from __future__ import annotations

import argparse

from rules.players.arena import play_game
from rules.players.levels import parse_bot
from rules.players.perfect import SOLVER_SECONDS, PerfectPlayer


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--opponent", default="greedy")
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--solver-seconds", type=float, default=SOLVER_SECONDS)
    args = parser.parse_args()
    tally = {"games": 0, "perfect_wins": 0, "draws": 0, "perfect_losses": 0, "proven": 0, "proven_kept": 0}
    solved = unsolved = 0
    for deal in range(args.deals):
        for seat in (0, 1):
            perfect = PerfectPlayer(seed=deal, solver_seconds=args.solver_seconds)
            opponent = parse_bot(args.opponent, seed=deal + 1000)
            bots = [perfect, opponent] if seat == 0 else [opponent, perfect]
            outcome = play_game(bots, seed=args.seed * 1_000_003 + deal).outcome
            assert outcome is not None
            won = outcome.result == "loss" and outcome.loser != seat
            lost = outcome.result == "loss" and outcome.loser == seat
            tally["games"] += 1
            tally["perfect_wins"] += won
            tally["perfect_losses"] += lost
            tally["draws"] += outcome.result == "draw"
            tally["proven"] += perfect.proven_win
            tally["proven_kept"] += perfect.proven_win and won
            solved += perfect.solved_moves
            unsolved += perfect.unsolved_moves
            result = "win" if won else "loss" if lost else "draw"
            print(
                f"deal {deal:3} seat {seat}: perfect {result:4}  proven win: {perfect.proven_win!s:5}  "
                f"solver settled {perfect.solved_moves} of {perfect.solved_moves + perfect.unsolved_moves} moves asked",
                flush=True,
            )
    print(tally)
    print(f"proven wins kept: {tally['proven_kept']}/{tally['proven']}")
    print(f"the solver settled {solved} of the {solved + unsolved} positions it was asked (the rest went to MCTS)")
    share = tally["perfect_wins"] / tally["games"]
    print(f"perfect won {tally['perfect_wins']} of {tally['games']} games ({share:.0%}) against {args.opponent}")


if __name__ == "__main__":
    main()
