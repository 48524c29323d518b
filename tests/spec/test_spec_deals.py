"""spec/deals.json, reproduced from docs/deals.md with a Mersenne Twister written here (no ``random`` module)."""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TABLE = json.loads((ROOT / "spec" / "deals.json").read_text(encoding="utf-8"))
MASK = 0xFFFFFFFF


class Twister:
    """MT19937 seeded by init_by_array (§D1.2), with next32, bits and below (§D1.3-§D1.5)."""

    def __init__(self, key: list[int]) -> None:
        mt = [0] * 624
        mt[0] = 19650218
        for i in range(1, 624):
            mt[i] = (1812433253 * (mt[i - 1] ^ mt[i - 1] >> 30) + i) & MASK
        i, j = 1, 0
        for _ in range(max(624, len(key))):
            mt[i] = ((mt[i] ^ (mt[i - 1] ^ mt[i - 1] >> 30) * 1664525) + key[j] + j) & MASK
            i, j = i + 1, (j + 1) % len(key)
            if i >= 624:
                mt[0], i = mt[623], 1
        for _ in range(623):
            mt[i] = ((mt[i] ^ (mt[i - 1] ^ mt[i - 1] >> 30) * 1566083941) - i) & MASK
            i += 1
            if i >= 624:
                mt[0], i = mt[623], 1
        mt[0] = 0x80000000
        self.mt, self.index = mt, 624

    def next32(self) -> int:
        mt = self.mt
        if self.index >= 624:
            for k in range(624):
                y = mt[k] & 0x80000000 | mt[(k + 1) % 624] & 0x7FFFFFFF
                mt[k] = mt[(k + 397) % 624] ^ y >> 1 ^ (0x9908B0DF if y & 1 else 0)
            self.index = 0
        y = mt[self.index]
        self.index += 1
        y ^= y >> 11
        y ^= y << 7 & 0x9D2C5680
        y ^= y << 15 & 0xEFC60000
        return y ^ y >> 18

    def below(self, n: int) -> int:
        k = n.bit_length()
        while True:
            r = self.next32() >> 32 - k
            if r < n:
                return r


def key_of(seed: int) -> list[int]:
    words = []
    while True:
        words.append(seed & MASK)
        seed >>= 32
        if not seed:
            return words


def deal_of(seed: int, players: int, dealer: int) -> list[list[str]]:
    twister = Twister(key_of(seed))
    cards = [rank + suit for suit in "SHDC" for rank in "6789TJQKA"]
    for i in range(35, 0, -1):
        j = twister.below(i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    hands: list[list[str]] = [[] for _ in range(players)]
    for i, card in enumerate(cards):
        hands[(dealer + 1 + i) % players].append(card)
    return hands


def test_keys_and_first_outputs() -> None:
    for entry in TABLE["outputs"]:
        assert key_of(int(entry["seed"])) == entry["key"]
        twister = Twister(entry["key"])
        assert [twister.next32() for _ in entry["next32"]] == entry["next32"], entry["seed"]


def test_every_deal() -> None:
    assert len(TABLE["deals"]) >= 20
    for entry in TABLE["deals"]:
        assert deal_of(int(entry["seed"]), entry["players"], entry["dealer"]) == entry["hands"], entry
