"""``trumps arena BOT BOT [BOT…] --games N --seed S [--players K] [--json]``: bots play each other.

See :mod:`rules.players.arena` for the seatings, mirrored deals and figures, and
:mod:`rules.players.levels` for the bot specifications (``random``, ``greedy``,
``mcts:0.2``, ``mcts:300it``, ``perfect``, ...).
"""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table

from rules.players.arena import ArenaResult, check_bots, elo_ratings, run_arena, tasks


def arena(
    bots: Annotated[list[str], typer.Argument(help="Two or more bots, e.g. random greedy mcts:0.2 perfect.")],
    games: Annotated[
        int, typer.Option("--games", min=1, help="Games per pair (rounded up to whole mirrored sets).")
    ] = 20,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the deals and the bots.")] = 0,
    players: Annotated[int, typer.Option("--players", min=2, max=4, help="Players per game.")] = 2,
    jobs: Annotated[int, typer.Option("--jobs", min=1, help="Games played in parallel processes.")] = 1,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as one JSON object.")] = False,
) -> None:
    """Play a round-robin between bots on mirrored deals; print wins, draws, losses, 95% intervals and Elo."""
    try:
        check_bots(bots)
    except ValueError as error:
        typer.echo(str(error), err=True)
        raise typer.Exit(1) from None
    total = len(tasks(bots, games, seed, players))
    console = Console(stderr=True)
    columns = (TextColumn("arena"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        bar = progress.add_task("games", total=total)
        result = run_arena(bots, games, seed, players, jobs, lambda done: progress.update(bar, completed=done))
    if as_json:
        typer.echo(json.dumps(result.as_dict()))
    else:
        Console().print(_table(result))


def _table(result: ArenaResult) -> Table:
    table = Table(title=f"arena: {result.players} players, seed {result.seed}")
    for name in ("A", "B", "A wins", "draws", "B wins", "A win rate (95% CI)", "A score"):
        table.add_column(name, justify="left" if name in ("A", "B") else "right")
    for pair in result.pairs:
        rate, low, high = pair.win_rate()
        table.add_row(
            pair.a,
            pair.b,
            str(pair.a_wins),
            str(pair.draws),
            str(pair.b_wins),
            f"{rate:.1%} ({low:.1%}–{high:.1%})",
            f"{pair.score:.3f}",
        )
    ratings = elo_ratings(result.bots, result.pairs)
    table.caption = "Elo: " + ", ".join(f"{bot} {value:+.0f}" for bot, value in ratings.items())
    return table
