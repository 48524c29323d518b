"""``trumps play``: the command's options. The game itself is :mod:`rules.cli.session`, imported when a game
starts, so that ``trumps play --help`` answers at once."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from rules.cli.usage import refuse_unknown_language, shell_word
from rules.defaults import DEALER, MUST_BEAT, PASS_SIXES, PLAYERS
from rules.locale import N_, _, use_language

# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_(
    "Play against the computer in the terminal, one hand after another.\n"
    "\n"
    "Type a card (10S, 10♠, or its number in your hand), t to take, u to undo, h for a hint,\n"
    "q to stop, ? for help and the rules in brief. After each hand you see the score and\n"
    "choose: the next hand, stop, or take back your last move. Each hand is saved as a\n"
    "replay log."
)


def play(
    players: Annotated[int, typer.Option(help=N_("Number of players, 2-4."))] = PLAYERS,
    seat: Annotated[int, typer.Option(help=N_("Your seat, 0 to players-1."))] = 0,
    dealer: Annotated[
        int, typer.Option(help=N_("The first hand's dealer; the player to the dealer's left leads first."))
    ] = DEALER,
    pass_sixes: Annotated[
        bool, typer.Option(help=N_("Pass each six of another player's trump to that player."))
    ] = PASS_SIXES,
    must_beat: Annotated[bool, typer.Option(help=N_("Forbid taking while you hold a card that beats."))] = MUST_BEAT,
    level: Annotated[
        str,
        typer.Option(
            help=N_(
                "The computer's strength: easy, medium (rules of thumb), hard (search, 0.2 s a move), "
                "perfect (exact endgames in the duel, slower)."
            )
        ),
    ] = "hard",
    hands: Annotated[
        int | None,
        typer.Option(
            help=N_(
                "Play a match of this many hands (the loser of a hand deals the next). "
                "Without it, you are asked after each hand whether to play another."
            ),
            show_default=N_("ask after each hand"),
        ),
    ] = None,
    seed: Annotated[
        int | None,
        typer.Option(
            help=N_(
                "Seed for the deals and the computer players. The deals repeat, and so do the moves of easy "
                "and medium; hard and perfect think against the clock, so their moves may differ from run to run."
            )
        ),
    ] = None,
    save: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "Where to save the replay log (default: trumps-DATE-TIME.jsonl here); "
                "hand 2 of a match goes to NAME-hand2.jsonl, and so on."
            )
        ),
    ] = None,
    no_save: Annotated[bool, typer.Option("--no-save", help=N_("Do not save the replay logs."))] = False,
    undo: Annotated[
        bool, typer.Option(help=N_("Allow taking moves back, even the one that ended a hand (a casual game)."))
    ] = True,
    tracker: Annotated[
        bool,
        typer.Option(
            help=N_(
                "In the duel, show the cards your opponent holds (every card is dealt, so they can be worked "
                "out); the key k shows or hides them during the game."
            )
        ),
    ] = True,
    lang: Annotated[
        str | None,
        typer.Option(
            help=N_("The game's language: en, ro, fi, cs, ky, ru."),
            show_default=N_("as trumps --lang, else from LANGUAGE, LC_ALL, LC_MESSAGES or LANG, else en"),
        ),
    ] = None,
) -> None:
    refuse_unknown_language(lang)
    if lang is not None:
        use_language(lang)  # else the language is the one trumps chose: its own --lang, or the environment's
    if save is not None and not no_save and not save.strip():  # Path("") would be the current folder
        problem = _("an empty name: give the file to save the log to")
        typer.echo(f"--save {shell_word(save)}: {problem}", err=True)
        raise typer.Exit(2)
    from rules.cli.session import Settings, start
    from rules.native import build_in_background

    build_in_background()  # the computer thinks twice as fast from the next game on
    start(
        Settings(
            players=players,
            seat=seat,
            dealer=dealer,
            pass_sixes=pass_sixes,
            must_beat=must_beat,
            level=level.lower(),
            hands=hands,
            seed=seed,
            log_path=None if no_save or save is None else Path(save),
            save=not no_save,
            undo=undo,
            tracker=tracker,
        )
    )
