"""Check a finished hand the way any player can: the seed matches its hash and deals the logged deal.

When a hand starts the server publishes ``seed_hash``; when it ends, ``hand_end`` reveals the
seed and the full log. A client (or anyone holding the message) verifies that the deal was
fixed before the first card was played and that every event of the log is legal. The hash to
compare with is the one published when the hand started (``published``): ``hand_end`` repeats
it, but a hash sent together with its seed proves nothing on its own.

>>> from rules.events import ChooseTrump
>>> from rules.game import Game
>>> from rules.options import RuleSet
>>> seed = "123456789"
>>> game = Game(RuleSet(), seed=int(seed))
>>> for event in (ChooseTrump(seat=1, suit="H"), ChooseTrump(seat=0, suit="S"), game.sample_deal()):
...     _ = game.push(event)
>>> log = [game.header.model_dump(mode="json"), *(e.model_dump(mode="json", exclude_none=True) for e in game.events)]
>>> hand_end = {"seed": seed, "seed_hash": seed_hash(seed), "log": log}
>>> hand_end_problem(hand_end, published=seed_hash(seed)) is None
True
>>> hand_end_problem({**hand_end, "seed": "42"})
'the seed does not match its hash'
>>> hand_end_problem({**hand_end, "seed": "0123", "seed_hash": seed_hash("0123")})
'the seed is not written in decimal digits without leading zeros'
>>> hand_end_problem({**hand_end, "seed": "42", "seed_hash": seed_hash("42")}, published=seed_hash(seed))
'the hash is not the one published when the hand started'
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

from rules.digits import digits_value
from rules.game import Game
from rules.log import LogError, read_log


def seed_hash(seed: str) -> str:
    """The published commitment to a hand's secret seed: the SHA-256 of its decimal digits, in hex."""
    return hashlib.sha256(seed.encode()).hexdigest()


def hand_end_problem(hand_end: dict[str, Any], published: str | None = None, dealer: int | None = None) -> str | None:
    """What is wrong with a ``hand_end`` message (seed, hash, deal, log), or ``None`` if it all checks out.

    ``published`` is the ``seed_hash`` and ``dealer`` the dealer announced when the hand started
    (``hand_started``); without them only the message's own consistency is checked, not that the
    seed and the dealer were fixed beforehand (deals.md, *Checking a hand*).
    """
    seed = hand_end["seed"]
    if not isinstance(seed, str) or not re.fullmatch(r"0|[1-9][0-9]*", seed, flags=re.ASCII):
        return "the seed is not written in decimal digits without leading zeros"
    if published is not None and hand_end["seed_hash"] != published:
        return "the hash is not the one published when the hand started"
    if seed_hash(seed) != hand_end["seed_hash"]:
        return "the seed does not match its hash"
    try:
        game = read_log([json.dumps(line) for line in hand_end["log"]])
    except LogError as error:
        return f"the log does not replay: {error}"
    if dealer is not None and game.rules.dealer != dealer:
        return f"the log's dealer is seat {game.rules.dealer}, not the seat {dealer} announced"
    deals = [line for line in hand_end["log"] if line.get("type") == "deal"]
    if len(deals) != 1:
        return "the log has no deal"
    if Game(game.rules, seed=digits_value(seed)).sample_deal().hands != deals[0]["hands"]:  # any size, deals §D1.1
        return "the seed does not deal the logged deal"
    return None
