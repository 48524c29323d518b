"""Check a finished hand the way any player can: the seed matches its hash and deals the logged deal.

When a hand starts the server publishes ``seed_hash``; when it ends, ``hand_end`` reveals the
seed and the full log. A client (or anyone holding the message) verifies that the deal was
fixed before the first card was played and that every event of the log is legal. The hash to
compare with is the one published when the hand started (``published``): ``hand_end`` repeats
it, but a hash sent together with its seed proves nothing on its own.

>>> from rules.events import ChooseTrump, Resign
>>> from rules.game import Game
>>> from rules.options import RuleSet
>>> seed = "123456789"
>>> game = Game(RuleSet(), seed=int(seed))
>>> for event in (ChooseTrump(seat=1, suit="H"), ChooseTrump(seat=0, suit="S"), game.sample_deal(), Resign(seat=0)):
...     _ = game.push(event)
>>> log = [game.header.model_dump(mode="json"), *(e.model_dump(mode="json", exclude_none=True) for e in game.events)]
>>> outcome = game.outcome.model_dump(mode="json")
>>> hand_end = {"outcome": outcome, "seed": seed, "seed_hash": seed_hash(seed), "log": log}
>>> hand_end_problem(hand_end, published=seed_hash(seed)) is None
True
>>> hand_end_problem({**hand_end, "log": log[:-1]})
Problem(code='outcome', step=5, message='the log does not end the hand as its outcome says')
>>> str(hand_end_problem(hand_end, seat=0, hand=["6S"]))
'the log does not deal seat 0 the hand it was shown'
>>> hand_end_problem({**hand_end, "seed": "42"}).code
'seed_hash'
>>> hand_end_problem({**hand_end, "seed": "0123", "seed_hash": seed_hash("0123")}).code
'seed_form'
>>> hand_end_problem({**hand_end, "seed": "42", "seed_hash": seed_hash("42")}, published=seed_hash(seed)).code
'not_published'
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple

from pydantic import ValidationError

from rules.digits import digits_value
from rules.game import Game
from rules.log import LogError, read_log
from rules.outcome import Outcome
from rules.table import ENDINGS, PLAY


def seed_hash(seed: str) -> str:
    """The published commitment to a hand's secret seed: the SHA-256 of its decimal digits, in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


PLAYED = frozenset({"choose_trump", *PLAY, *ENDINGS})
"""The events of a hand that its updates announce as they are (``update.event``) and its log holds as they were."""


class Problem(NamedTuple):
    """What is wrong with a ``hand_end``: a code, the step of deals.md's *Checking a hand* it fails (0: the message's
    own form), and an English sentence saying it (``str()``)."""

    code: ProblemCode
    step: int
    message: str

    def __str__(self) -> str:
        return self.message


ProblemCode = Literal[
    "form", "seed_form", "not_published", "seed_hash", "log", "dealer", "no_deal", "deal", "outcome_form", "outcome",
    "hand", "events",
]  # fmt: skip
"""The codes of :class:`Problem`, in the order they are checked (``spec/hand_ends.json`` has a case of each)."""


def hand_end_problem(
    hand_end: dict[str, Any],
    published: str | None = None,
    dealer: int | None = None,
    *,
    seat: int | None = None,
    hand: Sequence[str] | None = None,
    events: Sequence[dict[str, Any]] | None = None,
) -> Problem | None:
    """What is wrong with a ``hand_end`` message (seed, hash, deal, log, outcome), or ``None`` if it all checks out.

    ``published`` is the ``seed_hash`` and ``dealer`` the dealer announced when the hand started
    (``hand_started``); without them only the message's own consistency is checked, not that the
    seed and the dealer were fixed beforehand (deals.md, *Checking a hand*). What a seat saw ties
    the log to the hand it played: ``hand`` its cards (``seat``'s) once the deal was done (the first
    update after the deal, the sixes passed), ``events`` the ``event`` of every update of the hand,
    in order, from its ``hand_started`` on. The first step that fails is the answer.
    """
    fields = {"seed": str, "seed_hash": str, "log": list, "outcome": dict}
    wrong = [name for name, kind in fields.items() if not isinstance(hand_end.get(name), kind)]
    if wrong or not all(isinstance(line, dict) for line in hand_end["log"]):
        return Problem("form", 0, f"hand_end has no {', '.join(wrong) or 'log of objects'} of the protocol's form")
    seed = hand_end["seed"]
    if not re.fullmatch(r"0|[1-9][0-9]*", seed, flags=re.ASCII):
        return Problem("seed_form", 1, "the seed is not written in decimal digits without leading zeros")
    if published is not None and hand_end["seed_hash"] != published:
        return Problem("not_published", 2, "the hash is not the one published when the hand started")
    if seed_hash(seed) != hand_end["seed_hash"]:
        return Problem("seed_hash", 2, "the seed does not match its hash")
    lines = hand_end["log"]
    try:
        game = read_log([json.dumps(line) for line in lines])
    except LogError as error:
        return Problem("log", 3, f"the log does not replay: {error}")
    if dealer is not None and game.rules.dealer != dealer:
        return Problem("dealer", 3, f"the log's dealer is seat {game.rules.dealer}, not the seat {dealer} announced")
    deals = [index for index, line in enumerate(lines) if line.get("type") == "deal"]
    if len(deals) != 1:
        return Problem("no_deal", 4, "the log has no deal")
    if Game(game.rules, seed=digits_value(seed)).sample_deal().hands != lines[deals[0]]["hands"]:  # any size, §D1.1
        return Problem("deal", 4, "the seed does not deal the logged deal")
    try:
        outcome = Outcome.model_validate(hand_end["outcome"])
    except ValidationError:
        return Problem("outcome_form", 5, "the outcome is not one of log-format.md (result, loser, reason, out_order)")
    if outcome != game.outcome:
        return Problem("outcome", 5, "the log does not end the hand as its outcome says")
    if seat is not None and hand is not None:
        dealt = read_log([json.dumps(line) for line in lines[: deals[0] + 1]])
        if seat >= dealt.rules.players or set(dealt.hand(seat)) != set(hand):
            return Problem("hand", 6, f"the log does not deal seat {seat} the hand it was shown")
    if events is not None and [_played(line) for line in lines if line.get("type") in PLAYED] != [
        _played(event) for event in events if event.get("type") in PLAYED
    ]:
        return Problem("events", 6, "the log's trump choices and moves are not those announced")
    return None


def _played(event: dict[str, Any]) -> tuple[object, ...]:
    """What identifies a trump choice or a move: type, seat, card or suit (a take's ``count`` may be left out)."""
    return event.get("type"), event.get("seat"), event.get("card"), event.get("suit")
