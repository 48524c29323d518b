"""``trumps review LOG [--link]``: a finished (or stopped) hand told move by move, every hand face up.

At a terminal you step through it: Enter for the next move, ``b`` back, a number to go to that move,
``l`` for the analysis board's link, ``q`` to stop. Through a pipe the whole hand is printed, a line a
move. ``--link`` prints only the board's address for the log (:mod:`rules.cli.board`), which opens the
same log at ``trumps serve``'s ``/replay`` with each position evaluated.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from rules.cli.usage import cannot_read, program, read_log_argument
from rules.locale import N_, _

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

    from rules.game import Game

# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_(
    "Go through the hand of LOG move by move, every hand face up: Enter for the next move, b back, a number to\n"
    "jump, l for the analysis board's link, q to stop. Through a pipe, the whole hand a line a move."
)


def review(
    log: Annotated[str, typer.Argument(help=N_("The log file, or - for standard input."), show_default=False)],
    link: Annotated[
        bool, typer.Option("--link", help=N_("Print the analysis board's address for this log (see trumps serve)."))
    ] = False,
) -> None:
    from rich.console import Console

    from rules.cli import board
    from rules.log import LogError, log_lines

    try:
        game = read_log_argument(log)
    except OSError as error:
        typer.echo(cannot_read(log, error), err=True)
        raise typer.Exit(1) from None
    except LogError as error:
        typer.echo(str(error), err=True)  # a line of the log format (§L6), English as trumps replay says it
        raise typer.Exit(1) from None
    address = board.link(log_lines(game))
    if link:
        typer.echo(address)
        return
    steps = told(game)
    interactive = sys.stdin.isatty() and sys.stdout.isatty() and log != "-"
    console = Console(highlight=False) if interactive else Console(no_color=True, highlight=False, width=100)
    if not interactive:
        for _position, lines in steps:
            for line in lines:
                console.print(line)
        on_board = _("On the analysis board (after {program} serve): {link}")
        console.print(on_board.format(program=program(), link=address), soft_wrap=True)
        return
    _step_through(console, steps, address)


@dataclass(frozen=True)
class Table:
    """The table after an event: every hand, each seat's trump, the pile."""

    hands: list[list[str]]
    trumps: list[str | None]
    pile: list[str]


Step = tuple[Table, list["Text"]]
"""The table after an event, and the event told in words (with what the rules did on their own)."""


def told(game: Game) -> list[Step]:
    """Every event of ``game`` in words (moves numbered as ``trumps play`` numbers them), and the table after it."""
    from rich.text import Text

    from rules.cli import terminal
    from rules.events import Beat, ChooseTrump, Deal, Lead, Second, Take
    from rules.game import Game

    names = terminal.compass_names(game.rules.players)
    again = Game.from_events(game.header, [])
    steps: list[Step] = []
    moves = 0
    for event in game.events:
        top = again.pile[-1] if again.pile else None
        notes = again.push(event)
        after = Table([again.hand(seat) for seat in range(game.rules.players)], list(again.trumps), list(again.pile))
        if isinstance(event, Deal):
            lines = terminal.describe_deal(event, notes, names)
        elif isinstance(event, ChooseTrump):
            lines = [terminal.describe_trump(names[event.seat], event)]
        else:
            lines = []
            if isinstance(event, (Lead, Beat, Second, Take)):
                moves += 1
            if isinstance(event, (Lead, Beat, Second)):
                lines.append(terminal.describe_move(names[event.seat], event, top, None))
            new_top = again.pile[-1] if again.pile else None
            lines += terminal.describe_notes(notes, names, moves, new_top, again.trumps)
            lines = [Text.assemble(f"{moves:>4}. ", line) for line in lines[:1]] + [
                Text.assemble("      ", line) for line in lines[1:]
            ]
        outcome = again.outcome
        if outcome is not None:
            lines.append(Text(_result(game, names), style="bold"))
        steps.append((after, lines))
    return steps


def _result(game: Game, names: list[str]) -> str:
    outcome = game.outcome
    assert outcome is not None
    if outcome.result == "loss":
        assert outcome.loser is not None
        if outcome.reason == "resigned":
            return _("{name} resigned.").format(name=names[outcome.loser])
        return _("{name} lost the hand.").format(name=names[outcome.loser])
    if outcome.reason == "repetition":
        return _("Draw: the same position came up for the third time.")
    if outcome.reason == "agreement":
        return _("Draw by agreement.")
    return _("Draw by the tie check.")


def _position(console: Console, table: Table) -> None:
    """Every hand face up, each seat's trump, and the pile."""
    from rich.table import Table as Grid
    from rich.text import Text

    from rules.cli import terminal

    names = terminal.compass_names(len(table.hands))
    grid = Grid.grid(padding=(0, 2))
    for _column in range(3):
        grid.add_column(no_wrap=True)
    for seat, name in enumerate(names):
        trump = table.trumps[seat]
        grid.add_row(
            Text(name, style="bold"),
            terminal.suit_text(trump) if trump is not None else Text(""),
            terminal.suits_text(table.hands[seat]),
        )
    shown = table.pile[-terminal.PILE_SHOWN :]
    pile = terminal.cards_text(shown) if shown else Text(_("empty"), style="dim")
    grid.add_row(Text(_("Pile"), style="bold"), Text(""), pile)
    console.print(grid)


def _step_through(console: Console, steps: list[Step], address: str) -> None:
    """Show one event at a time, with the table after it, as the reader asks."""
    import readline  # noqa: F401  (line editing for input())

    from rich.text import Text

    index = 0
    total = len(steps)
    while True:
        after, lines = steps[index]
        console.rule(_("Event {number} of {total}").format(number=index + 1, total=total))
        for line in lines:
            console.print(line)
        _position(console, after)
        console.print(
            Text(_("Enter: next · b: back · a number: that event · l: the board's link · q: stop"), style="dim")
        )
        try:
            typed = input(_("review> ")).strip().lower()
        except (EOFError, KeyboardInterrupt):
            console.print()
            return
        if typed in ("q", "quit"):
            return
        if typed in ("l", "link"):
            console.print(address, soft_wrap=True)
        elif typed in ("b", "back"):
            index = max(0, index - 1)
        elif typed.isdecimal():  # digits int() reads (in any script), not "²", which isdigit() takes too
            digits = typed.lstrip("0") or "0"
            # More digits than the last event's number is past it, and int() would refuse thousands of them.
            number = int(digits) if len(digits) <= len(str(total)) else total
            index = min(total, max(1, number)) - 1
        elif typed == "" and index + 1 < total:
            index += 1
        elif typed == "":
            console.print(Text(_("That was the last event; q to stop."), style="yellow"))
