"""A rule edited the obvious way, in a copy of the package, either flows everywhere or stops the engine with a
message that says what to change (the audit of the "one engine" promise, docs/machine.md).

Each test copies the engine's sources (not the server, the pages or the catalogs), makes one edit a new developer
would make, and runs a short program on the copy in a process of its own.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import rules


def edited_package(folder: Path, *edits: tuple[str, str, str]) -> Path:
    """A copy of the package in ``folder`` (without the server and the catalogs: the terminal speaks English) with
    ``edits`` made: each a file of the package, a text, its replacement."""
    package = folder / "rules"
    shutil.copytree(
        Path(rules.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__", "server", "*.po*", "*.mo")
    )
    for name, old, new in edits:
        path = package / name
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{name} no longer holds {old!r}: update the edit"
        path.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def run_on(folder: Path, program: str) -> subprocess.CompletedProcess[str]:
    """``program`` run by Python on the package in ``folder``, on the pure path (no build of these sources is made)."""
    prelude = f"import sys\nsys.path.insert(0, {str(folder)!r})\n"
    return subprocess.run(
        [sys.executable, "-c", prelude + program],
        capture_output=True,
        text=True,
        timeout=120,
        env={"TRUMPS_NATIVE": "0", "PATH": ""},
    )


def test_a_state_added_to_the_table_before_finished_stops_the_engine_saying_what_to_renumber(tmp_path: Path) -> None:
    edited = edited_package(tmp_path, ("table.py", '"second", "finished",', '"second", "third", "finished",'))
    result = run_on(edited, "import rules.core")
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        "RuntimeError: rules.core numbers the phases otherwise than rules.table.STATES"
        " (FINISHED is 5, but 'finished' is at 6; SIXES is 6, but 'sixes' is at 7;"
        " TIE_CHECK is 7, but 'tie_check' is at 8; TURN is 8, but 'turn' is at 9):"
        " give rules.core's phase constants the places of their states in STATES"
    )


DEFAULTS = """
from rules import core
from rules.options import RuleSet
setup = core.State.setup(2, 0)
position = core.State.from_position((0, 1), ((0,), (10,)), (20,), 1, core.RESPOND)
print(RuleSet().must_beat, setup.must_beat, position.must_beat, RuleSet().pass_sixes, setup.pass_sixes)
"""


def test_an_option_default_changed_in_rules_defaults_is_the_default_of_the_rules_state_too(tmp_path: Path) -> None:
    # The solver's tests build their positions with core.State.from_position and play them on as a Game with the
    # default RuleSet: both must follow an edit of the defaults, or the game played is not the one solved.
    edited = edited_package(
        tmp_path,
        ("defaults.py", "MUST_BEAT = False", "MUST_BEAT = True"),
        ("defaults.py", "PASS_SIXES = True", "PASS_SIXES = False"),
    )
    result = run_on(edited, DEFAULTS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["True", "True", "True", "False", "False"]


FIFTY_TWO_CARDS = (
    ("cards.py", 'RANK_CHARS = "6789TJQKA"', 'RANK_CHARS = "23456789TJQKA"'),
    ("cards.py", 'CARD_PATTERN = "^[6789TJQKA][SHDC]$"', 'CARD_PATTERN = "^[23456789TJQKA][SHDC]$"'),
    ("cards.py", "    SIX = 0\n", "    TWO = 0\n    THREE = 1\n    FOUR = 2\n    FIVE = 3\n    SIX = 4\n"),
    ("cards.py", "    SEVEN = 1\n    EIGHT = 2\n    NINE = 3\n", "    SEVEN = 5\n    EIGHT = 6\n    NINE = 7\n"),
    ("cards.py", "    TEN = 4\n    JACK = 5\n    QUEEN = 6\n", "    TEN = 8\n    JACK = 9\n    QUEEN = 10\n"),
    ("cards.py", "    KING = 7\n    ACE = 8\n", "    KING = 11\n    ACE = 12\n"),
)
"""The pack of 52 cards: twos to aces (a duel deals 26 cards each, four players 13)."""


def test_a_pack_too_big_for_the_lists_of_moves_stops_the_engine_saying_what_to_write_out(tmp_path: Path) -> None:
    # The lists of moves are written out byte by byte for speed: with more bits than they read, the last cards
    # and the take would be left out of every list of legal moves.
    result = run_on(edited_package(tmp_path, *FIFTY_TWO_CARDS), "import rules.core")
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == (
        "RuntimeError: a move mask of a 52-card pack has 53 bits (one a card, one to take), but rules.core lists 40:"
        " write out rules.core.moves_of_mask and rules.step._LISTING for more bytes and raise LISTED_BYTES"
    )


PIQUET_PACK = (
    ("cards.py", 'RANK_CHARS = "6789TJQKA"', 'RANK_CHARS = "789TJQKA"'),
    ("cards.py", 'CARD_PATTERN = "^[6789TJQKA][SHDC]$"', 'CARD_PATTERN = "^[789TJQKA][SHDC]$"'),
    ("cards.py", "    SIX = 0\n    SEVEN = 1\n    EIGHT = 2\n", "    SEVEN = 0\n    EIGHT = 1\n"),
    ("cards.py", "    NINE = 3\n    TEN = 4\n    JACK = 5\n", "    NINE = 2\n    TEN = 3\n    JACK = 4\n"),
    ("cards.py", "    QUEEN = 6\n    KING = 7\n    ACE = 8\n", "    QUEEN = 5\n    KING = 6\n    ACE = 7\n"),
)
"""The pack of 32 cards, sevens to aces: a duel deals 16 cards each, and there are no sixes to pass."""

PASSED = """
from rules import Game, RuleSet
from rules.events import ChooseTrump
for seed in range(20):
    game = Game(RuleSet(), seed=seed)
    game.push(ChooseTrump(seat=1, suit="H"))
    game.push(ChooseTrump(seat=0, suit="S"))
    print(*(note.card for note in game.push(game.sample_deal()) if note.type == "six_passed"))
"""


def test_a_pack_without_sixes_passes_no_card_after_the_deal(tmp_path: Path) -> None:
    # Rules §2.2 passes the sixes, whatever rank the pack starts with: not the lowest card of each suit.
    result = run_on(edited_package(tmp_path, *PIQUET_PACK), PASSED)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == []
    real = run_on(edited_package(tmp_path / "real"), PASSED)
    assert set(real.stdout.split()) == {"6S", "6H"}  # the same program passes sixes in the real pack


TAKE = """
from rules import Game
from rules.events import Position
game = Game.from_position(
    Position(trumps=["S", "H"], hands=[["7D"], ["8D", "9C"]], pile=["6C", "7C", "8C", "AH"], to_act=1, phase="respond")
)
take = game.legal_moves()[-1]
print(take.count, *next(note.cards for note in game.push(take) if note.type == "took"))
"""


def test_a_take_count_edited_to_depend_on_the_pile_is_the_count_taken(tmp_path: Path) -> None:
    # Rules §2.6 edited: under the ace of one's own trump, all the pile but its bottom card.
    all_but_the_bottom = (
        "core.py",
        "    else:\n        return pile_size\n",
        "    else:\n        return pile_size - 1\n",
    )
    result = run_on(edited_package(tmp_path, all_but_the_bottom), TAKE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["3", "7C", "8C", "AH"]  # the count the move announces, and the cards taken


ENDED_AT_THE_TRUMP_CHOICE = """
from rules import Game, RuleSet
from rules.events import AgreeDraw, Resign
resigned, drawn = Game(RuleSet()), Game(RuleSet())
resigned.push(Resign(seat=0))
print(drawn.draw_refusal(0))
drawn.push(AgreeDraw())
print(resigned.outcome.result, resigned.outcome.loser, drawn.outcome.result, drawn.outcome.reason)
# At the terminal too: resign while choosing your trump, and confirm.
import contextlib, io
from rich.console import Console
from rules.cli.session import Quit, Session
from rules.players import make_player
game, typed = Game(RuleSet(dealer=1)), iter(["resign", "y"])
session = Session(game, 0, {1: make_player("easy", 1)}, Console(file=io.StringIO()), lambda prompt: next(typed, None))
with contextlib.suppress(Quit):
    session.run()
print(game.outcome.reason)
"""


def test_resigning_and_drawing_added_to_the_trump_choice_in_the_table_are_taken_there(tmp_path: Path) -> None:
    # Rules §3.4 edited: a player may give the hand up, or all agree to a draw, before the deal too. The table's
    # rows say in which phases the players may end the game: nothing else keeps a list of them.
    edited = edited_package(
        tmp_path,
        (
            "table.py",
            '("resigner_loses",)) for phase in ("lead",',
            '("resigner_loses",)) for phase in ("trump_choice", "lead",',
        ),
        (
            "table.py",
            '("draw_by_agreement",)) for phase in ("lead",',
            '("draw_by_agreement",)) for phase in ("trump_choice", "lead",',
        ),
    )
    result = run_on(edited, ENDED_AT_THE_TRUMP_CHOICE)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["None", "loss", "0", "draw", "agreement", "resigned"]


NO_DRAW_ON_A_SECOND_CARD = """
from rules import Game
from rules.events import AgreeDraw, Position
position = Position(trumps=["S", "H"], hands=[["6D"], ["7C", "8C"]], pile=["6C", "9C"], to_act=1, phase="second")
game = Game.from_position(position)
print(game.draw_refusal(0).message)
print(game.refusal(AgreeDraw()).message)
"""


def test_a_draw_taken_out_of_a_phase_in_the_table_is_neither_offered_nor_taken_there(tmp_path: Path) -> None:
    # Rules §3.4.2 edited: no draw while a player owes a second card. The server asks draw_refusal before it offers
    # the draw to the others: it says what the table says, not that the draw may go ahead.
    edited = edited_package(
        tmp_path,
        (
            "table.py",
            '("draw_by_agreement",)) for phase in ("lead", "respond", "second")',
            '("draw_by_agreement",)) for phase in ("lead", "respond")',
        ),
    )
    result = run_on(edited, NO_DRAW_ON_A_SECOND_CARD)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["the rules take no agree_draw event in phase second"] * 2


OPEN_SUITS = """
from rules import Game, RuleSet
from rules.events import ChooseTrump
game = Game(RuleSet())
print(*(move.suit for move in game.legal_moves()), game.refusal(ChooseTrump(seat=1, suit="C")).code)
game.push(ChooseTrump(seat=1, suit="H"))
print(*(move.suit for move in game.legal_moves()), game.refusal(ChooseTrump(seat=0, suit="H")).code)
"""


def test_a_suit_closed_at_the_trump_choice_is_neither_offered_nor_taken(tmp_path: Path) -> None:
    # Rules §2.1 edited: clubs are nobody's trump. The game offers the suits open in one place, which its refusal
    # asks too: an event is legal exactly when the game lists it.
    closed = ("game.py", "if suit not in state.trumps", "if suit not in state.trumps and suit != 3")
    result = run_on(edited_package(tmp_path, closed), OPEN_SUITS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["S H D trump_not_open", "S D trump_taken"]


REFUSED_BEATS = """
from rules import Game
from rules.events import Beat, Position
for card in ("6H", "6C", "7S"):
    position = Position(trumps=["S", "H"], hands=[["6D"], [card, "7D"]], pile=["AS"], to_act=1, phase="respond")
    game = Game.from_position(position)
    refused = game.refusal(Beat(seat=1, card=card))
    print("legal" if refused is None else f"{refused.code}: {refused.message}")
"""


@pytest.mark.parametrize(
    ("edit", "said"),
    [
        pytest.param(
            ("and top_suit != trump\n", "and top_suit != trump and top % RANKS_PER_SUIT != ACE\n"),
            [
                "does_not_beat: seat 1 cannot beat AS with 6H: 6H does not beat AS",
                "not_suit_nor_trump: seat 1 cannot beat AS with 6C: not the same suit and not your trump",
                "lower_card: seat 1 cannot beat AS with 7S: 7S is lower than AS",
            ],
            id="a trump of one's own no longer beats an ace",
        ),
        pytest.param(
            (
                "return card > top\n",
                "return card > top or (top % RANKS_PER_SUIT == ACE and card % RANKS_PER_SUIT == SIX)\n",
            ),
            [
                "legal",
                "not_suit_nor_trump: seat 1 cannot beat AS with 6C: not the same suit and not your trump",
                "does_not_beat: seat 1 cannot beat AS with 7S: 7S does not beat AS",
            ],
            id="a six beats the ace of its suit",
        ),
    ],
)
def test_a_refused_beat_is_explained_by_the_rule_beats_says_now(
    tmp_path: Path, edit: tuple[str, str], said: list[str]
) -> None:
    # Rules §2.4 edited. Each reason of a refused beat claims a rule ("7S is lower than AS": no lower spade beats
    # the ace); given only while beats keeps it, else the refusal says no more than that the card does not beat.
    result = run_on(edited_package(tmp_path, ("core.py", *edit)), REFUSED_BEATS)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == said


ONE_SOLVER_ALONG_A_GAME = """
sys.path.insert(1, {tests!r})  # after the edited package: the tests' brute force plays its rules
from test_solver import brute_force_value, counted_positions
from rules import core
from rules.cards import cards_of_mask
from rules.players.solver import Solver

trumps = (0, 2)
first = core.State.from_position(trumps, [(19, 29, 34), (4, 13, 16)], (), 0, core.LEAD)  # 7D 8C KC against TS TH KH
solver, asked, wrong = Solver(), 0, []
solver.solve(first)
for key in sorted(counted_positions(first.copy(), set())):
    masks, pile, seat, phase = core.key_parts(key, 2)
    if sum(mask.bit_count() for mask in masks) <= 5:
        state = core.State.from_position(trumps, [list(cards_of_mask(mask)) for mask in masks], pile, seat, phase)
        asked += 1
        if solver.solve(state).value != brute_force_value(state.fresh_copy(), seat):
            wrong.append(key)
print(core.REPETITIONS_FOR_DRAW, asked, wrong)
"""
"""One solver asked about a position where play can go round, then about every later position of its game tree with
at most five cards in the hands, in turn (as the ``perfect`` player asks along a game: what its table keeps from one
position must hold for the next), each value against a plain minimax over the rules (the tests' brute force)."""


@pytest.mark.parametrize("count", [3, 2])
def test_a_draw_at_another_occurrence_of_a_position_leaves_the_solvers_values_exact(count: int, tmp_path: Path) -> None:
    # The solver takes a position seen before on a line for a not-win that leans on that line, before it reads the
    # rules' outcome. It read the outcome first: with the draw at the second occurrence, that is a draw by repetition,
    # which its table then kept as a plain not-win, and 2 of these 33 positions were called draws that are wins.
    edit = ("core.py", "REPETITIONS_FOR_DRAW: Final = 3", f"REPETITIONS_FOR_DRAW: Final = {count}")
    program = ONE_SOLVER_ALONG_A_GAME.replace("{tests!r}", repr(str(Path(__file__).parents[1] / "players")))
    result = run_on(edited_package(tmp_path, edit), program)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split(maxsplit=2) == [str(count), "33", "[]\n"], result.stdout
