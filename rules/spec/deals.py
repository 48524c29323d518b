"""Seed → deal vectors (``spec/deals.json``): how the online server's secret seed becomes the hands.

The algorithm is specified in ``docs/deals.md`` (MT19937 seeded by ``init_by_array`` with the
seed's 32-bit words, as Python's ``random.Random(seed)``; Fisher–Yates from the top, drawing by
rejection; the cards dealt round from the dealer's left). These vectors let an implementation
in any language check each step: the commitment (``seed_hash``), the key words, the
generator's first outputs, and the deals for every number of players and every dealer.

>>> key_words(2**40 + 5)
[5, 256]
>>> table = deals_table()
>>> table["deals"][0]["seed"], table["deals"][0]["players"], len(table["deals"][0]["hands"][0])
('0', 2, 18)
>>> table["outputs"][0]["seed_hash"][:16]
'5feceb66ffc86f38'
"""

from __future__ import annotations

import random
from typing import Any

from rules.game import Game
from rules.options import RuleSet
from rules.server.verify import seed_hash

SEEDS = (0, 1, 42, 2**32 - 1, 2**32, 2**40 + 5, 247512591056844310973453304410847057139)
"""Small seeds, the edges of one 32-bit word, and a 128-bit seed as the server draws (from docs/protocol.md)."""

TABLES = tuple((players, dealer) for players in (2, 3, 4) for dealer in range(players))
"""(players, dealer) for each seed's deals: every number of players with every dealer, so a dealer
whose left is not seat 0 is checked for 3 and 4 players too."""

OUTPUTS = 8
"""How many first outputs of the generator are listed per seed."""


def key_words(seed: int) -> list[int]:
    """The ``init_by_array`` key of a seed: its 32-bit words, least significant first (``[0]`` for 0)."""
    words = [(seed >> shift) & 0xFFFFFFFF for shift in range(0, max(seed.bit_length(), 1), 32)]
    return words


def deals_table() -> dict[str, Any]:
    """The content of ``spec/deals.json``."""
    outputs = []
    deals = []
    for seed in SEEDS:
        rng = random.Random(seed)
        outputs.append(
            {
                "seed": str(seed),
                "seed_hash": seed_hash(str(seed)),
                "key": key_words(seed),
                "next32": [rng.getrandbits(32) for _ in range(OUTPUTS)],
            }
        )
        for players, dealer in TABLES:
            hands = Game(RuleSet(players=players, dealer=dealer), seed=seed).sample_deal().hands
            deals.append({"seed": str(seed), "players": players, "dealer": dealer, "hands": hands})
    return {
        "about": (
            "Seed -> deal, as docs/deals.md specifies: MT19937 seeded by init_by_array(key), key the seed's 32-bit "
            "words least significant first; the pack in pack order shuffled by Fisher-Yates from the top with "
            "below(i+1) for i = 35..1; card i dealt to seat (dealer+1+i) mod players. Seeds are decimal strings. "
            "`outputs` gives, for each seed, seed_hash (the SHA-256, lower-case hex, of the seed's ASCII digits), "
            "the key and the first outputs of genrand_int32; `deals` the hands for every number of players and "
            "every dealer, as the deal event lists them (before sixes pass)."
        ),
        "outputs": outputs,
        "deals": deals,
    }
