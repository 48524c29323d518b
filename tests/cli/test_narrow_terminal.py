"""The ``?`` help in a terminal narrower than its lines (80 columns, the usual size, and 40): each command's
description and each paragraph of the rules keeps its indent, in every language, instead of running back to the
left edge where the terminal wraps it."""

from __future__ import annotations

import contextlib
import io
import itertools

import pytest
from rich.console import Console

from rules.cli.session import Quit, Session, help_text
from rules.cli.terminal import reflow
from rules.events import Position
from rules.game import Game
from rules.locale import LANGUAGES, use_language
from rules.players import make_player

POSITION = Position(trumps=["S", "H"], hands=[["AS", "7D", "8C"], ["KH"]], pile=[], to_act=0, phase="lead")


def help_at(width: int) -> list[str]:
    """The lines ``?`` prints at a terminal ``width`` columns wide."""
    output = io.StringIO()
    console = Console(file=output, width=width, no_color=True)
    typed = iter(["?"])
    session = Session(
        Game.from_position(POSITION), 0, {1: make_player("easy", 1)}, console, lambda _: next(typed, None)
    )
    with contextlib.suppress(Quit):
        session.run()
    shown = output.getvalue().rstrip("\n").split("\n")
    return shown[shown.index(help_text().split("\n")[0]) :]  # after the table


@pytest.mark.parametrize("width", [80, 40])
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_help_keeps_its_indents_when_the_terminal_is_narrower_than_its_lines(lang: str, width: int) -> None:
    use_language(lang)
    try:
        lines = help_at(width)
        text = help_text()
    finally:
        use_language("en")
    assert " ".join(" ".join(lines).split()) == " ".join(text.split())  # every word, in order
    assert all(len(line) <= width for line in lines)
    written = text.split("\n")
    blank = written.index("")
    commands_end = next(index for index, line in enumerate(written) if index and not line.startswith(" "))
    # The list of commands and the rules in brief: indented lines under a heading, every line of them indented here.
    for heading, rest in ((written[0], written[1:commands_end]), (written[blank + 1], written[blank + 2 :])):
        start = lines.index(heading)
        shown = lines[start + 1 :]
        section = shown[: next((i for i, line in enumerate(shown) if not line.startswith(" ")), len(shown))]
        assert " ".join(" ".join(section).split()) == " ".join(" ".join(rest).split()), (heading, lines)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_a_number_and_its_percent_sign_stay_on_one_line_at_any_width(lang: str) -> None:
    use_language(lang)
    try:
        text = help_text()
    finally:
        use_language("en")
    for width in range(40, 121):
        lines = reflow(text, width).split("\n")
        for line, after in itertools.pairwise(lines):
            assert not (line.rstrip()[-1:].isdigit() and after.lstrip().startswith("%")), (width, line, after)
