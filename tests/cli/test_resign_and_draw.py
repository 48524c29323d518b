"""Resigning and offering a draw in the terminal (rules §3.4): ``resign`` asks first, ``draw`` asks the computers,
who answer by the rule of :mod:`rules.players.draws`; in every language, by its own words too."""

from __future__ import annotations

import contextlib
import io

import pytest
from rich.console import Console

from rules.cli.session import Quit, Session, help_text
from rules.events import Position
from rules.game import Game
from rules.locale import LANGUAGES, _, pgettext, use_language
from rules.players import make_player

RESIGN = "words typed to resign the hand, separated by spaces"

# You (seat 0) lead and hold more cards than the computer: it would not agree to a draw.
AHEAD_OF_YOU = Position(trumps=["S", "H"], hands=[["AS", "7D", "8C"], ["KH"]], pile=[], to_act=0, phase="lead")
# The computer holds more: a draw suits it.
BEHIND_YOU = Position(trumps=["S", "H"], hands=[["AS"], ["KH", "7D", "8C"]], pile=[], to_act=0, phase="lead")


def play(position: Position, lines: list[str]) -> tuple[Game, str]:
    game = Game.from_position(position)
    typed = iter(lines)
    output = io.StringIO()
    console = Console(file=output, width=100, no_color=True)
    prompts: list[str] = []

    def read(prompt: str) -> str | None:
        prompts.append(prompt)
        return next(typed, None)

    session = Session(game, 0, {1: make_player("easy", 1)}, console, read)
    with contextlib.suppress(Quit):
        session.run()
    if game.is_over():
        session.summary()
    return game, "".join(prompts) + output.getvalue()


def test_resign_asks_first_and_then_you_lose() -> None:
    game, screen = play(AHEAD_OF_YOU, ["resign", "n", "resign", "y"])
    assert game.outcome is not None and (game.outcome.loser, game.outcome.reason) == (0, "resigned")
    assert screen.count("Resign this hand? You lose it.") == 2
    assert "You resigned: you lose this hand." in screen


def test_a_computer_that_is_ahead_declines_and_one_that_is_behind_agrees() -> None:
    game, screen = play(AHEAD_OF_YOU, ["draw"])
    assert game.outcome is None and "North declines the draw." in screen
    game, screen = play(BEHIND_YOU, ["draw"])
    assert game.outcome is not None and game.outcome.reason == "agreement"
    assert "The others agree to a draw." in screen and "Draw by agreement." in screen


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_the_words_and_answers_are_the_languages_own(lang: str) -> None:
    use_language(lang)
    try:
        resign = pgettext("words typed to resign the hand, separated by spaces", "resign").split()[0]
        yes = pgettext("words typed to say yes, separated by spaces", "yes").split()[0]
        draw = pgettext("words typed to offer a draw, separated by spaces", "draw").split()[0]
        assert resign != "resign" and draw != "draw"
        game, screen = play(AHEAD_OF_YOU, [resign, yes])
        assert game.outcome is not None and game.outcome.reason == "resigned"
        assert _("You resigned: you lose this hand.") in screen and "You resigned" not in screen
        game, screen = play(BEHIND_YOU, [draw])
        assert game.outcome is not None and game.outcome.reason == "agreement"
        assert _("Draw by agreement.") in screen and "Draw by agreement" not in screen
    finally:
        use_language("en")


HAND_OF_A_MATCH = {"ro": ("rund",), "fi": ("jako", "jaon"), "cs": ("parti",), "ky": ("парти",), "ru": ("парти",)}
"""The stems of each language's word for a hand of a match (docs/translations.md): Romanian's is *rundă*, since
*mână* is also the cards held; Kyrgyz's *партия*, not *оюн*, the game."""


@pytest.mark.parametrize("lang", sorted(HAND_OF_A_MATCH))
def test_resigning_names_the_hand_with_the_languages_word_for_it(lang: str) -> None:
    use_language(lang)
    try:
        said = [
            _("Resign this hand? You lose it. (y/n)> "),
            _("You resigned: you lose this hand."),
            next(
                line
                for line in help_text().split("\n")
                if line.startswith("  " + pgettext(RESIGN, "resign").split()[0])
            ),
        ]
    finally:
        use_language("en")
    assert all(any(stem in sentence.lower() for stem in HAND_OF_A_MATCH[lang]) for sentence in said), said
