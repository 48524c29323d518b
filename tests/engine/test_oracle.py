"""The engine against an independent oracle: a deliberately naive second reading of docs/rules.md.

The oracle below was written from the rule text alone, before reading ``rules/core.py``:
cards are their two-character codes, hands and the pile are plain lists, and every rule
is spelled out the slow, obvious way. Nothing in it comes from :mod:`rules`. The tests
play many random games and positions and compare, at every ply, the legal moves, the
refusals and the resulting states of the two readings. Section numbers are those of docs/rules.md.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest

from rules.events import Beat, ChooseTrump, Deal, Lead, Position, Second, Start, Take
from rules.game import Game
from rules.log import log_lines, read_log
from rules.options import RuleSet

# --- the oracle ------------------------------------------------------------------------------

SUITS = "SHDC"
RANKS = "6789TJQKA"
PACK = [rank + suit for suit in SUITS for rank in RANKS]


def suit_of(card: str) -> str:
    return card[1]


def rank_of(card: str) -> int:
    return RANKS.index(card[0])


def sort_cards(cards: list[str]) -> list[str]:
    """Suits in the order S H D C, then ranks low to high (rules §1.5)."""
    return sorted(cards, key=PACK.index)  # PACK runs through the suits S H D C, each from 6 to A


def beats(card: str, top: str, trump: str) -> bool:
    """§2.4: the same suit and higher, or of your own trump suit onto a card that is not."""
    if suit_of(card) == suit_of(top) and rank_of(card) > rank_of(top):
        return True
    return suit_of(card) == trump and suit_of(top) != trump


def cards_to_take(pile: list[str], trump: str) -> int:
    """§2.6: how many cards a taker with trump suit ``trump`` picks up from ``pile``."""
    top = pile[-1]
    if suit_of(top) == trump and top[0] == "A":
        return len(pile)
    if suit_of(top) == trump:
        return min(5, len(pile))
    return min(3, len(pile))


def pass_sixes(hands: list[list[str]], trumps: list[str]) -> list[list[str]]:
    """§2.2: each six of another player's trump goes to that player."""
    new_hands = [list(hand) for hand in hands]
    for seat, hand in enumerate(hands):
        for card in hand:
            if card[0] == "6" and suit_of(card) in trumps:
                owner = trumps.index(suit_of(card))
                if owner != seat:
                    new_hands[seat].remove(card)
                    new_hands[owner].append(card)
    return new_hands


Move = tuple[str, str | None]
"""``("lead" | "beat" | "second", card)`` or ``("take", None)``."""


@dataclass
class Oracle:
    """A game in play, by the letter of rules §2.3-§3."""

    trumps: list[str]
    hands: list[list[str]]
    pile: list[str]
    to_act: int
    phase: str  # "lead", "respond", "second" or "finished"
    must_beat: bool = False
    out_order: list[int] = field(default_factory=list)
    outcome: dict[str, object] | None = None
    seen: Counter[tuple[object, ...]] = field(default_factory=Counter)

    @classmethod
    def after_deal(
        cls, trumps: list[str], dealt: list[list[str]], dealer: int, pass_sixes_on: bool, must_beat: bool
    ) -> Oracle:
        """§2.2 and §2.3: the sixes pass (if the option is on), then the dealer's left leads."""
        hands = pass_sixes(dealt, trumps) if pass_sixes_on else [list(hand) for hand in dealt]
        game = cls(trumps, hands, [], (dealer + 1) % len(dealt), "lead", must_beat)
        game.seen[game.position()] += 1  # §3: the turn passes after the deal
        return game

    @classmethod
    def from_position(
        cls,
        trumps: list[str],
        hands: list[list[str]],
        pile: list[str],
        to_act: int,
        phase: str,
        must_beat: bool = False,
        out_order: list[int] | None = None,
    ) -> Oracle:
        """Rules §3.3.5: in phase lead or respond the position counts as its own first occurrence."""
        game = cls(list(trumps), [list(h) for h in hands], list(pile), to_act, phase, must_beat, list(out_order or []))
        if phase in ("lead", "respond"):
            game.seen[game.position()] += 1
        return game

    def position(self) -> tuple[object, ...]:
        """§3: the hands, the pile in order, the player to act and the phase."""
        return (tuple(frozenset(hand) for hand in self.hands), tuple(self.pile), self.to_act, self.phase)

    def players_with_cards(self) -> list[int]:
        return [seat for seat, hand in enumerate(self.hands) if hand]

    def next_player(self, seat: int) -> int:
        """§1: the next seat in increasing order, wrapping round, skipping players with no cards."""
        players = len(self.hands)
        for step in range(1, players + 1):
            candidate = (seat + step) % players
            if self.hands[candidate]:
                return candidate
        raise AssertionError("nobody holds cards")

    def legal_moves(self) -> list[Move]:
        if self.phase == "finished":
            return []
        hand = self.hands[self.to_act]
        if self.phase == "lead":
            return [("lead", card) for card in hand]
        if self.phase == "second":
            return [("second", card) for card in hand]
        top = self.pile[-1]
        trump = self.trumps[self.to_act]
        beating = [("beat", card) for card in hand if beats(card, top, trump)]
        if self.must_beat and beating:
            return list(beating)
        return [*beating, ("take", None)]

    def play(self, move: Move) -> None:
        assert move in self.legal_moves(), f"{move} is not legal in {self}"
        kind, card = move
        seat = self.to_act
        if kind == "take":
            count = cards_to_take(self.pile, self.trumps[seat])
            taken = self.pile[len(self.pile) - count :]
            self.pile = self.pile[: len(self.pile) - count]
            self.hands[seat].extend(taken)
            self._pass_turn(seat)
            return
        assert card is not None
        self.hands[seat].remove(card)
        self.pile.append(card)
        if kind == "beat" and self.hands[seat]:
            self.phase = "second"  # §2.5: the same player plays a second card
            return
        if not self.hands[seat]:
            self.out_order.append(seat)  # §3: gone out
        self._pass_turn(seat)

    def _pass_turn(self, seat: int) -> None:
        holders = self.players_with_cards()
        if len(holders) == 1:
            self._tie_check(holders[0])
            return
        self.to_act = self.next_player(seat)
        self.phase = "respond" if self.pile else "lead"  # §2.7: re-lead only after the whole pile went
        self.seen[self.position()] += 1
        if self.seen[self.position()] == 3:
            self.phase = "finished"
            self.outcome = {"result": "draw", "reason": "repetition"}

    def _tie_check(self, last: int) -> None:
        """§3: one card that beats the top card draws; anything else loses."""
        hand = self.hands[last]
        self.phase = "finished"
        if len(hand) == 1 and beats(hand[0], self.pile[-1], self.trumps[last]):
            self.outcome = {"result": "draw", "reason": "tie_check"}
        else:
            self.outcome = {"result": "loss", "loser": last}


# --- comparing the two readings --------------------------------------------------------------

_CARD_EVENTS: dict[str, Any] = {"lead": Lead, "beat": Beat, "second": Second}


def to_event(move: Move, seat: int) -> Any:
    kind, card = move
    if kind == "take":
        return Take(seat=seat)
    return _CARD_EVENTS[kind](seat=seat, card=card)


def engine_moves(game: Game) -> list[Move]:
    return [(event.type, getattr(event, "card", None)) for event in game.legal_moves()]


def assert_same(game: Game, oracle: Oracle) -> None:
    """The engine's state, legal moves and outcome are the oracle's."""
    state = game.state()
    assert state.phase == oracle.phase
    assert state.hands == [sort_cards(hand) for hand in oracle.hands]
    assert state.pile == oracle.pile
    assert state.trumps == oracle.trumps
    if oracle.phase == "finished":
        assert state.to_act is None
        assert game.legal_moves() == []
        assert game.outcome is not None
        outcome = game.outcome.model_dump()
        assert outcome.pop("out_order") == oracle.out_order
        assert outcome == oracle.outcome
        return
    assert state.to_act == oracle.to_act
    assert state.outcome is None
    moves = engine_moves(game)
    assert len(moves) == len(set(moves)), "a legal move is listed twice"
    assert set(moves) == set(oracle.legal_moves())
    listed: list[Any] = game.legal_moves()
    assert {event.seat for event in listed} == {oracle.to_act}
    for event in listed:
        if event.type == "take" and event.count is not None:  # a listed take may say how many it takes
            assert event.count == cards_to_take(oracle.pile, oracle.trumps[oracle.to_act])


def assert_same_refusals(game: Game, oracle: Oracle, rng: random.Random) -> None:
    """Every event the oracle allows is accepted; every other one is refused with a reason."""
    legal = set(oracle.legal_moves())
    players = len(oracle.hands)
    for seat in range(players):
        cards = set(oracle.hands[seat]) | set(oracle.pile[-1:]) | set(rng.sample(PACK, 3))
        for card in cards:
            for kind in ("lead", "beat", "second"):
                expected = seat == oracle.to_act and (kind, card) in legal
                reason = game.refusal(to_event((kind, card), seat))
                assert (reason is None) == expected, (seat, kind, card, reason)
                assert reason is None or (reason.message and "\n" not in reason.message)
        reason = game.refusal(Take(seat=seat))
        assert (reason is None) == (seat == oracle.to_act and ("take", None) in legal), (seat, "take", reason)


def play_out(game: Game, oracle: Oracle, rng: random.Random, refusals_every: int, max_plies: int = 200_000) -> None:
    """Random legal moves (chosen from the oracle's list) until the end, comparing at every ply.

    Every ``refusals_every``-th ply (and at the end) the refusals are compared too.
    """
    for ply in range(max_plies):
        assert_same(game, oracle)
        if ply % refusals_every == 0 or oracle.phase == "finished":
            assert_same_refusals(game, oracle, rng)
        if oracle.phase == "finished":
            return
        move = rng.choice(oracle.legal_moves())
        game.push(to_event(move, oracle.to_act))
        oracle.play(move)
    raise AssertionError(f"no end after {max_plies} plies")


def deal_at_random(rng: random.Random, players: int, dealer: int) -> list[list[str]]:
    """A shuffled pack dealt one card at a time from the dealer's left (§2.2)."""
    pack = list(PACK)
    rng.shuffle(pack)
    hands: list[list[str]] = [[] for _ in range(players)]
    for index, card in enumerate(pack):
        hands[(dealer + 1 + index) % players].append(card)
    return hands


def choose_trumps(game: Game, rng: random.Random, players: int, dealer: int) -> list[str]:
    """§2.1: one at a time from the dealer's left, each a suit nobody chose yet."""
    trumps: list[str | None] = [None] * players
    for turn in range(players):
        seat = (dealer + 1 + turn) % players
        assert game.phase == "trump_choice"
        assert game.to_act == seat
        free = [suit for suit in SUITS if suit not in trumps]
        listed: list[Any] = game.legal_moves()
        assert [(event.seat, event.suit) for event in listed] == [(seat, suit) for suit in free]
        taken = [suit for suit in SUITS if suit not in free]
        for suit in taken:
            assert game.refusal(ChooseTrump(seat=seat, suit=suit)) is not None  # type: ignore[arg-type]
        for other in range(players):
            if other != seat:
                assert game.refusal(ChooseTrump(seat=other, suit=free[0])) is not None  # type: ignore[arg-type]
        trumps[seat] = rng.choice(free)
        game.push(ChooseTrump(seat=seat, suit=trumps[seat]))  # type: ignore[arg-type]
        assert game.trumps == trumps
    assert game.phase == "deal"
    assert game.to_act is None
    assert game.legal_moves() == []
    return [suit for suit in trumps if suit is not None]


RULE_SETS = [
    (players, index % players, pass_sixes, must_beat)
    for index, (players, pass_sixes, must_beat) in enumerate(
        (players, pass_sixes, must_beat)
        for players in (2, 3, 4)
        for pass_sixes in (True, False)
        for must_beat in (False, True)
    )
]
"""Every number of players with every combination of rule options, the dealer varying."""


def play_dealt_game(seed: int, refusals_every: int) -> Oracle:
    """A whole game from the trump choice, under rule set number ``seed`` of :data:`RULE_SETS`."""
    rng = random.Random(seed)
    players, dealer, pass_sixes_on, must_beat = RULE_SETS[seed % len(RULE_SETS)]
    rules = RuleSet(players=players, dealer=dealer, pass_sixes=pass_sixes_on, must_beat=must_beat)
    game = Game(rules)
    trumps = choose_trumps(game, rng, players, dealer)
    dealt = deal_at_random(rng, players, dealer)
    game.push(Deal(hands=dealt))
    oracle = Oracle.after_deal(trumps, dealt, dealer, pass_sixes_on, must_beat)
    play_out(game, oracle, rng, refusals_every)
    return oracle


def random_position(rng: random.Random) -> tuple[Position, bool]:
    """A small position (a few cards a seat, some out of play), and whether ``must_beat`` is on."""
    players = rng.choice((2, 2, 3, 4))
    pack = list(PACK)
    rng.shuffle(pack)
    sizes = [rng.choice((0, 1, 1, 2, 2, 3, 4, 6)) for _ in range(players)]
    while sum(1 for size in sizes if size) < 2:
        sizes[rng.randrange(players)] = rng.choice((1, 2, 3))
    hands = []
    for size in sizes:
        hands.append(pack[:size])
        del pack[:size]
    pile = pack[: rng.choice((0, 0, 1, 2, 3, 4, 5, 6, 9))]
    to_act = rng.choice([seat for seat in range(players) if hands[seat]])
    phase = "lead" if not pile else rng.choice(("respond", "respond", "second"))
    trumps = rng.sample(SUITS, players)
    position = Position(trumps=trumps, hands=hands, pile=pile, to_act=to_act, phase=phase)  # type: ignore[arg-type]
    return position, rng.random() < 0.3


def play_position(seed: int, refusals_every: int) -> Oracle:
    rng = random.Random(seed)
    position, must_beat = random_position(rng)
    players = len(position.hands)
    if seed % 2:
        game = Game.from_position(position, RuleSet(players=players, must_beat=must_beat))
    else:
        header = Start(players=players, rules={"must_beat": must_beat})  # type: ignore[arg-type]
        game = read_log([header.model_dump_json(), position.model_dump_json()])
    oracle = Oracle.from_position(
        list(position.trumps),
        [list(hand) for hand in position.hands],
        list(position.pile),
        position.to_act,
        position.phase,
        must_beat,
        game.view(None).out_order,
    )
    play_out(game, oracle, rng, refusals_every)
    if seed % 5 == 0:  # the same game, replayed from its log, ends the same way
        again = read_log(log_lines(game))
        assert again.state() == game.state()
    return oracle


def outcome_kind(oracle: Oracle) -> str:
    assert oracle.outcome is not None
    return str(oracle.outcome.get("reason", oracle.outcome["result"]))


# --- the tests -------------------------------------------------------------------------------


@pytest.mark.parametrize("rule_set", range(len(RULE_SETS)))
def test_dealt_games_agree_with_the_oracle_ply_by_ply(rule_set: int) -> None:
    """One whole random game per rule set (players, dealer, pass_sixes, must_beat)."""
    oracle = play_dealt_game(rule_set, refusals_every=25)
    assert oracle.outcome is not None


POSITION_BLOCKS = 2
POSITIONS_PER_BLOCK = 200


@pytest.mark.parametrize("block", range(POSITION_BLOCKS))
def test_random_positions_agree_with_the_oracle_ply_by_ply(block: int) -> None:
    seeds = range(block * POSITIONS_PER_BLOCK, (block + 1) * POSITIONS_PER_BLOCK)
    kinds = Counter(outcome_kind(play_position(seed, refusals_every=3)) for seed in seeds)
    # The small positions reach every way a game can end, so every ending was compared.
    assert kinds["loss"] > 0
    assert kinds["tie_check"] > 0
    assert kinds["repetition"] > 0


def test_the_oracle_itself_on_the_examples_of_rules_md() -> None:
    """The oracle reads §2.4 and §2.6 as the rule text's own examples do."""
    assert beats("QD", "TD", "S")
    assert not beats("9D", "TD", "S")
    assert beats("6S", "AD", "S")  # your trump beats another suit ...
    assert (
        beats("6S", "AD", "S") and beats("7S", "6S", "S") and not beats("AD", "6S", "S")
    )  # ... only a higher one beats it
    assert not beats("AC", "TD", "S")
    assert cards_to_take(["6D", "7D"], "S") == 2
    assert cards_to_take(["6D", "7D", "8D", "9D"], "S") == 3
    assert cards_to_take(["6D", "7D", "8D", "9D", "TD", "JD", "QS"], "S") == 5
    assert cards_to_take(["6D", "7D", "8D", "9D", "TD", "JD", "AS"], "S") == 7
    assert cards_to_take(["6D", "7D", "8D", "9D", "TD", "JD", "AS"], "D") == 3
