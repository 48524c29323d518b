"""``trumps arena BOT BOT [BOT…] --games N --seed S [--players K] [--json]``: bots play each other.

See :mod:`rules.players.arena` for the seatings, mirrored deals and figures, and
:mod:`rules.players.levels` for the bot specifications (``random``, ``greedy``,
``mcts:0.2``, ``mcts:300it``, ``perfect``, ...).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from rules.defaults import MAX_PLAYERS, MIN_PLAYERS, PLAYERS
from rules.locale import N_, Message, _, english, ngettext, number, percent, said

if TYPE_CHECKING:
    from rich.table import Table

    from rules.players.arena import ArenaResult, Moves, PairResult

# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_(
    "Play a round-robin between bots on mirrored deals; "
    "print wins, draws and losses with their intervals (95%), and Elo."
)


MAX_GAMES = 100_000
"""The most games a pair: each is a task made before the first is played (and at a game a second, a day's run)."""


def arena(
    bots: Annotated[list[str], typer.Argument(help=N_("Two or more bots, e.g. random greedy mcts:0.2 perfect."))],
    games: Annotated[
        int,
        typer.Option("--games", min=1, max=MAX_GAMES, help=N_("Games per pair (rounded up to whole mirrored sets).")),
    ] = 20,
    seed: Annotated[int, typer.Option("--seed", help=N_("Seed of the deals and the bots."))] = 0,
    players: Annotated[
        int, typer.Option("--players", min=MIN_PLAYERS, max=MAX_PLAYERS, help=N_("Players per game."))
    ] = PLAYERS,
    jobs: Annotated[
        int,
        typer.Option(
            "--jobs", min=1, help=N_("Games played in parallel processes (at most one a game, and one a processor).")
        ),
    ] = 1,
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the figures as one JSON object."))] = False,
) -> None:
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    from rules.players.arena import check_bots, run_arena, tasks

    try:
        check_bots(bots)
        for spec in bots:
            _check_noise(spec)
    except ValueError as error:
        typer.echo(said(error), err=True)
        raise typer.Exit(1) from None
    total = len(tasks(bots, games, seed, players))
    jobs = processes(jobs, total)
    console = Console(stderr=True)
    columns = (TextColumn(_("arena")), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn())
    with Progress(*columns, console=console, transient=True) as progress:
        bar = progress.add_task("games", total=total)
        result = run_arena(bots, games, seed, players, jobs, lambda done: progress.update(bar, completed=done))
    if as_json:
        typer.echo(json.dumps(result.as_dict() | {"elo_bounds": elo_bounds(result)}))
    else:
        Console().print(_table(result))


def processes(jobs: int, games: int, processors: int | None = None) -> int:
    """The processes worth starting for ``jobs`` asked: no more than the games to play and the processors.

    >>> processes(100, 2, processors=8), processes(4, 40, processors=2), processes(3, 40, processors=None) >= 1
    (2, 2, True)
    """
    if processors is None:
        processors = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, min(jobs, games, processors))


def _table(result: ArenaResult) -> Table:
    from rich.table import Table

    from rules.players.arena import elo_ratings

    title = ngettext("arena: {players} player, seed {seed}", "arena: {players} players, seed {seed}", result.players)
    table = Table(title=title.format(players=result.players, seed=result.seed))
    table.add_column("A", justify="left")
    table.add_column("B", justify="left")
    for name in (_("A wins"), _("draws"), _("B wins")):
        table.add_column(name, justify="right")
    # A number and its % are one word: rich would break the line at the no-break space between them.
    table.add_column(_("A win rate (95% CI)"), justify="right", no_wrap=True)
    table.add_column(_("A score"), justify="right")
    for pair in result.pairs:
        rate, low, high = pair.win_rate()
        table.add_row(
            pair.a,
            pair.b,
            str(pair.a_wins),
            str(pair.draws),
            str(pair.b_wins),
            f"{percent(rate, 1)} ({percent(low, 1)}–{percent(high, 1)})",
            number(pair.score, 3),
        )
    ratings = elo_ratings(result.bots, result.pairs)
    bounds = elo_bounds(result)
    shown = []
    for bot, value in ratings.items():
        bound = bounds.get(bot)
        if bound is None:
            shown.append(f"{bot} {number(value, sign=True)}")
        elif "at_least" in bound:
            shown.append(f"{bot} ≥ {number(float(bound['at_least']), sign=True)}")
        else:
            shown.append(f"{bot} ≤ {number(float(bound['at_most']), sign=True)}")
    why = [sweep_reason(*sweep) for sweep in _sweeps(result)]
    elo = _("Elo: {ratings}").format(ratings=", ".join(shown))
    exact = [exact_play_line(bot, moves) for bot, moves in result.exact_play().items()]
    table.caption = elo + "".join(f"\n{line}" for line in [*dict.fromkeys(why), *exact])
    return table


def exact_play_line(bot: str, moves: Moves) -> str:
    """How often a bot with a solver played exactly, in the language spoken.

    >>> from rules.players.arena import Moves
    >>> exact_play_line("perfect", Moves(610, exact=143, unsettled=28))
    'perfect: played exactly at 143 of 610 moves (solver asked at 171; 28 not settled within its budget)'
    """
    assert moves.exact is not None and moves.unsettled is not None
    return ngettext(
        "{bot}: played exactly at {exact} of {moves} move "
        "(solver asked at {asked}; {unsettled} not settled within its budget)",
        "{bot}: played exactly at {exact} of {moves} moves "
        "(solver asked at {asked}; {unsettled} not settled within its budget)",
        moves.moves,
    ).format(
        bot=bot,
        exact=number(moves.exact),
        moves=number(moves.moves),
        asked=number(moves.exact + moves.unsettled),
        unsettled=number(moves.unsettled),
    )


def _check_noise(spec: str) -> None:
    """Refuse a greedy bot's noise outside 0 to 1 (it is the chance of a random move)."""
    name, _colon, parameter = spec.partition(":")
    if name != "greedy" or not parameter:
        return
    noise = float(parameter)  # check_bots has refused what is not a number
    if not 0 <= noise <= 1:
        message = N_("bot {spec!r}: the noise {noise} is out of range: a chance of a random move is 0 to 1")
        raise ValueError(Message(message, spec=spec, noise=parameter))


def _elo(score: float) -> float:
    """The Elo difference that makes ``score`` the expected score (0 < score < 1)."""
    return 400 * math.log10(score / (1 - score))


def elo_bounds(result: ArenaResult) -> dict[str, dict[str, float | str]]:
    """Bounds in place of ratings for bots that won or lost every game of a pair.

    A clean sweep has no finite Elo estimate (any difference, however large, fits it better than a
    smaller one), so such a bot's rating is given as a bound: the lower end of the 95% interval of
    the winner's score, taken as an Elo difference from the other bot's rating.
    """
    from rules.players.arena import elo_ratings

    ratings = elo_ratings(result.bots, result.pairs)
    bounds: dict[str, dict[str, float | str]] = {}
    for winner, loser, games, low in _sweeps(result):
        gap = round(_elo(low), 1)
        with english():  # a field of --json
            why = sweep_reason(winner, loser, games, low)
        if winner == result.bots[0]:
            bounds[loser] = {"at_most": round(ratings[winner] - gap, 1), "why": why}
        else:
            bounds[winner] = {"at_least": round(ratings[loser] + gap, 1), "why": why}
    return bounds


def _sweeps(result: ArenaResult) -> Iterator[tuple[str, str, int, float]]:
    """Each pair that one bot won every game of: the winner, the loser, the games, the low end of the winner's score."""
    from rules.players.arena import PairResult

    for pair in result.pairs:
        winner, loser = _sweep(pair)
        if winner is not None and loser is not None:
            _rate, low, _high = PairResult(winner, loser, a_wins=pair.games).win_rate()
            yield winner, loser, pair.games, low


def sweep_reason(winner: str, loser: str, games: int, low: float) -> str:
    """Why a bot's rating is given as a bound, in the language spoken."""
    return ngettext(
        "{winner} won the {games} game against {loser}: a clean sweep has no finite Elo estimate, "
        "so the rating shown is a bound from the {confidence} interval of the score (at least {low})",
        "{winner} won all {games} games against {loser}: a clean sweep has no finite Elo estimate, "
        "so the rating shown is a bound from the {confidence} interval of the score (at least {low})",
        games,
    ).format(winner=winner, loser=loser, games=games, confidence=percent(0.95), low=percent(low, 1))


def _sweep(pair: PairResult) -> tuple[str | None, str | None]:
    if pair.games and pair.draws == 0 and pair.b_wins == 0:
        return pair.a, pair.b
    if pair.games and pair.draws == 0 and pair.a_wins == 0:
        return pair.b, pair.a
    return None, None
