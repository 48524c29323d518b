"""How a computer player answers a draw offer (rules §3.4.2): one simple rule, the same in every interface.

The negotiation of a draw is not a rule of play; this is the answer of the project's bots, documented on the
protocol and CLI pages so that a person can expect it:

- yes once the hand is long: more than :data:`LONG_HAND` moves of play (cards and takes);
- yes when the bot is not ahead: it holds at least as many cards as every other player still holding cards;
- no otherwise.

>>> from rules.events import Position
>>> from rules.game import Game
>>> behind = Game.from_position(Position(trumps=["S", "H"], hands=[["8S", "6C"], ["KH"]], pile=[], to_act=0,
...                                      phase="lead"))
>>> accepts_draw(behind, 0), accepts_draw(behind, 1)
(True, False)
"""

from __future__ import annotations

from rules.game import Game

LONG_HAND = 300
"""More moves of play than this, and a bot agrees to any draw."""

_PLAY = frozenset({"lead", "beat", "second", "take"})


def accepts_draw(game: Game, seat: int) -> bool:
    """Whether the bot in ``seat`` agrees to end ``game`` drawn (it must still hold cards)."""
    moves = sum(1 for event in game.events if event.type in _PLAY)
    if moves > LONG_HAND:
        return True
    counts = game.view(None).hand_counts
    return all(counts[seat] >= counts[other] for other in game.holders())
