"""``trumps solve LOG [--move N | --all] [--json]``: the value of duel positions and of their moves.

The position is the one at the end of LOG, or the one where move N is to be played (``--move``, counted as
``trumps play`` counts them: leads, beats, second cards and takes, from 1); ``--all`` values every move of
the game, the evaluation the analysis board draws (:mod:`rules.analysis`, with the board's budget per
position unless ``--seconds`` says otherwise). Values are the game's, its repetitions counted (see
:mod:`rules.analysis`). Exact values are ``1`` win, ``0`` draw, ``-1`` loss. When the solver finds no exact
value within ``--seconds``, the answer is an estimate from playouts, as on the board.

Moves are listed best first, cards written as the game writes them (``8♥``); ``--json`` keeps the log's
codes (``8H``). While it searches, a line on standard error (at a terminal) says how long and how far.
"""

from __future__ import annotations

import gc
import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from rules.cli.usage import cannot_read, read_log_argument
from rules.locale import N_, _, ngettext, number, percent, pgettext

if TYPE_CHECKING:
    from rules.analysis import Evaluation, MoveValue
    from rules.events import Event
    from rules.game import Game
    from rules.players.solver import Solver

WORDS = {1: "win", 0: "draw", -1: "loss"}
"""An exact value in words (the English of ``--json``'s ``value``)."""

DEFAULT_SECONDS = 60.0
"""The budget for the exact value of one position (``--all`` has the board's, per position)."""

# The line about the seat to act when the value is exact, and a move's value, for each value.
_EXACT = {
    1: N_("seat {seat} to act: win ({value})"),
    0: N_("seat {seat} to act: draw ({value})"),
    -1: N_("seat {seat} to act: loss ({value})"),
}


# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_(
    "Solve a duel position of LOG for the seat to act: its value, a best move and every move's value, best first.\n"
    "\n"
    "The position is the end of LOG, or where move N is to be played (--move N); --all values every move of the\n"
    "game as the analysis board does. Without an exact value within --seconds, each move's winning chance is\n"
    "estimated from playouts."
)


def solve(
    log: Annotated[str, typer.Argument(help=N_("The log file, or - for standard input."), show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help=N_("Print the result as one JSON object."))] = False,
    move: Annotated[
        int | None,
        typer.Option(
            "--move", min=1, help=N_("The position where this move is to be played (1 the first move of the game).")
        ),
    ] = None,
    all_moves: Annotated[
        bool,
        typer.Option("--all", help=N_("Value every move of the game: the position before it and the move played.")),
    ] = False,
    seconds: Annotated[
        float | None,
        typer.Option(
            "--seconds",
            min=0.01,
            help=N_("Time for the exact value of a position; after it, an estimate."),
            show_default=N_("60, and the analysis board's half second a position with --all"),
        ),
    ] = None,
    playouts: Annotated[
        int | None,
        typer.Option(
            min=1,
            help=N_("Playouts of an estimate, shared among the moves (at least 24 a move)."),
            show_default=N_("as the analysis board"),
        ),
    ] = None,
) -> None:
    from rules.analysis import PLAYOUTS, SOLVER_SECONDS
    from rules.log import LogError
    from rules.native import build_in_background
    from rules.players.solver import Solver

    if move is not None and all_moves:
        typer.echo(_("--move and --all: choose one"), err=True)
        raise typer.Exit(2)  # a wrong command line, as for every command
    try:
        game = read_log_argument(log)
    except OSError as error:
        _fail(cannot_read(log, error))
    except LogError as error:
        _fail(str(error))  # a line of the log format (§L6), English as trumps replay says it
    players = game.rules.players
    if players != 2:
        _fail(
            ngettext(
                "the solver handles the duel only, and this log has {count} player",
                "the solver handles the duel only, and this log has {count} players",
                players,
            ).format(count=players)
        )
    build_in_background()  # later runs search twice as fast
    count = playouts if playouts is not None else PLAYOUTS
    if all_moves:
        _every_move(game, Solver(seconds=seconds or SOLVER_SECONDS), count, as_json)
        return
    if move is not None:
        game = _before_move(game, move)
    if game.is_over():
        _fail(_("the game is over: there is no move to solve"))
    if game.phase == "trump_choice":
        _fail(_("there is no position to solve yet: the log ends before the trumps are chosen"))
    if game.phase == "deal":
        _fail(_("there is no position to solve yet: the log ends before the deal"))
    budget = seconds or DEFAULT_SECONDS
    solver = Solver(seconds=budget)
    evaluation = _searching(solver, game, count, _("searching"))
    if as_json:
        typer.echo(json.dumps(result(evaluation) | ({} if move is None else {"move": move})))
        return
    _print(evaluation, budget)


def _print(evaluation: Evaluation, seconds: float) -> None:
    seat = evaluation.seat
    if evaluation.kind == "exact":
        assert evaluation.value is not None
        typer.echo(_(_EXACT[evaluation.value]).format(seat=seat, value=f"{evaluation.value:+d}"))
    else:
        assert seat is not None
        typer.echo(
            ngettext(
                "seat {seat} to act: no exact value within {seconds} s; "
                "estimate: a score of about {score} (1 a win, ½ a draw) from {count} playout",
                "seat {seat} to act: no exact value within {seconds} s; "
                "estimate: a score of about {score} (1 a win, ½ a draw) from {count} playouts",
                evaluation.samples,
            ).format(
                seat=seat,
                seconds=number(seconds, None),
                score=percent(evaluation.scores[seat]),
                count=evaluation.samples,
            )
        )
    if evaluation.best:
        typer.echo(_("best: {move}").format(move=describe(evaluation.best[0])))
    rows = [(describe(entry.move), _value(entry.value, evaluation.kind == "exact")) for entry in best_first(evaluation)]
    rows += [(describe(move), _unsettled()) for move in evaluation.unsettled]  # after the settled ones
    width = max([12, *(len(text) for text, _value_text in rows)])
    for text, value_text in rows:
        typer.echo(f"  {text:<{width}} {value_text}")


def _before_move(game: Game, move: int) -> Game:
    """The game up to where move ``move`` is to be played (``move`` one past the last: the end of the log)."""
    from rules.game import Game

    moves = [index for index, event in enumerate(game.events) if _is_move(event)]
    if move > len(moves) + 1:
        _fail(
            ngettext(
                "--move {move}: the log has {count} move (--move 1 to {last})",
                "--move {move}: the log has {count} moves (--move 1 to {last})",
                len(moves),
            ).format(move=move, count=len(moves), last=len(moves) + 1)
        )
    end = moves[move - 1] if move <= len(moves) else len(game.events)
    return Game.from_events(game.header, game.events[:end])


def _same(one: Event, other: Event) -> bool:
    """The same move, whatever the optional fields say (a log may leave out a take's ``count``)."""
    return (one.type, getattr(one, "seat", None), getattr(one, "card", None)) == (
        other.type,
        getattr(other, "seat", None),
        getattr(other, "card", None),
    )


def _is_move(event: Event) -> bool:
    return event.type in ("lead", "beat", "second", "take")


def _every_move(game: Game, solver: Solver, playouts: int, as_json: bool) -> None:
    """``--all``: for each move of the game, the position before it evaluated, and the move played valued."""
    from rules.events import event_dict
    from rules.game import Game

    played = [(index, event) for index, event in enumerate(game.events) if _is_move(event)]
    if not played:
        _fail(_("the log has no move yet: there is nothing to value"))
    answers: list[dict[str, Any]] = []
    rows: list[tuple[int, Event, Evaluation]] = []
    for step, (index, event) in enumerate(played, start=1):
        before = Game.from_events(game.header, game.events[:index])
        label = _("move {move} of {count}").format(move=step, count=len(played))
        evaluation = _searching(solver, before, playouts, label)
        rows.append((step, event, evaluation))
        answers.append({"move": step, "played": event_dict(event), "evaluation": result(evaluation)})
    if as_json:
        typer.echo(json.dumps({"moves": answers}))
        return
    headings = (_("move"), _("seat"), _("played"), _("its value"), _("best"))
    lines = []
    for step, event, evaluation in rows:
        exact = evaluation.kind == "exact"
        played_value = next((entry.value for entry in evaluation.moves if _same(entry.move, event)), None)
        top = max((entry.value for entry in evaluation.moves), default=None)
        shown = _unsettled() if played_value is None else _value(played_value, exact)
        best = ""
        if evaluation.best and top is not None and played_value != top:
            best = f"{describe(evaluation.best[0])}: {_value(top, exact)}"
        lines.append((str(step), str(evaluation.seat), describe(event), shown, best))
    widths = [max(len(row[column]) for row in [headings, *lines]) for column in range(4)]
    for row in [headings, *lines]:
        cells = [
            row[0].rjust(widths[0]),
            *(cell.ljust(width) for cell, width in zip(row[1:4], widths[1:], strict=True)),
        ]
        typer.echo("  ".join([*cells, row[4]]).rstrip())


class _Progress:
    """The line on standard error while a position is searched: what, for how long, and how many positions."""

    def __init__(self, solver: Solver, what: str) -> None:
        import time

        self.solver, self.what, self.clock, self.started = solver, what, time.monotonic, time.monotonic()

    def __rich__(self) -> str:
        elapsed = self.clock() - self.started
        return _("{what}: {seconds} s, {count} positions").format(
            what=self.what, seconds=number(elapsed, 0), count=number(self.solver.nodes)
        )


def _searching(solver: Solver, game: Game, playouts: int, what: str) -> Evaluation:
    """:func:`rules.analysis.evaluate` with a progress line on standard error (at a terminal only)."""
    from rich.console import Console

    from rules.analysis import evaluate

    console = Console(stderr=True)
    if not console.is_terminal:
        evaluation = evaluate(game, solver, playouts)
    else:
        with console.status(_Progress(solver, what), spinner="dots"):
            evaluation = evaluate(game, solver, playouts)
    # The positions the search stored (up to a million) are only freed with the process: a pass of the
    # cyclic collector over them, at the latest when the process ends, took 1.7 s after a 10 s search had
    # its answer. Frozen, the collector never looks at them again (refcounting still frees what is dropped).
    gc.freeze()
    return evaluation


def best_first(evaluation: Evaluation) -> list[MoveValue]:
    """The moves whose values are known, best first for the seat to act: of equal values the best move named (the
    solver's pick, among wins the quickest) first, the others in pack order."""
    pick = evaluation.best[0] if evaluation.best else None
    return sorted(evaluation.moves, key=lambda entry: (-entry.value, entry.move != pick))


def result(evaluation: Evaluation) -> dict[str, Any]:
    """The ``--json`` answer: for which seat, exact or estimated, the best move and every move's value."""
    from rules.events import event_dict

    answer: dict[str, Any] = {"seat": evaluation.seat, "exact": evaluation.kind == "exact"}
    if evaluation.kind == "exact":
        answer["value"] = evaluation.value
    else:
        assert evaluation.seat is not None
        answer["estimate"] = {
            "score": evaluation.scores[evaluation.seat],
            "samples": evaluation.samples,
            "why": evaluation.reason,
        }
    answer["best"] = event_dict(evaluation.best[0]) if evaluation.best else None
    key = "value" if evaluation.kind == "exact" else "score"
    answer["moves"] = [
        {"move": event_dict(entry.move), key: int(entry.value) if key == "value" else entry.value}
        | ({} if key == "value" else {"samples": entry.samples})
        for entry in best_first(evaluation)
    ]
    if evaluation.unsettled:
        answer["unsettled"] = [event_dict(move) for move in evaluation.unsettled]
    return answer


def _unsettled() -> str:
    """The value column of a move the solver has not settled within its budget."""
    return pgettext("the exact value of a move", "not settled")


def _value(value: float, exact: bool) -> str:
    if not exact:
        return _("about {score}").format(score=percent(value))
    if value > 0:
        return pgettext("the exact value of a move", "win")
    if value < 0:
        return pgettext("the exact value of a move", "loss")
    return pgettext("the exact value of a move", "draw")


def describe(event: Event) -> str:
    """A move in a few words, the kind of move in the language spoken and the card as the game writes it (8♥)."""
    from rules.cards import Card

    card = getattr(event, "card", None)
    label = Card.parse(card).label if card is not None else ""
    if event.type == "take":
        return pgettext("a move in trumps solve", "take")
    if event.type == "lead":
        return pgettext("a move in trumps solve", "lead {card}").format(card=label)
    if event.type == "beat":
        return pgettext("a move in trumps solve", "beat {card}").format(card=label)
    return pgettext("a move in trumps solve", "second {card}").format(card=label)


def _fail(message: str) -> typer.Exit:
    typer.echo(message, err=True)
    raise typer.Exit(1)
