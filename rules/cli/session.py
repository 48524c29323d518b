"""The game of ``trumps play``: Svoi Kozyri in the terminal, you against the computer, hand after hand.

Type a card (``TS``, ``ts``, ``10s``, ``10♠``) or its number in your hand, ``t`` to take,
``u`` to take back your last decision, ``h`` for a hint, ``q`` to stop, ``?`` for help.
Hands follow each other as a match (rules §4): the loser of a hand deals the next, and
the score counts the hands each player lost. Between hands you choose to play on, to stop,
or to take back the move that ended the hand.

When standard input is not a terminal, lines are read from it and the table is printed
as plain text, so a test (or a script) can play through a pipe; the end of the input
stops the game like ``q``. The game speaks the language of ``--lang`` or of the usual
``LANGUAGE`` / ``LC_ALL`` / ``LANG`` variables (:mod:`rules.locale`); what you type may
use that language's suit names and command words as well as the English ones. Each hand is
kept as a replay log of its own (log format §L3: a log is one game), saved at every prompt
and at the end.

Cards are referred to by name (``10S``, ``10♠``), which never changes, or by their number in the
hand as the table shows it now: the hand is sorted, so the numbers after a played or taken card
move; the table says so, and the move lists give each card's name with its number.
"""

from __future__ import annotations

import datetime
import difflib
import io
import re
import sys
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import typer
from rich.console import Console
from rich.text import Text

from rules.analysis import evaluate
from rules.cards import Card
from rules.cli import board, terminal
from rules.cli.usage import os_reason, program, shell_word
from rules.events import (
    AgreeDraw,
    Beat,
    ChooseTrump,
    Deal,
    Event,
    Lead,
    Notification,
    Resign,
    Second,
    SuitCode,
    Take,
    WentOut,
    event_json,
)
from rules.game import Game
from rules.locale import _, language, ngettext, pgettext
from rules.log import log_lines, write_log
from rules.match import Match
from rules.options import MAX_PLAYERS, MIN_PLAYERS, RuleSet, dealer_problem
from rules.players import LEVELS, Player, hint, make_player
from rules.players.base import choose_move
from rules.players.draws import accepts_draw
from rules.players.perfect import FORCED_WIN, PerfectPlayer
from rules.players.solver import Solver
from rules.refusal import Refusal

HINT_SECONDS = 1.0
"""How long a hint may think: the solver's budget for an exact value, or the search's for a move."""


def help_text() -> str:
    """The ``?`` text: the commands, and the rules in brief."""
    return _("""\
Commands:
  a card        TS, ts, 10s, 10♠ (rank 6-9, 10/T, J, Q, K, A; suit S H D C or ♠ ♥ ♦ ♣)
  a number      the card with that number in your hand
  t, take       take cards from the pile
  u, undo       take back your last decision (and the computer's moves since);
                not the trump choice once the cards are dealt: it is blind
  h, hint       the move the strongest computer player would make (thinks for a second),
                in the duel with its value: wins, draws, about 60%, or lost whatever you do;
                at the trump prompt h is hearts: type hint there
  k, cards      in the duel, show or hide the cards your opponent holds
  resign        give this hand up: you lose it (asks first)
  draw          offer the others a draw; a computer agrees when the hand has run more
                than 300 moves, or when it holds at least as many cards as everyone else
  q, quit       stop now; the game so far is saved
  ?, help       this text
A card's name (10S) never changes; its number is its place in your hand as shown now,
so the numbers after it move when a card leaves or joins your hand.
When a hand is over: Enter (or n) for the next hand, u to take back the move that ended
it, q to stop the match.

The rules in brief:
  On an empty pile, lead any card. Otherwise beat the top card or take.
  A card beats the top card if it is the same suit and higher, or if it is your own
  trump and the top card is not. After beating, play one more card, any card, for
  the next player to answer. Taking picks up the top 3 cards; the top 5 if the top
  card is your trump; the whole pile if it is the ace of your trump. The first to
  run out of cards wins; the last one holding cards loses the hand, and deals the next,
  unless that last hand is one card that beats the top card: then the hand is a draw.
  So is a hand in which the same position comes round a third time.""")


_EMOJI_STYLE = "\ufe0f"
"""The variation selector some keyboards add after a suit symbol (``♠️``); it means nothing here."""

_SUITS_IN: dict[str, SuitCode] = {"♠": "S", "♤": "S", "♥": "H", "♡": "H", "♦": "D", "♢": "D", "♣": "C", "♧": "C"}
_SUIT_WORDS: dict[str, SuitCode] = {
    **{"s": "S", "h": "H", "d": "D", "c": "C", "spades": "S", "hearts": "H", "diamonds": "D", "clubs": "C"},
    **{"spade": "S", "heart": "H", "diamond": "D", "club": "C"},
    **_SUITS_IN,
}


def _typed_suit_words() -> dict[str, SuitCode]:
    """The words for each suit a player may type in the language spoken (the catalog lists them, space-separated)."""
    words: dict[SuitCode, str] = {
        "S": pgettext("words typed for spades, separated by spaces", "spades spade"),
        "H": pgettext("words typed for hearts, separated by spaces", "hearts heart"),
        "D": pgettext("words typed for diamonds, separated by spaces", "diamonds diamond"),
        "C": pgettext("words typed for clubs, separated by spaces", "clubs club"),
    }
    return {word.lower(): suit for suit, listed in words.items() for word in listed.split()}


def _typed_take_words() -> set[str]:
    """What a player may type to take: ``t`` and ``take``, and the language's own words."""
    return {"t", "take", *pgettext("words typed to take, separated by spaces", "t take").lower().split()}


def _no_such_card() -> str:
    return _("a card is a rank 6-9, 10/T, J, Q, K, A and a suit S, H, D, C (or ♠ ♥ ♦ ♣)")


HAND_SEED_STEP = 1000
"""With ``--seed S``, hand ``n`` of a match is dealt from seed ``S + 1000·(n-1)``: reproducible, and every hand new."""


MAX_DIGITS = 9
"""The most digits of a card number read as a number; a longer one is out of range, and named cut short."""


class InputError(ValueError):
    """What the player typed cannot be understood; the message says why, in one line."""


def parse_card(text: str, hand: list[str]) -> str:
    """The card code meant by ``text``: a code in any case, ``10`` for ``T``, suit symbols, or a hand number.

    >>> parse_card("10♠", []), parse_card("ts", []), parse_card("2", ["6S", "QH"]), parse_card("♥q", [])
    ('TS', 'TS', 'QH', 'QH')
    >>> parse_card("KX", [])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rules.cli.session.InputError: no such card 'KX': a card is a rank 6-9, 10/T, J, Q, K, A and a suit ...
    """
    raw = text.strip()
    if raw.isdecimal():  # what int() reads (7, in any script's digits), not ² or ⑶, which isdigit() takes too
        digits = raw.lstrip("0") or "0"
        number = int(digits) if len(digits) <= MAX_DIGITS else None  # int() refuses thousands of digits
        if number is not None and 1 <= number <= len(hand):
            return hand[number - 1]
        shown = digits[:MAX_DIGITS] + "…" if number is None else str(number)
        if not hand:
            raise InputError(_("there is no card number {number}: your hand is empty").format(number=shown))
        raise InputError(
            _("there is no card number {number}: your cards are numbered 1 to {count}").format(
                number=shown, count=len(hand)
            )
        )
    raw_suit = _suit_word_at_end(raw)
    typed = (raw_suit or raw).upper().replace(" ", "").replace(_EMOJI_STYLE, "")
    code = "".join(_SUITS_IN.get(char, char) for char in typed).replace("10", "T")
    if len(code) == 2 and code[0] in "SHDC" and code[1] not in "SHDC":
        code = code[1] + code[0]
    try:
        return Card.parse(code).code
    except ValueError:
        raise InputError(_("no such card {typed!r}: {how}").format(typed=raw, how=_no_such_card())) from None


def _suit_word_at_end(text: str) -> str | None:
    """``10 пик`` or ``Q hearts`` as ``10S`` / ``QH``: a rank then a suit named in words; ``None`` otherwise."""
    rank, _space, word = text.strip().rpartition(" ")
    suit = {**_SUIT_WORDS, **_typed_suit_words()}.get(word.lower()) if rank else None
    return f"{rank}{suit}" if suit is not None and len(word) > 1 else None


def parse_suit(text: str, choices: str | None = None) -> SuitCode:
    """A suit typed as a letter, symbol or word (English, or the language spoken), in any case; ``choices`` ends
    the message of a typo.

    >>> parse_suit("h"), parse_suit("♣"), parse_suit("Spades"), parse_suit(" HEART "), parse_suit("♦️")
    ('H', 'C', 'S', 'H', 'D')
    """
    typed = text.strip().lower().replace(_EMOJI_STYLE, "")
    local = _typed_suit_words()
    letter = _SUIT_WORDS.get(typed) or local.get(typed)
    if letter is None:
        names = ["spades", "hearts", "diamonds", "clubs", *local]
        guess = difflib.get_close_matches(typed, names, n=1, cutoff=0.6)
        choices = choices if choices is not None else _("type S, H, D or C (or ♠ ♥ ♦ ♣)")
        if guess:
            raise InputError(
                _("no such suit {typed!r} (did you mean {guess}?): {choices}").format(
                    typed=text.strip(), guess=guess[0], choices=choices
                )
            )
        raise InputError(_("no such suit {typed!r}: {choices}").format(typed=text.strip(), choices=choices))
    return letter


CommandName = Literal["quit", "help", "hint", "undo", "cards", "resign", "draw"]

_KEYS: dict[CommandName, str] = {
    "quit": "q",
    "help": "?",
    "hint": "h",
    "undo": "u",
    "cards": "k",
    "resign": "resign",
    "draw": "draw",
}
"""The key of each command, the same in every language (ending the hand has no one-letter key: no slip of a finger)."""

_ENGLISH: dict[str, CommandName] = {
    **dict.fromkeys(("q", "quit", "exit"), "quit"),
    **dict.fromkeys(("?", "help"), "help"),
    **dict.fromkeys(("h", "hint"), "hint"),
    **dict.fromkeys(("u", "undo"), "undo"),
    **dict.fromkeys(("k", "cards"), "cards"),
    "resign": "resign",
    "draw": "draw",
}


def _typed_commands() -> dict[str, CommandName]:
    """What a player may type for each command: the English words and keys, and the language's own words."""
    local: dict[CommandName, str] = {
        "quit": pgettext("words typed to stop the game, separated by spaces", "quit"),
        "help": pgettext("words typed for help, separated by spaces", "help"),
        "hint": pgettext("words typed for a hint, separated by spaces", "hint"),
        "undo": pgettext("words typed to take back a move, separated by spaces", "undo"),
        "cards": pgettext("words typed to show or hide the opponent's cards, separated by spaces", "cards"),
        "resign": pgettext("words typed to resign the hand, separated by spaces", "resign"),
        "draw": pgettext("words typed to offer a draw, separated by spaces", "draw"),
    }
    return _ENGLISH | {word: command for command, words in local.items() for word in words.lower().split()}


_BETWEEN_HANDS: dict[str, Literal["next", "stop", "undo", "help"]] = {
    **dict.fromkeys(("", "n", "next", "y", "yes", "go", "again", "another"), "next"),
    **dict.fromkeys(("q", "quit", "exit", "stop", "no", "done", "bye"), "stop"),
    **dict.fromkeys(("u", "undo"), "undo"),
    **dict.fromkeys(("?", "h", "help", "hint"), "help"),
}


def _between_hands(text: str) -> Literal["next", "stop", "undo", "help"] | None:
    """The answer meant at the prompt after a hand, in English or in the language's command words."""
    typed = text.strip().lower()
    if typed in _BETWEEN_HANDS:
        return _BETWEEN_HANDS[typed]
    command = _typed_commands().get(typed)
    answers: dict[CommandName, Literal["stop", "undo", "help"]] = {"quit": "stop", "undo": "undo", "help": "help"}
    return answers.get(command) if command is not None else None


def _did_you_mean(text: str, *, moving: bool) -> str | None:
    """What a mistyped command was probably meant to be, as ``'tkae': did you mean take (t)?``, or ``None``:
    the closest word among the English and the language's own command words (``brat``: ``brát``, in Czech).
    ``moving``: at the move prompt (taking is a command there, not at the trump prompt).

    >>> _did_you_mean("tkae", moving=True), _did_you_mean("KX", moving=True), _did_you_mean("qiut", moving=False)
    ("'tkae': did you mean take (t)?", None, "'qiut': did you mean quit (q)?")
    """
    keys = {word: _KEYS[command] for word, command in _typed_commands().items() if len(word) > 1}
    if moving:
        keys |= {word: terminal.take_key() for word in _typed_take_words() if len(word) > 1}
    guess = difflib.get_close_matches(text.lower(), keys, n=1, cutoff=0.6) if len(text) > 2 else []
    if not guess:
        return None
    return _("{typed!r}: did you mean {command} ({key})?").format(typed=text, command=guess[0], key=keys[guess[0]])


StopKind = Literal["quit", "end of input", "interrupted"]


class Quit(Exception):
    """The player stopped the game: ``q``, the end of the input (Ctrl-D) or Ctrl-C; ``kind`` says which."""

    def __init__(self, kind: StopKind = "quit") -> None:
        super().__init__(kind)
        self.kind = kind

    @property
    def why(self) -> str:
        """The stop in words."""
        if self.kind == "end of input":
            return _("End of input (Ctrl-D): the game stops here.")
        if self.kind == "interrupted":
            return _("Interrupted (Ctrl-C): the game stops here.")
        return _("You stopped the game.")


class Session:
    """One hand between you (at ``you``) and computer players at every other seat.

    ``read_line`` returns the next line typed, or ``None`` at the end of the input.
    ``hand`` is the hand's number in a match, shown in titles (``None``: a lone game).
    ``finishers``, if given, play the others' seats once you are out: quick players, so that
    you do not wait for a search whose moves are not even shown. ``tracker``: in the duel, show
    the cards your opponent holds (``k`` shows or hides them).
    """

    def __init__(
        self,
        game: Game,
        you: int,
        bots: dict[int, Player],
        console: Console,
        read_line: Callable[[str], str | None],
        *,
        undo: bool = True,
        hand: int | None = None,
        finishers: dict[int, Player] | None = None,
        tracker: bool = True,
    ) -> None:
        self.game = game
        self.you = you
        self.bots = bots
        self.finishers = finishers if finishers is not None else bots
        self.console = console
        self.read_line = read_line
        self.allow_undo = undo
        self.hand = hand
        self.names = terminal.seat_names(game.rules.players, you)
        self.deal: Deal = game.sample_deal()
        self.undos = 0
        # Event counts at each of your decisions, so undo knows how far back to pop.
        self._marks: list[int] = []
        # When each seat went out (move number), for the summary.
        self.went_out: dict[int, int] = {}
        self._pending: terminal.PendingBeat | None = None  # a beat, told with its second card
        self._watching_the_rest = False
        self.tracker = tracker
        self._solver: Solver | None = None  # the hints' solver, keeping its table from hint to hint

    # --- the loop -------------------------------------------------------------------------

    def run(self) -> None:
        """Play until the hand ends; raises :class:`Quit` when you stop (``q``, Ctrl-D, Ctrl-C)."""
        try:
            self._play()
        except KeyboardInterrupt:
            raise Quit("interrupted") from None

    def _play(self) -> None:
        game = self.game
        while not game.is_over():
            if game.phase == "deal":
                notes = game.push(self.deal)
                for line in terminal.describe_deal(self.deal, notes, self.names):
                    self.say(line)
                continue
            seat = game.to_act
            assert seat is not None
            if seat == self.you:
                self._your_turn()
            else:
                self._apply(self._bot_move(seat))
                self._announce(seat)

    def _announce(self, seat: int) -> None:
        """What a computer player says of its own accord: that it has proven a forced win (once a game).

        The player is told the hand's repetition history (:func:`~rules.players.base.choose_move`), so its win
        is the game's own, whatever positions have come up before.
        """
        bot = self.bots[seat]
        if isinstance(bot, PerfectPlayer) and bot.announcement() == FORCED_WIN:
            self.say(Text(_("{name}: I have a forced win.").format(name=self.names[seat]), style="bold"))

    def _bot_move(self, seat: int) -> Event:
        """The computer's move at ``seat``, with a spinner at a terminal in case it thinks for a while."""
        if self._watching_the_rest:
            with self._thinking(_("The others play on…")):
                return choose_move(self.finishers[seat], self.game.view(seat), self.game.position_counts())
        with self._thinking(_("{name} is thinking…").format(name=self.names[seat])):
            return choose_move(self.bots[seat], self.game.view(seat), self.game.position_counts())

    def say(self, line: Text | str) -> None:
        self.console.print(line, highlight=False)

    @property
    def moves_played(self) -> int:
        return sum(1 for event in self.game.events if isinstance(event, (Lead, Beat, Second, Take)))

    def _apply(self, event: Event) -> None:
        """Push ``event`` and tell what happened."""
        game = self.game
        top = game.pile[-1] if game.pile else None
        notes = game.push(event)
        if self._watching_the_rest:
            # You are out: only who goes out next is told, not every move of the others.
            notes = [note for note in notes if isinstance(note, WentOut)]
        elif isinstance(event, ChooseTrump):
            self.say(terminal.describe_trump(self.names[event.seat], event))
        elif isinstance(event, (Lead, Beat, Second)):
            line = terminal.describe_move(self.names[event.seat], event, top, self._pending)
            self._pending = None
            if isinstance(event, Beat) and game.phase == "second":
                assert top is not None
                self._pending = (top, event.card)  # told together with the second card
            else:
                self.say(Text.assemble("  ", line))
        new_top = game.pile[-1] if game.pile else None
        for note_line in terminal.describe_notes(notes, self.names, self.moves_played, new_top, game.trumps):
            self.say(Text.assemble("  ", note_line))
        self._record(notes)

    def _record(self, notes: list[Notification]) -> None:
        for note in notes:
            if isinstance(note, WentOut):
                self.went_out[note.seat] = self.moves_played
                if note.seat == self.you and not self.game.is_over():
                    self._watching_the_rest = True
                    rest = (
                        _("The others play on to the end (quickly, by rules of thumb)…")
                        if self.finishers is not self.bots
                        else _("The others play on to the end…")
                    )
                    self.say(Text("  " + rest, style="dim"))

    # --- your decisions -------------------------------------------------------------------

    def _your_turn(self) -> None:
        game = self.game
        if game.phase == "trump_choice":
            free = self._free_suits()
            choices = Text(", ").join(
                Text.assemble(terminal.suit_text(suit, name=True), f" ({suit.lower()})") for suit in free
            )
            ask = (
                _("Choose your trump suit, blind (before the deal):\n  {choices}, the only one left: press Enter")
                if len(free) == 1
                else _("Choose your trump suit, blind (before the deal):\n  {choices}")
            )
            self.say(terminal.fill(ask, choices=choices))
            self._decide(_("your trump> "), self._trump_of, moving=False)
            return
        view = game.view(self.you)
        move = self.moves_played + 1
        title = (
            _("Move {move} · your turn").format(move=move)
            if self.hand is None
            else _("Hand {hand} · move {move} · your turn").format(hand=self.hand, move=move)
        )
        moves = terminal.moves_text(view, self.names)
        state = game.core_state()
        progress = terminal.progress_text(view, self.names, move, state.seen.get(state.key(), 0))
        width = min(terminal.TABLE_WIDTH, self.console.width)
        tracker = self.tracker and view.players == 2
        self.console.print(terminal.table(view, self.names, title, moves, width, tracker=tracker, progress=progress))
        self._decide(_("your move> "), self._move_of, moving=True)

    def _free_suits(self) -> list[SuitCode]:
        return [event.suit for event in self.game.legal_moves() if isinstance(event, ChooseTrump)]

    def _decide(self, prompt: str, understand: Callable[[str], Event], *, moving: bool) -> None:
        """Ask until you type a legal decision (then push it) or take back an earlier one."""
        game = self.game
        while True:
            text = self._ask(prompt)
            try:
                event = understand(text)
            except InputError as error:
                command = _typed_commands().get(text.lower())
                if command is None:
                    self.say(Text(_did_you_mean(text, moving=moving) or str(error), style="yellow"))
                elif command == "quit":
                    raise Quit from None
                elif command == "help":
                    self.say(terminal.reflow(help_text(), self.console.width))
                elif command == "hint":
                    self.say(self._hint())
                elif command == "cards":
                    self._toggle_tracker(moving=moving)
                elif command in ("resign", "draw"):
                    # The game decides where a hand may end (its table's rows), the terminal only words it.
                    refused = (
                        game.refusal(Resign(seat=self.you)) if command == "resign" else game.draw_refusal(self.you)
                    )
                    if refused is not None and refused.code == "before_play":
                        self.say(
                            Text(_("Only once the cards are dealt can a hand be resigned or drawn."), style="yellow")
                        )
                    elif refused is not None:
                        self.say(Text(self._refused(refused), style="yellow"))
                    elif (ending := self._ending(command)) is not None:
                        self._marks.append(len(game.events))
                        self._apply(ending)
                        return
                elif self.take_back():
                    return
                continue
            reason = game.refusal(event)
            if reason is not None:
                self.say(Text(self._refused(reason), style="yellow"))
                continue
            self._marks.append(len(game.events))
            self._apply(event)
            return

    def _ending(self, command: Literal["resign", "draw"]) -> Event | None:
        """Your resignation once you confirm it, or a draw the computers agree to (rules §3.4); else ``None``."""
        if command == "resign":
            answer = self._ask(_("Resign this hand? You lose it. (y/n)> ")).lower()
            yes = {"y", "yes", *pgettext("words typed to say yes, separated by spaces", "yes").lower().split()}
            return Resign(seat=self.you) if answer in yes else None
        for seat in self.game.holders():
            if seat != self.you and not accepts_draw(self.game, seat):
                self.say(Text(_("{name} declines the draw.").format(name=self.names[seat]), style="yellow"))
                return None
        self.say(_("The others agree to a draw."))
        return AgreeDraw()

    def _refused(self, reason: Refusal) -> str:
        """A refused decision in words, rendered from the refusal's data: in English the engine's sentence with
        names and labels; in another language a sentence chosen by the refusal's code."""
        if language() == "en":
            return _("not allowed: {reason}").format(reason=self._in_words(reason))
        label = terminal.label
        if reason.code in ("lower_card", "higher_trump_only", "not_suit_nor_trump", "does_not_beat"):
            top, card = reason.cards
            return _("not allowed: {card} does not beat {top}").format(card=label(card), top=label(top))
        if reason.code == "must_beat":
            return _("not allowed: you must beat {top} (must beat is on)").format(top=label(reason.cards[0]))
        if reason.code == "wrong_move" and self.game.phase == "second":
            return _("not allowed: play your second card first")
        if reason.code == "wrong_move" and self.game.phase == "lead":
            return _("not allowed: the pile is empty, lead a card")
        return _("not allowed now")

    def _in_words(self, reason: Refusal) -> str:
        """A refusal as you read it: cards as labels, seats by name (``seat 0 cannot`` as ``you cannot``)."""

        def seat(number: int) -> str:
            name = self.names[number]
            return "you" if name == "You" else name

        def possessive(number: int) -> str:
            name = self.names[number]
            return "your" if name == "You" else name + "'s"

        return reason.render(seat=seat, possessive=possessive, card=terminal.label)

    def _ask(self, prompt: str) -> str:
        line = self.read_line(prompt)
        if line is None:
            raise Quit("end of input")
        return line.strip()

    def _trump_of(self, text: str) -> Event:
        """Your trump choice meant by ``text``; a suit not offered is refused, with its owner's name if it has one."""
        free = self._free_suits()
        named = [f"{terminal.suit_name(other)} ({other.lower()})" for other in free]
        offered = (
            _("{suits} or {last}").format(suits=", ".join(named[:-1]), last=named[-1]) if len(named) > 1 else named[0]
        )
        if not text.strip():
            if len(free) == 1:
                return ChooseTrump(seat=self.you, suit=free[0])
            raise InputError(_("type your trump suit: {suits}").format(suits=offered))
        suit = parse_suit(text, _("choose {suits}").format(suits=offered))
        if suit not in free:
            if suit not in self.game.trumps:  # a suit the rules close though nobody has chosen it
                raise InputError(
                    _("{suit} cannot be chosen as a trump: choose {suits}").format(
                        suit=terminal.suit_name(suit), suits=offered
                    )
                )
            owner = self.game.trumps.index(suit)
            raise InputError(
                _("{suit} are already {name}'s trump: choose {suits}").format(
                    suit=terminal.suit_name(suit), name=self.names[owner], suits=offered
                )
            )
        return ChooseTrump(seat=self.you, suit=suit)

    def _move_of(self, text: str) -> Event:
        """The move meant by ``text``: take, or a card (by name or number) played as the phase requires."""
        if not text:
            legal = self.game.legal_moves()
            if len(legal) == 1 and isinstance(legal[0], Take):
                return legal[0]  # taking is all you can do: Enter does it
            raise InputError(
                _("type a card, its number, {take} to take, or ? for help").format(take=terminal.take_key())
            )
        if text.lower() in _typed_take_words():
            return Take(seat=self.you)
        game = self.game
        hand = game.hand(self.you)
        code = parse_card(text, hand)
        if code not in hand:
            raise InputError(_("you do not hold {card}").format(card=terminal.label(code)))
        if game.phase == "lead":
            return Lead(seat=self.you, card=code)
        if game.phase == "respond":
            return Beat(seat=self.you, card=code)
        return Second(seat=self.you, card=code)

    def _toggle_tracker(self, *, moving: bool) -> None:
        """Show or hide the cards your opponent holds (``k``), and draw the table again to show it."""
        if self.game.rules.players != 2:
            self.say(Text(_("the others' cards can be worked out only in the duel"), style="yellow"))
            return
        self.tracker = not self.tracker
        self.say(
            Text(
                _("Your opponent's cards are shown (k hides them).")
                if self.tracker
                else _("Your opponent's cards are hidden (k shows them)."),
                style="magenta",
            )
        )
        tracked = terminal.tracked_cards(self.game.view(self.you)) if self.tracker and moving else None
        if tracked is not None:
            holder = self.names[1 - self.you]
            self.say(terminal.fill(_("{name} holds {cards}."), name=holder, cards=terminal.suits_text(tracked)))

    def _hint(self) -> Text:
        """What the strongest computer player would do in your place; in the duel, with its value."""
        if self.game.phase == "trump_choice":
            return terminal.trump_advice(self._free_suits())
        view = self.game.view(self.you)
        if self.game.rules.players == 2:
            # Every card of the duel is dealt, so the whole position is what you can know: it is evaluated.
            if self._solver is None:
                self._solver = Solver(seconds=HINT_SECONDS, max_entries=200_000)
            with self._thinking(_("Looking for a hint…")):
                evaluation = evaluate(self.game, self._solver)
            return terminal.hint_text(evaluation, view.hand, HINT_SECONDS)
        with self._thinking(_("Looking for a hint…")):
            suggestion = hint(view, HINT_SECONDS)
        if isinstance(suggestion, (Lead, Beat, Second)):
            card = suggestion.card
            return terminal.fill(
                _("hint: {card} ({number})"),
                card=terminal.card_text(card, style="bold"),
                number=view.hand.index(card) + 1,
            )
        return terminal.fill(_("hint: {take} ({key})"), take=Text(_("take"), style="bold"), key=terminal.take_key())

    def _thinking(self, message: str) -> AbstractContextManager[object]:
        """A spinner at a terminal while the computer thinks; nothing in a pipe."""
        return self.console.status(message, spinner="dots") if self.console.is_terminal else nullcontext()

    def take_back(self) -> bool:
        """Take back your last decision and the computer moves since; ``False`` (and why) when there is none.

        Works after the end of the hand too. Afterwards it is always your turn again.
        """
        if not self.allow_undo:
            self.say(Text(_("undo is off in this game (--no-undo)"), style="yellow"))
            return False
        if not self._marks:
            self.say(Text(_("nothing to take back yet"), style="yellow"))
            return False
        game = self.game
        if any(isinstance(event, Deal) for event in game.events[self._marks[-1] :]):
            # The trump is chosen blind: once the hand has been seen, choosing again would not be blind.
            self.say(Text(_("your trump choice cannot be taken back: you have seen your cards since"), style="yellow"))
            return False
        mark = self._marks.pop()
        popped = [game.pop() for _event in range(len(game.events) - mark)]
        theirs = sum(1 for event in popped if getattr(event, "seat", self.you) != self.you)
        trump_choice = isinstance(popped[-1], ChooseTrump)
        self._pending = None
        if game.phase == "second":  # back between your beat and your second card: the beat is told with it
            self._pending = (game.pile[-2], game.pile[-1])
        self._watching_the_rest = False  # it is your turn again, so you hold cards
        self.went_out = {seat: when for seat, when in self.went_out.items() if seat in game.view(None).out_order}
        self.undos += 1
        if not theirs:
            said = _("Took back your last trump choice.") if trump_choice else _("Took back your last move.")
        elif trump_choice:
            said = ngettext(
                "Took back your last trump choice and the {count} computer move after it.",
                "Took back your last trump choice and the {count} computer moves after it.",
                theirs,
            ).format(count=theirs)
        else:
            said = ngettext(
                "Took back your last move and the {count} computer move after it.",
                "Took back your last move and the {count} computer moves after it.",
                theirs,
            ).format(count=theirs)
        self.say(Text(said, style="magenta"))
        return True

    # --- the end --------------------------------------------------------------------------

    def summary(self) -> None:
        game = self.game
        outcome = game.outcome
        over = outcome is not None
        if self.hand is None:
            self.console.rule(_("Game over") if over else _("Game stopped"))
        else:
            self.console.rule((_("Hand {hand} over") if over else _("Hand {hand} stopped")).format(hand=self.hand))
        for place, seat in enumerate(game.view(None).out_order, start=1):
            name = self.names[seat]
            went = (
                _("You went out {place}, at move {move}.")
                if terminal.is_you(name)
                else _("{name} went out {place}, at move {move}.")
            )
            self.say(went.format(name=name, place=terminal.ordinal(place), move=self.went_out[seat]))
        counts = game.view(None).hand_counts
        holding = [f"{self.names[seat]} {counts[seat]}" for seat in range(game.rules.players) if counts[seat]]
        if holding and game.phase not in ("trump_choice", "deal"):
            self.say(_("Cards left: {holding}.").format(holding=", ".join(holding)))
        if self.undos:
            played = ngettext(
                "Moves played: {moves} (you took back {count} time).",
                "Moves played: {moves} (you took back {count} times).",
                self.undos,
            )
        else:
            played = _("Moves played: {moves}.")
        self.say(played.format(moves=self.moves_played, count=self.undos))
        if outcome is not None:
            last = [seat for seat in range(game.rules.players) if game.hand(seat)]
            last_hand = game.hand(last[0]) if last else []
            top = game.pile[-1] if game.pile else None
            self.say(Text(terminal.outcome_words(outcome, self.names, last_hand, top), style="bold"))

    def after_hand(self, *, last: bool) -> Literal["next", "stop", "undo"]:
        """Ask what now that the hand is over: the next hand, stop, or take back your last move.

        ``last``: the match has no further hand, so Enter finishes it. When there is nothing
        to ask (the last hand, and undo is off) nothing is asked.
        """
        if last and not self.allow_undo:
            return "stop"
        choices = [_("Enter: finish") if last else _("Enter or n: next hand")]
        if self.allow_undo:
            choices.append(_("u: take back your last move"))
        if not last:
            choices.append(_("q: stop"))
        options = " · ".join(choices)
        self.say(Text(options, style="dim"))
        while True:
            try:
                line = self.read_line(_("finish> ") if last else _("next hand> "))
            except KeyboardInterrupt:
                self.console.print()
                return "stop"
            if line is None:
                return "stop"
            choice = _between_hands(line)
            if choice == "next":
                return "stop" if last else "next"
            if choice == "stop":
                return "stop"
            if choice == "undo":
                if self.take_back():
                    return "undo"
                continue
            if choice is None:
                self.say(
                    Text(
                        _("{typed!r} is not an answer here; {options}").format(typed=line.strip(), options=options),
                        style="yellow",
                    )
                )
            else:
                self.say(Text(_("The hand is over; {options}").format(options=options), style="yellow"))


# --- A match: hands one after another -----------------------------------------------------------


def hand_seed(seed: int | None, hand: int) -> int | None:
    """The seed of hand ``hand`` of a match played with ``--seed seed``.

    >>> hand_seed(7, 1), hand_seed(7, 3), hand_seed(None, 2)
    (7, 2007, None)
    """
    return None if seed is None else seed + HAND_SEED_STEP * (hand - 1)


def hand_log_path(path: Path, hand: int) -> Path:
    """Where hand ``hand``'s log goes: ``path`` itself for the first hand, ``-handN`` added to its name after that.

    >>> str(hand_log_path(Path("trumps-20250101-120000.jsonl"), 2))
    'trumps-20250101-120000-hand2.jsonl'
    """
    return path if hand == 1 else path.with_name(f"{path.stem}-hand{hand}{path.suffix}")


def play_match(
    match: Match,
    you: int,
    bots: dict[int, Player],
    console: Console,
    read_line: Callable[[str], str | None],
    *,
    seed: int | None = None,
    log_path: Path | None = None,
    undo: bool = True,
    finishers: dict[int, Player] | None = None,
    tracker: bool = True,
) -> list[Game]:
    """Play hands of ``match`` until it is over or you stop; returns the hands played (the last perhaps unfinished).

    Hand ``n``'s replay log is saved to :func:`hand_log_path` ``(log_path, n)``.
    """
    names = terminal.seat_names(match.rules.players, you)
    played: list[Game] = []
    while not match.over:
        number = match.hand_number
        game = Game(match.rule_set(), seed=hand_seed(seed, number))
        path = None if log_path is None else hand_log_path(log_path, number)
        log = LogFile(path)
        log.update(game)  # an unwritable path is refused before the hand, not after it
        played.append(game)
        read = _saving(log, game, read_line)
        session = Session(game, you, bots, console, read, undo=undo, hand=number, finishers=finishers, tracker=tracker)
        title = (
            _("Hand {hand} of {total}").format(hand=number, total=match.hands)
            if match.hands is not None
            else _("Hand {hand}").format(hand=number)
        )
        console.rule(f"{title} · {terminal.deals(names[match.dealer])}")
        go_on = _play_hand(session, match)
        log.update(game)
        if path is not None:
            shown = shell_word(str(path))
            saved = _("Log saved to {path} (check it with: {program} replay {path})")
            console.print(saved.format(path=shown, program=program()), soft_wrap=True)  # a command copied whole
            if game.is_over():
                review = _("Review it move by move: {program} review {path}")
                console.print(review.format(path=shown, program=program()), soft_wrap=True)
        if game.is_over():
            console.print(
                _("On the analysis board (after {program} serve): {link}").format(
                    program=program(), link=board.link(log_lines(game))
                ),
                soft_wrap=True,
            )
        if not go_on:
            break
    if match.results and match.hands != 1:
        console.rule(_("Match over") if match.over else _("Match stopped"))
        # An open-ended match ends when the player stops it; one of a fixed number of hands only at its last
        decided = match.over or match.hands is None
        for line in terminal.match_summary(match.hands_lost, match.draws, names, decided):
            console.print(line, highlight=False)
    return played


def _saving(log: LogFile, game: Game, read_line: Callable[[str], str | None]) -> Callable[[str], str | None]:
    """``read_line``, saving the log first, so that even a closed terminal loses nothing."""

    def read(prompt: str) -> str | None:
        log.update(game)
        return read_line(prompt)

    return read


def _play_hand(session: Session, match: Match) -> bool:
    """Play one hand (again after each undo of its end); whether the match goes on."""
    while True:
        try:
            session.run()
        except Quit as stop:
            if stop.kind == "interrupted":
                session.console.print()  # Ctrl-C may leave the cursor after a prompt
            session.say(Text(stop.why, style="bold"))
            session.summary()
            return False
        outcome = session.game.outcome
        assert outcome is not None
        match.record(outcome)
        session.summary()
        score = terminal.score_text(match.hands_lost, match.draws, session.names)
        if not match.over:
            dealer = session.names[match.dealer]
            next_dealer = _("You deal the next hand.") if terminal.is_you(dealer) else _("{name} deals the next hand.")
            score.append(" " + next_dealer.format(name=dealer))
        session.say(score)
        choice = session.after_hand(last=match.over)
        if choice != "undo":
            return choice == "next"
        match.take_back()


def _default_log_path(now: datetime.datetime | None = None) -> Path:
    """``trumps-DATE-TIME.jsonl`` here, made at once so that no other game takes it: a game started in the same
    second (a script plays a game through a pipe in less) gets ``trumps-DATE-TIME-2.jsonl``, and so on, instead of
    writing over the other's log."""
    stem = f"trumps-{now or datetime.datetime.now():%Y%m%d-%H%M%S}"
    count = 1
    while True:
        path = Path(f"{stem}.jsonl" if count == 1 else f"{stem}-{count}.jsonl")
        try:
            path.open("x").close()
        except FileExistsError:
            count += 1
            continue
        except OSError:
            pass  # a folder that cannot be written: the log says why, before the hand
        return path


_COLOUR_CODE = re.compile(r"\x1b\[[0-9;]*m")


def _readline_prompt(console: Console, prompt: str) -> str:
    """``prompt`` in colour, for ``input()``: each colour code is wrapped in ``\\x01`` and ``\\x02``, which tell
    readline that it takes no room on the line. Printed apart from ``input()`` instead, the prompt would be
    unknown to readline, and erasing the last typed character would erase the prompt with it.
    """
    with console.capture() as capture:
        console.print(Text(prompt, style="bold cyan"), end="")
    return _COLOUR_CODE.sub(lambda code: f"\x01{code[0]}\x02", capture.get())


def _reader(console: Console, interactive: bool) -> Callable[[str], str | None]:
    """Read a line: with line editing at a terminal; from a pipe, echoing it so a transcript reads well."""

    if interactive:
        import readline  # noqa: F401  (line editing and history for input())

    def read(prompt: str) -> str | None:
        if interactive:
            try:
                return input(_readline_prompt(console, prompt))
            except EOFError:
                console.print()  # Ctrl-D leaves the cursor after the prompt
                return None
        console.print(prompt, end="")
        console.file.flush()
        line = sys.stdin.readline() if sys.stdin is not None else ""  # a closed standard input has ended
        if not line:
            console.print()
            return None
        console.print(line.rstrip("\n"), highlight=False)
        return line

    return read


@dataclass(frozen=True)
class Settings:
    """What ``trumps play`` was asked for (its options, the level in lower case)."""

    players: int
    seat: int
    dealer: int
    pass_sixes: bool
    must_beat: bool
    level: str
    hands: int | None
    seed: int | None
    log_path: Path | None
    """Where the first hand's log goes (``None``: the default name, unless ``save`` is off)."""
    save: bool
    undo: bool
    tracker: bool


def start(settings: Settings) -> None:
    """``trumps play``: check the options, greet, and play the match in the terminal (or through a pipe)."""
    players, seat, level, hands, seed = settings.players, settings.seat, settings.level, settings.hands, settings.seed
    error = _option_error(players, seat, settings.dealer, level, hands)
    if error is not None:
        typer.echo(error, err=True)
        raise typer.Exit(2)
    interactive = sys.stdin is not None and sys.stdout is not None and sys.stdin.isatty() and sys.stdout.isatty()
    _print_what_can_be_printed()
    _read_what_can_be_read()
    # No markup: what is printed is text (a line typed, a path given), never rich's tags, which "[/]" would break.
    console = (
        Console(highlight=False, markup=False)
        if interactive
        else Console(no_color=True, highlight=False, markup=False, width=100)
    )
    rules = RuleSet(
        players=players, dealer=settings.dealer, pass_sixes=settings.pass_sixes, must_beat=settings.must_beat
    )
    match = Match(rules, hands)
    others = [other for other in range(players) if other != seat]
    bots = {other: make_player(level, None if seed is None else seed * 10 + other) for other in others}
    # Once you are out, searching players would keep you waiting for moves that are not even shown.
    finishers = (
        {other: make_player("medium", None if seed is None else seed * 10 + other) for other in others}
        if level in ("hard", "perfect")
        else None
    )
    path = None if not settings.save else settings.log_path or _default_log_path()
    names = terminal.seat_names(players, seat)
    opponents = ", ".join(name for name in names if not terminal.is_you(name))
    length = (
        ngettext("a match of {count} hand", "a match of {count} hands", hands).format(count=hands)
        if hands and hands > 1
        else _("one hand")
        if hands == 1
        else _("hand after hand")
    )
    strength = {"easy": _("easy"), "medium": _("medium"), "hard": _("hard"), "perfect": _("perfect")}[level]
    console.print(
        terminal.fill(
            _("{game} — you sit in the South (seat {seat} in the logs) against {opponents}, level {level}, {length}."),
            game=Text(_("Svoi Kozyri"), style="bold"),
            seat=seat,
            opponents=opponents,
            level=strength,
            length=length,
        )
    )
    sixes = _("sixes pass") if settings.pass_sixes else _("sixes stay")
    must = _("must beat on") if settings.must_beat else _("must beat off")
    console.print(
        ngettext(
            "Rules: {count} player, {sixes}, {must}. ? for help, q to stop.",
            "Rules: {count} players, {sixes}, {must}. ? for help, q to stop.",
            players,
        ).format(count=players, sixes=sixes, must=must),
        style="dim",
    )
    read = _reader(console, interactive)
    try:
        play_match(
            match,
            seat,
            bots,
            console,
            read,
            seed=seed,
            log_path=path,
            undo=settings.undo,
            finishers=finishers,
            tracker=settings.tracker,
        )
    except KeyboardInterrupt:  # between prompts (a summary, a save): the logs were saved at the last prompt
        console.print("\n" + _("Interrupted."))


class LogFile:
    """The replay log of a game in progress, kept up to date on disk (nothing at all for ``None``).

    New events are appended; after an undo the file is written afresh. A file that cannot
    be written ends the command with a one-line error.
    """

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._written: list[Event] | None = None

    def update(self, game: Game) -> None:
        if self.path is None:
            return
        events = game.events
        written = self._written
        try:
            if (
                written is not None
                and len(written) <= len(events)
                and all(old is new for old, new in zip(written, events, strict=False))
            ):
                with open(self.path, "a", encoding="utf-8") as file:
                    file.writelines(event_json(event) + "\n" for event in events[len(written) :])
            else:
                write_log(game, self.path)
        except OSError as problem:
            cannot = _("cannot save the log to {path}: {why}").format(
                path=shell_word(str(self.path)), why=os_reason(problem)
            )
            typer.echo(cannot, err=True)
            raise typer.Exit(1) from None
        self._written = events


def _read_what_can_be_read() -> None:
    """A byte typed that the input's encoding cannot decode (a key of a Latin-1 keyboard on a UTF-8 terminal) is
    read as ``�``, which the game refuses as it refuses any typo. Python reads standard input strictly in a
    UTF-8 locale such as ``cs_CZ.UTF-8``, and ``input()`` would raise."""
    if isinstance(sys.stdin, io.TextIOWrapper):
        sys.stdin.reconfigure(errors="replace")


def _print_what_can_be_printed() -> None:
    """On an output that cannot encode suit symbols (``PYTHONIOENCODING=ascii``), print ``?`` rather than fail."""
    if sys.stdout is None:  # closed: rich prints nowhere
        return
    try:
        "♠♥♦♣—╭".encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        if isinstance(sys.stdout, io.TextIOWrapper):
            sys.stdout.reconfigure(errors="replace")


def _option_error(players: int, seat: int, dealer: int, level: str, hands: int | None) -> str | None:
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        return _("--players {players}: a game has 2, 3 or 4 players").format(players=players)
    if not 0 <= seat < players:
        return _("--seat {seat} is not a seat of a {players}-player game (seats 0-{last})").format(
            seat=seat, players=players, last=players - 1
        )
    if dealer_problem(players, dealer) is not None:
        return _("--dealer {dealer} is not a seat of a {players}-player game (seats 0-{last})").format(
            dealer=dealer, players=players, last=players - 1
        )
    if level not in LEVELS:  # typed in any case: the command passes it in lower case
        return _("--level {level}: choose one of {levels}").format(level=shell_word(level), levels=", ".join(LEVELS))
    if hands is not None and hands < 1:
        return _("--hands {hands}: a match has at least 1 hand").format(hands=hands)
    return None
