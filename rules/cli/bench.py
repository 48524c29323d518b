"""``trumps bench [--json]``: plies per second of random duels, through the machine and through search.

A third figure is the yardstick the search path is judged by: the duel's rules written
straight into one loop on bit masks, with no table, no state object and no undo token
(:func:`_lean_plies`). The search path and the yardstick take turns in the same process,
in :data:`ROUNDS` rounds each, so that a machine busy with something else slows both alike;
the report gives search / yardstick.
"""

from __future__ import annotations

import json
import random
import time
from typing import Annotated

import typer

from rules.locale import N_, _, number


def _machine_plies(seconds: float, seed: int) -> tuple[int, float]:
    from rules.events import ChooseTrump  # the engine is imported by the command, not by trumps --help
    from rules.game import Game
    from rules.options import RuleSet

    """Random duels through the public API: ``legal_moves()`` and ``push()`` (the machine fires every event)."""
    rng = random.Random(seed)
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(RuleSet(), seed=rng.getrandbits(32))
        game.push(ChooseTrump(seat=1, suit="H"))
        game.push(ChooseTrump(seat=0, suit="S"))
        game.push(game.sample_deal())
        while not game.is_over():
            moves = game.legal_moves()
            game.push(moves[int(rng.random() * len(moves))])
            plies += 1
    return plies, time.perf_counter() - start


def _search_plies(seconds: float, seed: int) -> tuple[int, float]:
    """Random duels on the lean state: ``core.legal_moves()`` and ``core.apply()``, repetition rule included."""
    from rules import core

    rng = random.Random(seed)
    legal_moves, apply, finished = core.legal_moves, core.apply, core.FINISHED
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        hands = core.deal_pack(2, 0, rng)
        state = core.State.from_position((0, 1), hands, (), 1, core.LEAD)
        while state.phase != finished:
            moves = legal_moves(state)
            apply(state, moves[int(rng.random() * len(moves))])
            plies += 1
    return plies, time.perf_counter() - start


def _lean_plies(seconds: float, seed: int) -> tuple[int, float]:
    """Random duels in one hand-written loop: the yardstick, not the rules (a duel ends when a hand empties)."""
    from rules import core
    from rules.cards import mask_of

    rng = random.Random(seed)
    beaters, take_count, moves_of_mask, take, take_bit = (
        core.BEATERS,
        core.take_count,
        core.moves_of_mask,
        core.TAKE,
        core.TAKE_BIT,
    )
    plies, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        hands = [mask_of(hand) for hand in core.deal_pack(2, 0, rng)]
        pile: tuple[int, ...] = ()
        seat, second = 1, False
        seen = {(hands[0], hands[1], pile, seat): 1}
        while True:
            hand = hands[seat]
            responding = bool(pile) and not second
            mask = hand & beaters[seat][pile[-1]] | take_bit if responding else hand
            moves = moves_of_mask(mask)
            move = moves[int(rng.random() * len(moves))]
            plies += 1
            if move == take:
                count = take_count(pile[-1], len(pile), seat)
                for card in pile[-count:]:
                    hand |= 1 << card
                hands[seat] = hand
                pile = pile[:-count]
            else:
                hand ^= 1 << move
                hands[seat] = hand
                pile += (move,)
                if not hand:
                    break
                second = responding
                if second:
                    continue
            seat ^= 1
            key = (hands[0], hands[1], pile, seat)
            count = seen.get(key, 0) + 1
            seen[key] = count
            if count >= core.REPETITIONS_FOR_DRAW:
                break
    return plies, time.perf_counter() - start


ROUNDS = 5
"""How many turns the search path and the yardstick each take (each round a new seed)."""


def _in_turns(seconds: float, seed: int) -> tuple[tuple[int, float], tuple[int, float]]:
    """Plies and seconds of the search path and of the yardstick, run in turns for ``seconds`` each."""
    search = lean = (0, 0.0)
    for round_seed in range(seed, seed + ROUNDS):
        plies, elapsed = _search_plies(seconds / ROUNDS, round_seed)
        search = (search[0] + plies, search[1] + elapsed)
        plies, elapsed = _lean_plies(seconds / ROUNDS, round_seed)
        lean = (lean[0] + plies, lean[1] + elapsed)
    return search, lean


# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_("Play random duels and print plies per second through the machine, the search path and the yardstick.")


def bench(
    seconds: Annotated[float, typer.Option(min=0.01, max=3600, help=N_("Seconds to run each path."))] = 3.0,
    seed: Annotated[int, typer.Option(help=N_("Seed of the random duels."))] = 1,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the figures as one JSON object."))] = False,
) -> None:
    machine_plies, machine_time = _machine_plies(seconds, seed)
    (search_plies, search_time), (lean_plies, lean_time) = _in_turns(seconds, seed)
    search = search_plies / search_time
    lean = lean_plies / lean_time
    figures: dict[str, float] = {
        "machine_plies_per_s": round(machine_plies / machine_time),
        "search_plies_per_s": round(search),
        "lean_plies_per_s": round(lean),
        "search_to_lean": round(search / lean, 2),
    }
    if as_json:
        typer.echo(json.dumps(figures))
        return
    rows = [
        (_("machine (Game.legal_moves + Game.push):"), figures["machine_plies_per_s"]),
        (_("search (core.legal_moves + core.apply):"), figures["search_plies_per_s"]),
        (_("yardstick (one hand-written mask loop):"), figures["lean_plies_per_s"]),
    ]
    width = max(len(label) for label, _rate in rows)
    for label, rate in rows:
        typer.echo(_("{label} {rate} plies/s").format(label=label.ljust(width), rate=number(rate).rjust(9)))
    typer.echo(_("search / yardstick: {ratio}").format(ratio=number(figures["search_to_lean"], 2)))
