"""Checks of a finished hand (``spec/hand_ends.json``): ``hand_end`` messages, what a seat saw, and what is wrong.

Each case is a ``hand_end`` as the server sends it, for one short duel dealt from a seed,
with what seat 0 kept while the hand was played (the ``seed_hash`` and the dealer that
``hand_started`` published, its hand as the first update after the deal showed it, the
``event`` of every update of the hand), most of them changed in one way, and the code of
:class:`rules.server.verify.Problem` a verifier must find first (deals.md, *Checking a
hand*), or ``null`` when everything checks out. A field a case leaves ``null`` was not kept:
the steps that need it are passed over.

>>> from rules.server.verify import hand_end_problem
>>> table = hand_ends_table()
>>> [case["problem"] for case in table["cases"]][:3]
[None, None, 'form']
>>> all(hand_end_problem(**arguments(case)) is None for case in table["cases"] if case["problem"] is None)
True
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from rules.events import ChooseTrump, Deal, Resign, event_dict
from rules.game import Game
from rules.options import RuleSet
from rules.players.greedy import GreedyPlayer
from rules.server.verify import seed_hash

SEED = "247512591056844310973453304410847057139"
"""The hand's seed (the 128-bit seed of docs/protocol.md's example)."""

OTHER_SEED = "42"
"""A seed the server could have used instead."""

Case = dict[str, Any]


MOVES = 12
"""The moves two greedy players make after the deal before seat 1 resigns: a short hand, so short cases."""


def _played(seed: str) -> Game:
    """A duel dealt from ``seed``: trumps chosen and :data:`MOVES` moves made by two greedy players, then seat 1
    resigns."""
    game = Game(RuleSet(), seed=int(seed))
    players = [GreedyPlayer(seed=1), GreedyPlayer(seed=2)]
    while sum(not isinstance(event, (ChooseTrump, Deal)) for event in game.events) < MOVES:
        seat = game.to_act
        game.push(game.sample_deal() if seat is None else players[seat].choose(game.view(seat)))
    game.push(Resign(seat=1))
    return game


def _case(game: Game, seed: str) -> Case:
    """The unchanged case of ``game``: its ``hand_end`` and all that seat 0 kept."""
    from rules.server.protocol import public_event  # here: the protocol's module imports rules.spec's schemas

    dealt = next(index for index, event in enumerate(game.events) if isinstance(event, Deal))
    after_deal = Game.from_events(game.header, game.events[: dealt + 1])
    started = {"type": "hand_started", "hand": 1, "dealer": game.rules.dealer, "seed_hash": seed_hash(seed)}
    assert game.outcome is not None
    return {
        "name": "",
        "what": "",
        "hand_end": {
            "hand": 1,
            "outcome": game.outcome.model_dump(mode="json"),
            "seed": seed,
            "seed_hash": seed_hash(seed),
            "log": [game.header.model_dump(mode="json"), *(event_dict(event) for event in game.events)],
        },
        "published": seed_hash(seed),
        "dealer": game.rules.dealer,
        "seat": 0,
        "hand": after_deal.hand(0),
        "events": [started, *(event_dict(public_event(event)) for event in game.events)],
        "problem": None,
    }


def _changed(base: Case, name: str, what: str, problem: str | None, change: Callable[[Case], None]) -> Case:
    case = copy.deepcopy(base)
    change(case)
    case.update(name=name, what=what, problem=problem)
    return case


def arguments(case: Case) -> dict[str, Any]:
    """The arguments of :func:`~rules.server.verify.hand_end_problem` for ``case``."""
    keys = ("hand_end", "published", "dealer", "seat", "hand", "events")
    return {key: case[key] for key in keys}


def hand_ends_table() -> dict[str, Any]:
    """The content of ``spec/hand_ends.json``."""
    base = _case(_played(SEED), SEED)
    other = _case(_played(OTHER_SEED), OTHER_SEED)
    log = base["hand_end"]["log"]
    deal_line = next(index for index, line in enumerate(log) if line["type"] == "deal")
    first_move = deal_line + 1
    announced_lead = next(index for index, event in enumerate(base["events"]) if event["type"] == "lead")

    def nothing_kept(case: Case) -> None:
        case.update(published=None, dealer=None, seat=None, hand=None, events=None)

    def other_seed_hash_and_log(case: Case) -> None:
        case["hand_end"].update({key: other["hand_end"][key] for key in ("seed", "seed_hash", "log", "outcome")})

    def other_log(case: Case) -> None:
        case["hand_end"].update(log=other["hand_end"]["log"], outcome=other["hand_end"]["outcome"])

    def illegal_move(case: Case) -> None:
        line = case["hand_end"]["log"][first_move]
        line["seat"] = 1 - line["seat"]

    def stopped_before_the_deal(case: Case) -> None:
        case["hand_end"]["log"] = case["hand_end"]["log"][:deal_line]

    cases = [
        _changed(base, "good", "a hand as the server sends it, and all that seat 0 kept", None, lambda case: None),
        _changed(base, "good_alone", "the same hand_end, nothing kept: only its own consistency", None, nothing_kept),
        _changed(base, "form", "hand_end without its log", "form", lambda case: case["hand_end"].pop("log")),
        _changed(
            base,
            "seed_form",
            "the seed written with a leading zero, its hash that of those digits",
            "seed_form",
            lambda case: case["hand_end"].update(seed="0" + SEED, seed_hash=seed_hash("0" + SEED)),
        ),
        _changed(
            base,
            "not_published",
            "another seed, its hash and a log dealt from it: consistent, but not the hash published at the start",
            "not_published",
            other_seed_hash_and_log,
        ),
        _changed(
            base,
            "seed_hash",
            "another seed than the one whose hash was published",
            "seed_hash",
            lambda case: case["hand_end"].update(seed=OTHER_SEED),
        ),
        _changed(base, "log", "the log's first move made by the other seat", "log", illegal_move),
        _changed(base, "dealer", "seat 1 announced as the dealer", "dealer", lambda case: case.update(dealer=1)),
        _changed(base, "no_deal", "a log that stops before the deal", "no_deal", stopped_before_the_deal),
        _changed(base, "deal", "the log of a hand dealt from another seed", "deal", other_log),
        _changed(
            base,
            "outcome_form",
            "an outcome of no form the log format knows",
            "outcome_form",
            lambda case: case["hand_end"].update(outcome={"result": "win"}),
        ),
        _changed(
            base,
            "outcome",
            "a log that stops before its last move",
            "outcome",
            lambda case: case["hand_end"].update(log=log[:-1]),
        ),
        _changed(
            base,
            "hand",
            "seat 0 was shown another hand than the log deals it",
            "hand",
            lambda case: case.update(hand=other["hand"]),
        ),
        _changed(
            base,
            "events",
            "the updates announced one move fewer than the log holds",
            "events",
            lambda case: case["events"].pop(announced_lead),
        ),
    ]
    return {"seed": SEED, "cases": cases}
