"""Conformance vectors: small logs, each showing one rule, with the state after every line.

A vector is a log ``NAME.jsonl`` and ``NAME.states.jsonl``, whose line ``k`` is the
state (exactly as ``trumps replay --json`` prints it) after line ``k`` of the log. A
bad vector ``NAME.bad.jsonl`` is a log whose last line must be refused; the index
gives that line's number and the reason the engine gives.

Every vector states what it shows and checks it while it is generated: a good vector
names the fields its final state must have, a bad one the words its refusal must
contain. So a vector whose scenario stopped showing its rule fails to generate
instead of silently showing something else.

>>> vector = next(v for v in GOOD if v.name == "take_three_from_a_longer_pile")
>>> [line["type"] for line in vector.lines][:3]
['start', 'position', 'take']
>>> states = vector_states(vector)
>>> states[-1]["pile"]
['6D', '7D']
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.cards import CODES, Card
from rules.events import Beat, Event, EventError, Lead, Second, event_dict, parse_event
from rules.game import Game, IllegalEvent
from rules.locale import N_
from rules.log import BYTE_ORDER_MARK, LogError, header_line, read_log
from rules.options import RuleSet

Line = dict[str, Any] | str
"""A log line: an object written as compact JSON, or raw text (for malformed lines)."""


@dataclass(frozen=True)
class Vector:
    """A log that must replay, what it shows, and fields its final state must have."""

    name: str
    shows: str
    rules: tuple[str, ...]
    lines: tuple[Line, ...]
    expect: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class BadVector:
    """A log whose last line must be refused, with words the refusal must contain."""

    name: str
    shows: str
    rules: tuple[str, ...]
    lines: tuple[Line, ...]
    reason: str


# --- writing logs briefly -----------------------------------------------------------------


def _nested(depth: int) -> list[Any]:
    """A list nested ``depth`` deep: ``[[...[]...]]``."""
    value: list[Any] = []
    for _ in range(depth - 1):
        value = [value]
    return value


def start(players: int = 2, dealer: int = 0, pass_sixes: bool = True, must_beat: bool = False) -> dict[str, Any]:
    """A header with every field written out."""
    return {
        "type": "start",
        "format": 1,
        "players": players,
        "dealer": dealer,
        "rules": {"pass_sixes": pass_sixes, "must_beat": must_beat},
    }


def position(trumps: str, hands: Sequence[str], pile: str, to_act: int, phase: str) -> dict[str, Any]:
    """A position line: ``trumps`` as letters (``"SH"``), hands and pile as space-separated codes."""
    return {
        "type": "position",
        "trumps": list(trumps),
        "hands": [hand.split() for hand in hands],
        "pile": pile.split(),
        "to_act": to_act,
        "phase": phase,
    }


def moves(text: str) -> list[dict[str, Any]]:
    """Play events from ``"1 beat KH, 1 second 7D, 0 take"``."""
    events: list[dict[str, Any]] = []
    for item in text.split(","):
        seat, kind, *card = item.split()
        event: dict[str, Any] = {"type": kind, "seat": int(seat)}
        if card:
            event["card"] = card[0]
        events.append(event)
    return events


def trumps(order: str, first_seat: int, players: int) -> list[dict[str, Any]]:
    """The trump choice: ``order`` gives the suits in choosing order, starting at ``first_seat``."""
    return [{"type": "choose_trump", "seat": (first_seat + i) % players, "suit": suit} for i, suit in enumerate(order)]


def deal(*hands: str) -> dict[str, Any]:
    return {"type": "deal", "hands": [hand.split() for hand in hands]}


def suits(letters: str) -> str:
    """Every card of the given suits, six to ace: ``suits("SH")`` is 18 codes."""
    return " ".join(code for code in CODES if code[1] in letters)


def good(name: str, shows: str, rules: str, *lines: Line | list[dict[str, Any]], **expect: Any) -> Vector:
    return Vector(name, shows, tuple(rules.split()), tuple(_flat(lines)), expect)


def bad(name: str, shows: str, rules: str, *lines: Line | list[dict[str, Any]], reason: str) -> BadVector:
    return BadVector(name, shows, tuple(rules.split()), tuple(_flat(lines)), reason)


def _flat(lines: Iterable[Any]) -> list[Any]:
    flat: list[Any] = []
    for line in lines:
        flat.extend(line if isinstance(line, list) else [line])
    return flat


def cut(players: int) -> list[str]:
    """The pack in order (spades six to ace, then hearts, diamonds, clubs) cut into equal hands."""
    size = len(CODES) // players
    return [" ".join(CODES[seat * size : (seat + 1) * size]) for seat in range(players)]


DUEL = "SH"  # in the 2-player positions below, seat 0's trump is spades and seat 1's hearts


# --- the vectors that must replay ---------------------------------------------------------

GOOD: tuple[Vector, ...] = (
    # §2.1-2.3: the trump choice, the deal, passing sixes, the first lead.
    good(
        "trump_choice_and_deal_three_players",
        N_(
            "Dealer 1 of 3: seats 2, 0 and 1 choose trumps in turn; after the deal seat 2 leads first. "
            "Sixes pass: 6D to seat 2 (diamonds), 6H to seat 1 (hearts); 6S stays (seat 0's own trump), "
            "6C stays (nobody's trump)."
        ),
        "§1 §2.1 §2.2 §2.3",
        start(players=3, dealer=1),
        trumps("DSH", first_seat=2, players=3),
        deal(*cut(3)),
        moves("2 lead 6D"),
        phase="respond",
        to_act=0,
    ),
    good(
        "sixes_stay_without_pass_sixes",
        "The same deal with rule option pass_sixes off: every six stays where it was dealt.",
        "§2.2",
        start(players=3, dealer=1, pass_sixes=False),
        trumps("DSH", first_seat=2, players=3),
        deal(*cut(3)),
        phase="lead",
        to_act=2,
    ),
    good(
        "duel_trump_choice_and_deal",
        "The duel with dealer 0: seat 1 chooses first and leads first; 18 cards each; 6H passes to seat 1, "
        "6S stays with seat 0 whose trump it is.",
        "§1 §2.1 §2.2 §2.3",
        start(),
        trumps("HS", first_seat=1, players=2),
        deal(*cut(2)),
        phase="lead",
        to_act=1,
    ),
    good(
        "four_players_every_suit_is_a_trump",
        "Four players, dealer 3: seats 0, 1, 2, 3 choose; all four sixes go to their owners.",
        "§2.1 §2.2",
        start(players=4, dealer=3),
        trumps("CDHS", first_seat=0, players=4),
        deal(*cut(4)),
        phase="lead",
        to_act=0,
    ),
    # §2.4: what beats what.
    good(
        "beat_with_higher_card_of_same_suit",
        "Seat 1 beats 9C with KC, then plays its second card 9D, which seat 0 must answer.",
        "§2.4 §2.5",
        start(),
        position(DUEL, ["7D 8C", "KC 9D 6S"], "9C", 1, "respond"),
        moves("1 beat KC, 1 second 9D"),
        phase="respond",
        to_act=0,
        pile=["9C", "KC", "9D"],
    ),
    good(
        "beat_with_own_trump_while_holding_the_led_suit",
        N_("Seat 1 (trump hearts) beats 9C with 6H although it holds QC: nobody must follow suit."),
        "§2.4",
        start(),
        position(DUEL, ["8S 8C", "6H QC 7D"], "9C", 1, "respond"),
        moves("1 beat 6H, 1 second QC"),
        phase="respond",
        to_act=0,
    ),
    good(
        "only_a_higher_trump_beats_own_trump",
        N_("Seat 0 led TH; for seat 1 hearts is its own trump, so only JH or higher beats it."),
        "§2.4",
        start(),
        position(DUEL, ["TH 8C", "JH AS 6C"], "", 0, "lead"),
        moves("0 lead TH, 1 beat JH, 1 second 6C"),
        phase="respond",
        to_act=0,
    ),
    good(
        "another_players_trump_is_an_ordinary_suit",
        N_("Seat 0 led its own trump AS; seat 1 (trump hearts) beats it with 6H: only your trumps are special."),
        "§2.4",
        start(),
        position(DUEL, ["AS 8C", "6H 7C 7D"], "", 0, "lead"),
        moves("0 lead AS, 1 beat 6H, 1 second 7C"),
        phase="respond",
        to_act=0,
    ),
    # §2.6-2.7: taking and the re-lead.
    good(
        "take_three_from_a_longer_pile",
        N_(
            "Seat 1 takes from a pile of five topped by TC (not its trump): the top three; seat 0 must then answer "
            "the exposed 7D."
        ),
        "§2.6 §2.7",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "6D 7D 8D 9C TC", 1, "respond"),
        moves("1 take"),
        phase="respond",
        to_act=0,
        pile=["6D", "7D"],
        hands=[["8S", "6C"], ["KH", "8D", "7C", "9C", "TC"]],
    ),
    good(
        "take_whole_pile_of_three_or_fewer_then_lead",
        "Seat 1 takes a pile of two cards: the whole pile; seat 0 then leads any card.",
        "§2.6 §2.7",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "8D 9D", 1, "respond"),
        moves("1 take, 0 lead 6C"),
        phase="respond",
        to_act=1,
    ),
    good(
        "take_five_under_own_trump",
        N_("The top card 9H is seat 1's trump (not the ace): seat 1 takes the top five of seven."),
        "§2.6 §2.7",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "6D 7D 8D 9D TD JD 9H", 1, "respond"),
        moves("1 take"),
        phase="respond",
        to_act=0,
        pile=["6D", "7D"],
    ),
    good(
        "take_whole_pile_under_ace_of_own_trump",
        N_("The top card AH is the ace of seat 1's trump: seat 1 takes all seven cards; seat 0 leads."),
        "§2.6 §2.7",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "6D 7D 8D 9D TD JD AH", 1, "respond"),
        moves("1 take"),
        phase="lead",
        to_act=0,
        pile=[],
    ),
    good(
        "take_five_from_a_short_pile_takes_it_all",
        "A pile of four topped by seat 1's trump 7H: five are due, so the whole pile goes.",
        "§2.6 §2.7",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "6D 7D 8D 7H", 1, "respond"),
        moves("1 take"),
        phase="lead",
        to_act=0,
    ),
    good(
        "ace_of_another_players_trump_is_taken_by_three",
        "AS is seat 0's trump, not seat 1's: seat 1 takes only the top three.",
        "§2.6",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "6D 7D 8D 9D AS", 1, "respond"),
        moves("1 take"),
        phase="respond",
        to_act=0,
        pile=["6D", "7D"],
    ),
    good(
        "take_with_count_written",
        'A writer may add "count" to a take; it matches the rules (3), so the line is accepted.',
        "§2.6",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "6D 7D 8D 9C TC", 1, "respond"),
        [{"type": "take", "seat": 1, "count": 3}],
        pile=["6D", "7D"],
    ),
    good(
        "take_although_able_to_beat",
        N_("Without must_beat, seat 1 may take although QC (and its trump 6H) would beat 9C."),
        "§2.4",
        start(),
        position(DUEL, ["8S 6C", "QC 6H"], "7D 9C", 1, "respond"),
        moves("1 take"),
        phase="lead",
        to_act=0,
    ),
    good(
        "must_beat_allows_taking_when_unable_to_beat",
        "With must_beat, seat 1 may still take when nothing in its hand beats 9C.",
        "§2.4",
        start(must_beat=True),
        position(DUEL, ["8S 6C", "7C 6S"], "7D 9C", 1, "respond"),
        moves("1 take"),
        phase="lead",
        to_act=0,
    ),
    good(
        "must_beat_beats",
        "With must_beat, seat 1 holding QC beats 9C with it.",
        "§2.4",
        start(must_beat=True),
        position(DUEL, ["8S 6C", "QC 7D 8D"], "9C", 1, "respond"),
        moves("1 beat QC, 1 second 7D"),
        phase="respond",
        to_act=0,
    ),
    good(
        "position_in_phase_second",
        "A game may start in phase second: seat 1 has beaten and now plays its second card.",
        "§2.5",
        start(),
        position(DUEL, ["8S 6C", "QC 7D"], "9C JC", 1, "second"),
        moves("1 second 7D"),
        phase="respond",
        to_act=0,
    ),
    # §3: going out, turns skipping empty hands, the tie check.
    good(
        "go_out_with_beating_card_no_second_card",
        N_(
            "Three players: seat 1 beats with its last card, so it has gone out and plays no second card; "
            "seat 2 must answer the beating card."
        ),
        "§2.5 §3",
        start(players=3),
        position("SHD", ["8S 6C", "QC", "7D 8D"], "9C", 1, "respond"),
        moves("1 beat QC"),
        phase="respond",
        to_act=2,
        pile=["9C", "QC"],
    ),
    good(
        "go_out_with_second_card",
        "Three players: seat 1 beats and goes out with its second card; seat 2 answers it.",
        "§2.5 §3",
        start(players=3),
        position("SHD", ["8S 6C", "QC 7C", "7D 8D"], "9C", 1, "respond"),
        moves("1 beat QC, 1 second 7C"),
        phase="respond",
        to_act=2,
    ),
    good(
        "go_out_with_lead",
        "Three players: seat 0 leads its last card and goes out; seat 1 answers.",
        "§2.3 §3",
        start(players=3),
        position("SHD", ["6C", "QC 7C", "7D 8D"], "", 0, "lead"),
        moves("0 lead 6C"),
        phase="respond",
        to_act=1,
    ),
    good(
        "turn_skips_a_player_who_went_out",
        "Three players, seat 1 already out: after seat 0 takes, the turn goes to seat 2, not seat 1.",
        "§1 §3",
        start(players=3),
        position("SHD", ["8S 6C", "", "7D 8D"], "9C TC", 0, "respond"),
        moves("0 take, 2 lead 7D"),
        phase="respond",
        to_act=0,
    ),
    good(
        "four_players_turns_skip_two_empty_seats",
        "Four players, seats 1 and 2 out: seat 0's second card is answered by seat 3.",
        "§1 §3",
        start(players=4),
        position("SHDC", ["8S 6C JD", "", "", "7D 8D"], "9C", 0, "respond"),
        moves("0 beat 8S, 0 second 6C"),
        phase="respond",
        to_act=3,
    ),
    good(
        "tie_check_draw",
        N_("Seat 1 goes out beating 9D with JD; seat 0 is left with one card, TS, which beats JD (its trump): a draw."),
        "§3",
        start(),
        position(DUEL, ["TS", "JD"], "9D", 1, "respond"),
        moves("1 beat JD"),
        phase="finished",
        outcome={"result": "draw", "reason": "tie_check", "out_order": [1]},
    ),
    good(
        "tie_check_loss_card_does_not_beat",
        N_("Seat 0 is left with one card, 7C, which does not beat JD: seat 0 loses."),
        "§3",
        start(),
        position(DUEL, ["7C", "JD"], "9D", 1, "respond"),
        moves("1 beat JD"),
        outcome={"result": "loss", "loser": 0, "out_order": [1]},
    ),
    good(
        "tie_check_loss_more_than_one_card",
        "Seat 0 is left with two cards; one would beat, but a draw needs exactly one card: seat 0 loses.",
        "§3",
        start(),
        position(DUEL, ["TS AS", "JD"], "9D", 1, "respond"),
        moves("1 beat JD"),
        outcome={"result": "loss", "loser": 0, "out_order": [1]},
    ),
    good(
        "tie_check_uses_the_last_players_own_trump",
        "Seat 0 is left with 6H; hearts is seat 1's trump, not seat 0's, so 6H does not beat JD: seat 0 loses.",
        "§3",
        start(),
        position(DUEL, ["6H", "JD"], "9D", 1, "respond"),
        moves("1 beat JD"),
        outcome={"result": "loss", "loser": 0, "out_order": [1]},
    ),
    good(
        "go_out_with_lead_ends_the_duel",
        "Seat 0 leads its last card 8C; seat 1's one card 9C beats it: a draw by the tie check.",
        "§3",
        start(),
        position(DUEL, ["8C", "9C"], "", 0, "lead"),
        moves("0 lead 8C"),
        outcome={"result": "draw", "reason": "tie_check", "out_order": [0]},
    ),
    good(
        "go_out_with_second_card_ends_the_duel",
        "Seat 1 beats, then goes out with its second card 7D; seat 0 holds 6S and 8C: seat 0 loses.",
        "§2.5 §3",
        start(),
        position(DUEL, ["6S 8C", "QC 7D"], "9C", 1, "respond"),
        moves("1 beat QC, 1 second 7D"),
        outcome={"result": "loss", "loser": 0, "out_order": [1]},
    ),
    good(
        "three_players_winners_in_order",
        "Three players: seat 1 goes out first, then seat 2; seat 0 is left with two cards and loses.",
        "§3",
        start(players=3),
        position("SHD", ["8S 6C", "QC", "7D"], "9C", 1, "respond"),
        moves("1 beat QC, 2 beat 7D"),
        outcome={"result": "loss", "loser": 0, "out_order": [1, 2]},
    ),
    good(
        "repetition_draw",
        N_(
            "The same position (seat 0 to lead with 7D AS against 9D 6C 8D KH) arises for the third time "
            "after two rounds of lead, beat, second, take: the game is drawn. The starting position counts once."
        ),
        "§3",
        start(),
        position(DUEL, ["7D AS", "9D 6C 8D KH"], "", 0, "lead"),
        moves(
            "0 lead 7D, 1 beat 9D, 1 second 6C, 0 take, 1 lead 8D, 0 beat 9D, 0 second 6C, 1 take, "
            "0 lead 7D, 1 beat 9D, 1 second 6C, 0 take, 1 lead 8D, 0 beat 9D, 0 second 6C, 1 take"
        ),
        outcome={"result": "draw", "reason": "repetition", "out_order": []},
    ),
    # §2.6.2: the count of a take is the number of cards actually taken.
    good(
        "take_count_on_a_short_pile_is_what_is_taken",
        'Three are due from a pile of two under 9C (not seat 1\'s trump): the take takes 2, and "count": 2 is '
        "what a writer writes.",
        "§2.6",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "8D 9C", 1, "respond"),
        [{"type": "take", "seat": 1, "count": 2}],
        phase="lead",
        to_act=0,
        pile=[],
    ),
    good(
        "take_count_of_five_on_a_short_pile",
        "Five are due under seat 1's trump 7H, but the pile holds four: the count is 4.",
        "§2.6",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "6D 7D 8D 7H", 1, "respond"),
        [{"type": "take", "seat": 1, "count": 4}],
        phase="lead",
        pile=[],
    ),
    good(
        "take_count_under_the_ace_is_the_whole_pile",
        "Under the ace of seat 1's trump the whole pile of seven goes: the count is 7.",
        "§2.6",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "6D 7D 8D 9D TD JD AH", 1, "respond"),
        [{"type": "take", "seat": 1, "count": 7}],
        phase="lead",
        pile=[],
    ),
    good(
        "take_count_of_one",
        "A pile of one card: the take takes it, count 1.",
        "§2.6",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "9C", 1, "respond"),
        [{"type": "take", "seat": 1, "count": 1}],
        phase="lead",
        pile=[],
    ),
    # Positions (log format §L4): empty seats, the order of going out, the repetition history.
    good(
        "position_empty_seats_open_the_out_order",
        "Three players, seat 1 starts with no cards: it has already gone out. Seat 0 goes out with its lead and "
        "seat 2, left with two cards, loses; the winners are seat 1, then seat 0.",
        "§3.1 §3.2",
        start(players=3),
        position("SHD", ["6C", "", "7D 8D"], "", 0, "lead"),
        moves("0 lead 6C"),
        outcome={"result": "loss", "loser": 2, "out_order": [1, 0]},
    ),
    good(
        "position_with_out_order",
        "Four players, seats 1 and 2 empty, and the position says seat 2 went out first: the winners are "
        "seat 2, seat 1, then seat 0.",
        "§3.1 §3.2",
        start(players=4),
        {**position("SHDC", ["6C", "", "", "7D 8D"], "", 0, "lead"), "out_order": [2, 1]},
        moves("0 lead 6C"),
        outcome={"result": "loss", "loser": 3, "out_order": [2, 1, 0]},
    ),
    good(
        "position_with_seen_history",
        "The position of repetition_draw, carrying in `seen` that it arose once before: after one round of eight "
        "moves it arises for the third time, a draw (without `seen` the draw needs two rounds).",
        "§3.3",
        start(),
        {
            **position(DUEL, ["7D AS", "9D 6C 8D KH"], "", 0, "lead"),
            "seen": [
                {
                    "hands": [["AS", "7D"], ["KH", "8D", "9D", "6C"]],
                    "pile": [],
                    "to_act": 0,
                    "phase": "lead",
                    "count": 1,
                }
            ],
        },
        moves("0 lead 7D, 1 beat 9D, 1 second 6C, 0 take, 1 lead 8D, 0 beat 9D, 0 second 6C, 1 take"),
        outcome={"result": "draw", "reason": "repetition", "out_order": []},
    ),
    good(
        "null_count_is_no_count",
        '"count": null in a take means the same as no count.',
        "log",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "6D 7D 8D 9C TC", 1, "respond"),
        [{"type": "take", "seat": 1, "count": None}],
        pile=["6D", "7D"],
    ),
    good(
        "unknown_fields_are_ignored",
        "Extra fields, in the header, its rules, a position and a move, are ignored whatever their value.",
        "log",
        {**start(), "comment": "written by hand", "rules": {"pass_sixes": True, "must_beat": False, "future": 1}},
        {**position(DUEL, ["TS", "JD"], "9D", 1, "respond"), "note": {"source": "a study"}},
        {"type": "beat", "seat": 1, "card": "JD", "time": 1.5, "count": "not a take's"},
        outcome={"result": "draw", "reason": "tie_check", "out_order": [1]},
    ),
    good(
        "long_numbers_and_deep_nesting_in_unknown_fields",
        "An unknown field may hold a number of 5,000 digits, and values nested 512 deep (the line's object counts 1).",
        "log",
        json.dumps(start(), separators=(",", ":"))[:-1] + f',"serial":{"9" * 5000},"fraction":0.{"1" * 5000}}}',
        {**position(DUEL, ["TS", "JD"], "9D", 1, "respond"), "note": _nested(511)},
        phase="respond",
    ),
    good(
        "state_before_the_deal",
        "Before the deal every seat's hand is an empty list, and to_act is null while the deal is awaited.",
        "§2.1 §2.2",
        start(players=3, dealer=2),
        trumps("SHD", first_seat=0, players=3),
        phase="deal",
        to_act=None,
        hands=[[], [], []],
    ),
    # §3.4: the players end the game themselves.
    good(
        "resign_by_the_seat_not_to_act",
        "Seat 0 must answer, but seat 1 resigns: any seat holding cards may resign at any moment of play, and "
        "loses (rules §3.4.1).",
        "§3.4.1",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "9D", 0, "respond"),
        {"type": "resign", "seat": 1},
        phase="finished",
        to_act=None,
        outcome={"result": "loss", "loser": 1, "reason": "resigned", "out_order": []},
    ),
    good(
        "resign_in_the_second_card_phase",
        "Seat 1 has beaten and owes a second card; it resigns instead and loses.",
        "§2.5 §3.4.1",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "9D TD", 1, "second"),
        {"type": "resign", "seat": 1},
        outcome={"result": "loss", "loser": 1, "reason": "resigned", "out_order": []},
    ),
    good(
        "resign_after_a_seat_went_out",
        "Three players, seat 2 already out: seat 1 resigns and loses; seat 2's place stays as it was.",
        "§3.1 §3.4.1",
        start(players=3),
        position("SHD", ["8S 6C", "KH", ""], "", 0, "lead"),
        {"type": "resign", "seat": 1},
        outcome={"result": "loss", "loser": 1, "reason": "resigned", "out_order": [2]},
    ),
    good(
        "draw_by_agreement",
        "A duel in the middle of play ends drawn by agreement: the agree_draw line has no seat (rules §3.4.2).",
        "§3.4.2",
        start(),
        trumps("HS", first_seat=1, players=2),
        deal(*cut(2)),
        moves("1 lead 7D"),
        {"type": "agree_draw"},
        phase="finished",
        outcome={"result": "draw", "reason": "agreement", "out_order": []},
    ),
)


# --- the vectors whose last line must be refused ------------------------------------------

_DUEL_TO_ANSWER = position(DUEL, ["8S 6C", "KH 7C"], "6D 7D 8D 9C TC", 1, "respond")

BAD: tuple[BadVector, ...] = (
    bad("malformed_json", "A line that is not JSON.", "log", start(), "{not json", reason="malformed JSON"),
    bad(
        "unknown_event_type",
        "An event type the format does not have.",
        "log",
        start(),
        {"type": "pass", "seat": 0},
        reason="unknown event type 'pass'",
    ),
    bad(
        "missing_type",
        "A line without a type.",
        "log",
        start(),
        {"seat": 0, "card": "6S"},
        reason="missing field 'type'",
    ),
    bad(
        "bad_card_code",
        "A card code that is no card (1D).",
        "log",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "", 0, "lead"),
        {"type": "lead", "seat": 0, "card": "1D"},
        reason="'1D' is not a card code",
    ),
    bad(
        "lowercase_card_code",
        "Card codes are upper case: 6c is refused.",
        "log",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "", 0, "lead"),
        {"type": "lead", "seat": 0, "card": "6c"},
        reason="'6c' is not a card code",
    ),
    bad(
        "missing_field",
        "A beat without its card.",
        "log",
        start(),
        _DUEL_TO_ANSWER,
        {"type": "beat", "seat": 1},
        reason="card: missing",
    ),
    bad(
        "mistyped_seat",
        'A seat written as a string ("1") is a mistyped field.',
        "log",
        start(),
        _DUEL_TO_ANSWER,
        {"type": "take", "seat": "1"},
        reason="seat: Input should be a valid integer",
    ),
    bad(
        "nested_more_than_512_deep",
        "Values nested 513 deep, even in an unknown field, are refused (log format §L1.8).",
        "log",
        start(),
        {**position(DUEL, ["TS", "JD"], "9D", 1, "respond"), "note": _nested(512)},
        reason="nested more than 512 deep",
    ),
    bad(
        "format_written_as_true",
        "The header's format is the JSON integer 1: true is mistyped, although true == 1 in some languages.",
        "log",
        {"type": "start", "format": True},
        reason="format: Input should be a valid integer",
    ),
    bad(
        "format_written_as_a_float",
        "The header's format is the JSON integer 1: 1.0 is mistyped.",
        "log",
        {"type": "start", "format": 1.0},
        reason="format: Input should be a valid integer",
    ),
    bad(
        "bad_suit",
        "A trump suit that is no suit (X).",
        "log",
        start(),
        {"type": "choose_trump", "seat": 1, "suit": "X"},
        reason="suit: Input should be 'S', 'H', 'D' or 'C'",
    ),
    bad(
        "log_without_header",
        "The first line must be the start header.",
        "log",
        {"type": "choose_trump", "seat": 1, "suit": "H"},
        reason="a log starts with a start header",
    ),
    bad(
        "second_header",
        "A start header after the first line.",
        "log",
        start(),
        start(),
        reason="a start header can only be the first line",
    ),
    bad(
        "dealer_not_a_seat",
        "Dealer 2 in a 2-player game.",
        "log §1",
        {"type": "start", "players": 2, "dealer": 2},
        reason="dealer 2 is not a seat of a 2-player game",
    ),
    bad(
        "five_players",
        "Two to four players.",
        "log §1",
        {"type": "start", "players": 5},
        reason="players: Input should be less than or equal to 4",
    ),
    bad(
        "trump_chosen_out_of_turn",
        "With dealer 0, seat 1 chooses first, not seat 0.",
        "§2.1",
        start(),
        {"type": "choose_trump", "seat": 0, "suit": "S"},
        reason="it is seat 1's turn to choose",
    ),
    bad(
        "trump_suit_already_taken",
        "No two players may choose the same suit.",
        "§2.1",
        start(),
        trumps("HH", first_seat=1, players=2),
        reason="it is already seat 1's trump",
    ),
    bad(
        "deal_before_trumps_are_chosen",
        "The deal comes after the trump choice.",
        "§2.1 §2.2",
        start(),
        trumps("H", first_seat=1, players=2),
        deal(*cut(2)),
        reason="the deal comes after every player has chosen a trump",
    ),
    bad(
        "deal_with_a_card_twice",
        "The deal must be exactly the pack: here 6S is dealt twice and AC never.",
        "§2.2",
        start(),
        trumps("HS", first_seat=1, players=2),
        deal(cut(2)[0], cut(2)[1].replace("AC", "6S")),
        reason="the deal has 6S twice",
    ),
    bad(
        "deal_with_unequal_hands",
        "Each of two players gets 18 cards.",
        "§2.2",
        start(),
        trumps("HS", first_seat=1, players=2),
        deal(cut(2)[0] + " 6D", cut(2)[1].replace("6D ", "")),
        reason="the deal gives seat 0 19 cards, not 18",
    ),
    bad(
        "lead_out_of_turn",
        "With dealer 0, seat 1 leads first.",
        "§2.3",
        start(),
        trumps("HS", first_seat=1, players=2),
        deal(*cut(2)),
        {"type": "lead", "seat": 0, "card": "7S"},
        reason="it is seat 1's turn",
    ),
    bad(
        "lead_a_card_not_held",
        "Seat 1 leads a card it does not hold.",
        "§2.3",
        start(),
        trumps("HS", first_seat=1, players=2),
        deal(*cut(2)),
        {"type": "lead", "seat": 1, "card": "7S"},
        reason="7S is not in seat 1's hand",
    ),
    bad(
        "beat_with_a_lower_card",
        "8C does not beat 9C.",
        "§2.4",
        start(),
        position(DUEL, ["8S 6C", "8C 7D"], "9C", 1, "respond"),
        moves("1 beat 8C"),
        reason="8C is lower than 9C",
    ),
    bad(
        "beat_with_another_suit",
        "7D is neither a club nor seat 1's trump: it does not beat 9C.",
        "§2.4",
        start(),
        position(DUEL, ["8S 6C", "8C 7D"], "9C", 1, "respond"),
        moves("1 beat 7D"),
        reason="not the same suit and not your trump",
    ),
    bad(
        "beat_with_another_players_trump",
        "7S is seat 0's trump, not seat 1's: for seat 1 it does not beat KD.",
        "§2.4",
        start(),
        position(DUEL, ["8S 6C", "7S 7D"], "KD", 1, "respond"),
        moves("1 beat 7S"),
        reason="not the same suit and not your trump",
    ),
    bad(
        "beat_own_trump_with_another_suit",
        "TH is seat 1's trump; AS does not beat it.",
        "§2.4",
        start(),
        position(DUEL, ["8S 6C", "AS 7D"], "TH", 1, "respond"),
        moves("1 beat AS"),
        reason="TH is your trump, only a higher trump beats it",
    ),
    bad(
        "beat_on_an_empty_pile",
        "On an empty pile the player leads.",
        "§2.3",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "", 0, "lead"),
        moves("0 beat 8S"),
        reason="the pile is empty, seat 0 must lead",
    ),
    bad(
        "take_from_an_empty_pile",
        "There is nothing to take from an empty pile.",
        "§2.3 §2.6",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "", 0, "lead"),
        moves("0 take"),
        reason="seat 0 cannot take: the pile is empty",
    ),
    bad(
        "lead_instead_of_answering",
        "A non-empty pile must be beaten or taken from.",
        "§2.4",
        start(),
        _DUEL_TO_ANSWER,
        moves("1 lead 7C"),
        reason="seat 1 must beat TC or take",
    ),
    bad(
        "no_second_card_skipped",
        "After beating, the same player plays a second card; the next player may not take yet.",
        "§2.5",
        start(),
        position(DUEL, ["8S 6C", "QC 7D"], "9C", 1, "respond"),
        moves("1 beat QC, 0 take"),
        reason="it is seat 1's turn",
    ),
    bad(
        "second_card_when_a_beat_is_due",
        "A second card is played only after one's own beat.",
        "§2.5",
        start(),
        _DUEL_TO_ANSWER,
        moves("1 second 7C"),
        reason="seat 1 must beat TC or take",
    ),
    bad(
        "must_beat_forbids_taking",
        "With must_beat, seat 1 holding QC may not take from 9C.",
        "§2.4",
        start(must_beat=True),
        position(DUEL, ["8S 6C", "QC 7D"], "9C", 1, "respond"),
        moves("1 take"),
        reason="rule must_beat, and 9C can be beaten with QC",
    ),
    bad(
        "take_with_a_wrong_count",
        "A take that says it takes 5 cards where the rules give 3.",
        "§2.6",
        start(),
        _DUEL_TO_ANSWER,
        {"type": "take", "seat": 1, "count": 5},
        reason="seat 1 cannot take 5 cards: the rules give 3",
    ),
    bad(
        "play_after_the_game_is_over",
        "Nothing may follow the end of the game.",
        "§3",
        start(),
        position(DUEL, ["7C", "JD"], "9D", 1, "respond"),
        moves("1 beat JD, 0 take"),
        reason="the game is over",
    ),
    bad(
        "player_who_went_out_plays",
        "Seat 1 went out; it is seat 2's turn, not seat 1's.",
        "§3",
        start(players=3),
        position("SHD", ["8S 6C", "QC", "7D 8D"], "9C", 1, "respond"),
        moves("1 beat QC, 1 second 8S"),
        reason="it is seat 2's turn",
    ),
    bad(
        "position_after_the_trump_choice",
        "A position only starts a game, right after the header.",
        "position",
        start(),
        trumps("H", first_seat=1, players=2),
        position(DUEL, ["8S 6C", "KH 7C"], "", 0, "lead"),
        reason="a position can only start a game",
    ),
    bad(
        "position_with_a_card_twice",
        "Every card at most once across hands and pile.",
        "position",
        start(),
        position(DUEL, ["8S 6C", "KH 6C"], "", 0, "lead"),
        reason="6C appears more than once",
    ),
    bad(
        "position_with_shared_trump",
        "The trumps must be distinct suits.",
        "position §2.1",
        start(),
        position("SS", ["8S 6C", "KH 7C"], "", 0, "lead"),
        reason="two seats have the same trump suit",
    ),
    bad(
        "position_respond_on_empty_pile",
        "The pile is empty exactly when the phase is lead.",
        "position",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "", 0, "respond"),
        reason="the pile must be empty exactly when the phase is lead",
    ),
    bad(
        "position_empty_seat_to_act",
        "The seat to act must hold cards.",
        "position §3",
        start(players=3),
        position("SHD", ["8S 6C", "", "KH 7C"], "", 1, "lead"),
        reason="seat 1 is to act but holds no cards",
    ),
    bad(
        "position_with_one_holder",
        "At least two seats hold cards (else the game is already over).",
        "position §3",
        start(),
        position(DUEL, ["8S 6C", ""], "", 0, "lead"),
        reason="fewer than two seats hold cards",
    ),
    bad(
        "take_count_nominal_on_a_short_pile",
        "A take from a pile of two that says 3, the nominal count: the count is what is taken, 2.",
        "§2.6",
        start(),
        position(DUEL, ["8S 6C", "KH 7C"], "8D 9C", 1, "respond"),
        {"type": "take", "seat": 1, "count": 3},
        reason="seat 1 cannot take 3 cards: the rules give 2",
    ),
    bad(
        "position_out_order_not_the_empty_seats",
        "out_order must list exactly the seats with empty hands.",
        "position",
        start(players=3),
        {**position("SHD", ["6C", "", "7D 8D"], "", 0, "lead"), "out_order": [0]},
        reason="must list each seat with an empty hand once",
    ),
    bad(
        "position_already_drawn_by_seen",
        "A position whose own entry in seen has count 2 would be its third occurrence: a game already drawn.",
        "position §3.3",
        start(),
        {
            **position(DUEL, ["7D AS", "9D 6C 8D KH"], "", 0, "lead"),
            "seen": [
                {
                    "hands": [["AS", "7D"], ["KH", "8D", "9D", "6C"]],
                    "pile": [],
                    "to_act": 0,
                    "phase": "lead",
                    "count": 2,
                }
            ],
        },
        reason="the position has already arisen 2 times",
    ),
    bad(
        "seat_written_as_a_float",
        '"seat": 1.0 is not an integer (an integer has no fraction and no exponent).',
        "log",
        start(),
        position(DUEL, ["TS", "JD"], "9D", 1, "respond"),
        '{"type":"beat","seat":1.0,"card":"JD"}',
        reason="seat: Input should be a valid integer",
    ),
    bad(
        "seat_written_with_an_exponent",
        '"seat": 1e0 is not an integer.',
        "log",
        start(),
        position(DUEL, ["TS", "JD"], "9D", 1, "respond"),
        '{"type":"beat","seat":1e0,"card":"JD"}',
        reason="seat: Input should be a valid integer",
    ),
    bad(
        "null_for_a_field_that_is_not_nullable",
        "\"players\": null is mistyped: only the fields that may be null (a take's count, a position's "
        "out_order and seen) take null.",
        "log",
        {"type": "start", "players": None},
        reason="players: Input should be a valid integer",
    ),
    bad(
        "nan_is_not_json",
        "NaN is no JSON value (RFC 8259), even in a field a reader would ignore.",
        "log",
        start(),
        '{"type":"choose_trump","seat":1,"suit":"H","comment":NaN}',
        reason="malformed JSON",
    ),
    bad(
        "line_that_is_not_an_object",
        "Every line is a JSON object.",
        "log",
        start(),
        "[1, 2]",
        reason="expected a JSON object",
    ),
    bad(
        "position_for_the_wrong_number_of_players",
        "A 3-seat position in a 2-player game.",
        "position",
        start(),
        position("SHD", ["8S 6C", "KH", "7C"], "", 0, "lead"),
        reason="but the game has 2 players",
    ),
    bad(
        "resign_before_the_deal",
        "A resignation comes only once the cards are dealt (rules §3.4.1).",
        "§3.4.1",
        start(),
        trumps("HS", first_seat=1, players=2),
        {"type": "resign", "seat": 0},
        reason="cannot resign: the cards have not been dealt",
    ),
    bad(
        "resign_by_a_seat_gone_out",
        "Seat 2 has gone out: it holds no cards and cannot resign.",
        "§3.4.1",
        start(players=3),
        position("SHD", ["8S 6C", "KH", ""], "", 0, "lead"),
        {"type": "resign", "seat": 2},
        reason="has gone out",
    ),
    bad(
        "resign_by_no_seat_of_the_game",
        "Seat 2 in a duel.",
        "§1 §3.4.1",
        start(),
        _DUEL_TO_ANSWER,
        {"type": "resign", "seat": 2},
        reason="is not a seat",
    ),
    bad(
        "resign_after_the_end",
        "After a resignation the game is over: the other seat cannot resign too.",
        "§3.4.1",
        start(),
        _DUEL_TO_ANSWER,
        {"type": "resign", "seat": 0},
        {"type": "resign", "seat": 1},
        reason="the game is over",
    ),
    bad(
        "agree_draw_before_the_deal",
        "A draw by agreement comes only once the cards are dealt.",
        "§3.4.2",
        start(),
        {"type": "agree_draw"},
        reason="the cards have not been dealt",
    ),
    bad(
        "agree_draw_after_the_end",
        "A game already lost cannot be drawn.",
        "§3.4.2",
        start(),
        _DUEL_TO_ANSWER,
        {"type": "resign", "seat": 1},
        {"type": "agree_draw"},
        reason="the game is over",
    ),
)


# --- full games, played by seeded random players ------------------------------------------

FULL_GAMES: tuple[tuple[str, str, RuleSet, int], ...] = (
    ("full_game_duel", "A whole duel under the default rules.", RuleSet(), 1),
    ("full_game_duel_dealer_1", "A whole duel dealt by seat 1 (seat 0 chooses and leads first).", RuleSet(dealer=1), 2),
    ("full_game_three_players", "A whole 3-player game.", RuleSet(players=3), 3),
    ("full_game_three_players_dealer_2", "A whole 3-player game dealt by seat 2.", RuleSet(players=3, dealer=2), 4),
    ("full_game_four_players", "A whole 4-player game.", RuleSet(players=4), 5),
    ("full_game_duel_no_six_passing", "A whole duel with pass_sixes off.", RuleSet(pass_sixes=False), 6),
    ("full_game_duel_must_beat", "A whole duel with must_beat on.", RuleSet(must_beat=True), 7),
    (
        "full_game_three_players_must_beat_no_six_passing",
        "A whole 3-player game with must_beat on and pass_sixes off.",
        RuleSet(players=3, pass_sixes=False, must_beat=True),
        8,
    ),
    (
        "full_game_four_players_must_beat",
        "A whole 4-player game with must_beat on.",
        RuleSet(players=4, dealer=3, must_beat=True),
        9,
    ),
)


def played_game(name: str, shows: str, rules: RuleSet, seed: int) -> Vector:
    """A whole game: the deal of ``seed``, then moves by :func:`mostly_greedy` with ``random.Random(seed)``."""
    game = Game(rules, seed=seed)
    rng = random.Random(seed)
    while not game.is_over():
        game.push(game.sample_deal() if game.phase == "deal" else mostly_greedy(game, rng))
    lines = [event_dict(game.header)] + [event_dict(event) for event in game.events]
    outcome = game.outcome
    assert outcome is not None
    return Vector(name, f"{shows} Seed {seed}.", ("§2", "§3"), tuple(lines), {"outcome": outcome.model_dump()})


GREEDINESS = 0.8


def mostly_greedy(game: Game, rng: random.Random) -> Event:
    """Usually the lowest legal card, sparing one's own trumps; otherwise (and for trumps) a random legal move.

    Purely random play makes games of thousands of moves; this keeps the vectors short
    while still visiting takes, re-leads and every kind of ending.
    """
    legal = game.legal_moves()
    cards = [event for event in legal if isinstance(event, Lead | Beat | Second)]
    if cards and rng.random() < GREEDINESS:
        trump = game.trumps[cards[0].seat]

        def cost(event: Lead | Beat | Second) -> tuple[bool, int]:
            card = Card.parse(event.card)
            return (card.suit.letter == trump, int(card.rank))

        return min(cards, key=cost)
    return rng.choice(legal)


# --- generating the files -----------------------------------------------------------------


def line_text(line: Line) -> str:
    """A log line as written in a vector file: compact JSON (raw text is kept as it is)."""
    return line if isinstance(line, str) else json.dumps(line, separators=(",", ":"), ensure_ascii=False)


def state_text(game: Game) -> str:
    """The state of ``game`` exactly as ``trumps replay --json`` prints it."""
    return json.dumps(game.state().model_dump(mode="json"), ensure_ascii=False)


def vector_states(vector: Vector) -> list[dict[str, Any]]:
    """The state after each line of a good vector (raises :class:`LogError` if a line is refused)."""
    texts = [line_text(line) for line in vector.lines]
    return [json.loads(state_text(read_log(texts[:k]))) for k in range(1, len(texts) + 1)]


def _state_texts(vector: Vector) -> list[str]:
    # Replaying every prefix from scratch would be quadratic in the length of a full game,
    # so the header starts a game and each event is then pushed onto it.
    texts = [line_text(line) for line in vector.lines]
    game = read_log(texts[:1])
    states = [state_text(game)]
    for number, text in enumerate(texts[1:], start=2):
        try:
            game.push(parse_event(text))
        except (EventError, IllegalEvent) as error:
            raise ValueError(f"vector {vector.name}, line {number}: {error}") from None
        states.append(state_text(game))
    return states


# --- how a reader splits and decodes lines (log format §L1) --------------------------------


@dataclass(frozen=True)
class TextVector:
    """A log given as its exact text (line ends, blank lines, a byte order mark), good or refused at ``line``.

    Bytes that are not UTF-8 are held as the surrogates Python's ``surrogateescape`` decodes them to.
    """

    name: str
    shows: str
    text: str
    line: int | None = None
    reason: str = ""


def text_lines(text: str) -> list[str]:
    """The lines of a log's text as log format §L1.2 splits them: at LF only, without the LF (a CR stays)."""
    lines = text.split("\n")
    if lines and not lines[-1]:
        lines.pop()
    return lines


_TIE = [line_text(line) for line in (start(), position(DUEL, ["TS", "JD"], "9D", 1, "respond"))]
_TIE_BEAT = line_text({"type": "beat", "seat": 1, "card": "JD"})

TEXT: tuple[TextVector, ...] = (
    TextVector(
        "reader_crlf_line_ends",
        "Lines ending in CR LF read as lines ending in LF.",
        "".join(line + "\r\n" for line in [*_TIE, _TIE_BEAT]),
    ),
    TextVector(
        "reader_blank_lines",
        "Blank lines (empty, spaces and a tab, a lone CR before the LF) are passed over but counted; the states "
        "file repeats the state for each of them.",
        f"{_TIE[0]}\n\n{_TIE[1]}\n \t \n\r\n{_TIE_BEAT}\n\n",
    ),
    TextVector(
        "reader_byte_order_mark",
        "A byte order mark at the very start of the file is passed over.",
        "\ufeff" + "".join(line + "\n" for line in [*_TIE, _TIE_BEAT]),
    ),
    TextVector(
        "reader_no_line_end_after_the_last_line",
        "The last line may lack its LF.",
        "\n".join([*_TIE, _TIE_BEAT]),
    ),
    TextVector(
        "reader_whitespace_around_objects",
        "Spaces and tabs around a line's object are JSON whitespace.",
        "".join(f"  {line}\t \n" for line in [*_TIE, _TIE_BEAT]),
    ),
    TextVector(
        "reader_blank_lines_before_the_header",
        "Blank lines before the header are passed over but counted: the header is the first line that is not "
        "blank. The states file holds null for each line before the header, where there is no game yet.",
        f"\n \t\n\r\n{_TIE[0]}\n{_TIE[1]}\n{_TIE_BEAT}\n",
    ),
    TextVector("reader_empty_file", "An empty file is no log: refused at line 1.", "", 1, "the log is empty"),
    TextVector(
        "reader_only_a_byte_order_mark",
        "A file holding only a byte order mark is an empty file, as the mark is passed over: refused at line 1.",
        "\ufeff",
        1,
        "the log is empty",
    ),
    TextVector(
        "reader_only_blank_lines",
        "A file of blank lines is no log: refused at the line after the last.",
        "\n \n",
        3,
        "the log is empty",
    ),
    TextVector(
        "reader_lone_cr_is_no_line_end",
        "A CR not followed by LF ends no line: two objects on line 2, which is malformed.",
        f"{_TIE[0]}\n{_TIE[1]}\r{_TIE_BEAT}\n",
        2,
        "malformed JSON",
    ),
    TextVector(
        "reader_lone_cr_between_tokens",
        "A CR not followed by LF is part of its line, and between two tokens it is JSON whitespace: the beat, "
        "with a CR after each comma, is read.",
        f"{_TIE[0]}\n{_TIE[1]}\n" + _TIE_BEAT.replace(",", ",\r") + "\n",
    ),
    TextVector(
        "reader_lone_cr_inside_a_string",
        "A CR not followed by LF inside a JSON string (of an unknown field) is a control character, which JSON "
        "allows only escaped: the line is malformed.",
        f'{_TIE[0]}\n{_TIE[1]}\n{_TIE_BEAT[:-1]},"note":"a\rb"}}\n',
        3,
        "malformed JSON",
    ),
    TextVector(
        "reader_lone_cr_at_the_end_of_the_file",
        "A CR as the very last byte of the file, with no LF after it, ends no line and is not dropped: it is "
        "part of the last line, after its object, where it is JSON whitespace.",
        f"{_TIE[0]}\n{_TIE[1]}\n{_TIE_BEAT}\r",
    ),
    TextVector(
        "reader_only_a_lone_cr",
        "A file holding a lone CR holds one line, a blank one (the CR is part of it, not a line end): refused at "
        "line 2, where an empty file is refused at line 1.",
        "\r",
        2,
        "the log is empty (only a blank line)",
    ),
    TextVector(
        "reader_byte_order_mark_after_the_first_line",
        "A byte order mark is passed over only at the start of the file.",
        f"{_TIE[0]}\n\ufeff{_TIE[1]}\n",
        2,
        "malformed JSON",
    ),
    TextVector(
        "reader_line_separators_inside_a_string",
        "A Unicode line separator and paragraph separator (U+2028, U+2029) inside a JSON string end no line: "
        "the beat's unknown field holds them.",
        f'{_TIE[0]}\n{_TIE[1]}\n{_TIE_BEAT[:-1]},"note":"a\u2028b\u2029c"}}\n',
    ),
    TextVector(
        "reader_not_utf8",
        "A line that is not UTF-8 text (a byte FF in a string) is malformed, even in an unknown field.",
        f'{_TIE[0]}\n{_TIE[1]}\n{_TIE_BEAT[:-1]},"note":"\udcff"}}\n',
        3,
        "not UTF-8 text",
    ),
    TextVector(
        "reader_form_feed_is_not_blank",
        "A line holding a form feed is not blank (JSON whitespace is space, tab, CR, LF): it is malformed.",
        f"{_TIE[0]}\n\f\n",
        2,
        "malformed JSON",
    ),
)


NO_GAME = "null"
"""The state line of a log line before the header: there is no game yet (docs/conformance.md)."""


def text_states(vector: TextVector) -> list[str]:
    """The state after each line of a good text vector: ``null`` before the header, and a blank line
    after it leaves the state as it was. One state line for each line of the log, so they compare line
    for line; the byte order mark is no part of any line (log format §L1.5).
    """
    lines = text_lines(vector.text.removeprefix(BYTE_ORDER_MARK))
    header = header_line(lines)
    return [NO_GAME] * (header - 1) + [state_text(read_log(lines[:k])) for k in range(header, len(lines) + 1)]


def check_text_refusal(vector: TextVector) -> LogError:
    """The refusal of a bad text vector, checked to fall on its line and to give its reason."""
    try:
        read_log(vector.text.encode("utf-8", "surrogateescape"))
    except LogError as error:
        if error.line == vector.line and vector.reason in error.reason:
            return error
        raise ValueError(f"text vector {vector.name}: refused with {error}") from None
    raise ValueError(f"text vector {vector.name}: the log replays")


def all_vectors() -> list[Vector]:
    """The hand-written vectors, then the full games."""
    return list(GOOD) + [played_game(*spec) for spec in FULL_GAMES]


def check_bad(vector: BadVector) -> LogError:
    """The refusal of a bad vector, checked to fall on its last line and to give its reason."""
    texts = [line_text(line) for line in vector.lines]
    try:
        read_log(texts)
    except LogError as error:
        if error.line == len(texts) and vector.reason in error.reason:
            return error
        refusal = str(error)
    else:
        refusal = "the log replays"
    expected = f"a refusal at line {len(texts)} ({vector.reason})"
    raise ValueError(f"bad vector {vector.name}: expected {expected}, got {refusal}")


def _check_expectations(vector: Vector, final: dict[str, Any]) -> None:
    for key, value in vector.expect.items():
        if final[key] != value:
            raise ValueError(f"vector {vector.name}: expected {key} {value!r}, the engine gives {final[key]!r}")


def vector_files() -> dict[str, str]:
    """Every file of ``spec/vectors/`` by name, with its text."""
    files: dict[str, str] = {}
    index_good = []
    for vector in all_vectors():
        states = _state_texts(vector)
        _check_expectations(vector, json.loads(states[-1]))
        files[f"{vector.name}.jsonl"] = "".join(line_text(line) + "\n" for line in vector.lines)
        files[f"{vector.name}.states.jsonl"] = "".join(state + "\n" for state in states)
        index_good.append(
            {
                "name": vector.name,
                "shows": vector.shows,
                "rules": list(vector.rules),
                "log": f"{vector.name}.jsonl",
                "states": f"{vector.name}.states.jsonl",
                "lines": len(vector.lines),
                "final": json.loads(states[-1]),
            }
        )
    index_bad = []
    for bad_vector in BAD:
        error = check_bad(bad_vector)
        files[f"{bad_vector.name}.bad.jsonl"] = "".join(line_text(line) + "\n" for line in bad_vector.lines)
        index_bad.append(
            {
                "name": bad_vector.name,
                "shows": bad_vector.shows,
                "rules": list(bad_vector.rules),
                "log": f"{bad_vector.name}.bad.jsonl",
                "line": error.line,
                "reason": bad_vector.reason,
                "error": str(error),
            }
        )
    for text_vector in TEXT:
        shown = {"name": text_vector.name, "shows": text_vector.shows, "rules": ["log"]}
        if text_vector.line is None:
            states = text_states(text_vector)
            files[f"{text_vector.name}.jsonl"] = text_vector.text
            files[f"{text_vector.name}.states.jsonl"] = "".join(state + "\n" for state in states)
            index_good.append(
                {
                    **shown,
                    "log": f"{text_vector.name}.jsonl",
                    "states": f"{text_vector.name}.states.jsonl",
                    "lines": len(states),
                    "final": json.loads(states[-1]),
                }
            )
        else:
            error = check_text_refusal(text_vector)
            files[f"{text_vector.name}.bad.jsonl"] = text_vector.text
            index_bad.append(
                {
                    **shown,
                    "log": f"{text_vector.name}.bad.jsonl",
                    "line": error.line,
                    "reason": text_vector.reason,
                    "error": str(error),
                }
            )
    index = {
        "about": (
            "Conformance vectors. Each good vector NAME.jsonl must replay; line k of NAME.states.jsonl is the "
            "state after line k of the log (lines split at LF only, as the log format says, a byte order mark at "
            "the start being no part of a line): null for a blank line before the header, where there is no game "
            "yet; a blank line after the header leaves the state as it was. Each bad vector must be refused at "
            "`line` (its last line, or the line after the last for a file with no header); `reason` is an excerpt "
            "of the reference engine's message and `error` its whole message (the wording is not normative)."
        ),
        "vectors": index_good,
        "bad": index_bad,
    }
    files["index.json"] = json.dumps(index, indent=2, ensure_ascii=False) + "\n"
    return files
