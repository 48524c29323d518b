"""Difficulty levels, bot specifications for the arena, and the hint of the terminal game.

Levels (``trumps play --level``):

========  =================================================================
easy      greedy rules of thumb, but a random move one time in three
medium    greedy rules of thumb (:mod:`rules.players.greedy`), in the tuned style
hard      MCTS, 0.2 s per move (:mod:`rules.players.mcts`), in the duel
          with the learned score (``mcts-learned``)
perfect   exact play wherever the solver settles the duel position (2 s
          budget up to 14 cards in hand, 0.5 s tries up to 20), MCTS at 0.2 s
          per move otherwise (as ``hard``)
========  =================================================================

Bot specifications (``trumps arena``) are ``NAME[:PARAMETER]``:

- ``random``
- ``greedy`` or ``greedy:NOISE`` (probability of a random move, e.g. ``greedy:0.3``): the rules of thumb
  as MCTS's rollouts play them; ``greedy-tuned`` or ``greedy-tuned:NOISE`` the same in the tuned style
  (:data:`~rules.players.greedy.TUNED`), the ``medium`` level
- ``mcts`` (0.2 s per move), ``mcts:SECONDS`` (e.g. ``mcts:0.5``) or ``mcts:Nit``
  (``N`` iterations per move, deterministic: ``mcts:300it``)
- ``mcts-learned`` with the same parameters: MCTS whose rollouts in the duel stop after
  :data:`~rules.players.learned_score.ROLLOUT_PLIES` plies and are scored by the learned chance of a
  win (:mod:`rules.players.learned_score`) instead of the hand sizes (with three or four players it is ``mcts``)
- ``perfect``: the ``perfect`` level, as ``trumps play`` plays it; ``perfect:SECONDS`` the same
  with ``SECONDS`` for the solver's budget per move. Its MCTS is ``mcts-learned:0.2``, so against
  ``mcts-learned:0.2`` every difference comes from the solver (against ``mcts:0.2``, the plain MCTS,
  from the solver and the learned score)
- a level name: ``easy``, ``medium``, ``hard``
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.digits import decimal_number, whole_number
from rules.events import Event
from rules.locale import N_, Message
from rules.players import learned_score
from rules.players.base import Player
from rules.players.greedy import CLASSIC, TUNED, GreedyPlayer
from rules.players.mcts import MCTSPlayer
from rules.players.perfect import SOLVER_SECONDS, PerfectPlayer
from rules.players.random_player import RandomPlayer
from rules.state import View

LEVELS = ("easy", "medium", "hard", "perfect")


def make_player(level: str, seed: int | None = None) -> Player:
    """The computer opponent of a difficulty level (one of :data:`LEVELS`)."""
    if level == "easy":
        return GreedyPlayer(seed, noise=1 / 3)
    if level == "medium":
        return GreedyPlayer(seed, style=TUNED)
    if level == "hard":
        return MCTSPlayer(seed=seed, duel=learned_score.ROLLOUTS)
    if level == "perfect":
        return PerfectPlayer(seed)
    raise ValueError(
        Message(N_("unknown level {level!r}: choose one of {levels}"), level=level, levels=", ".join(LEVELS))
    )


def _number(spec: str, text: str) -> float:
    # Written in digits, as every number typed for trumps (rules.digits): float() would also take " 0.2", "1e-3" and
    # "inf", a player that never ends its move. A minus sign is read, to be refused as not positive.
    try:
        decimal_number(spec, text.removeprefix("-"))
    except ValueError:
        raise ValueError(Message(N_("bot {spec!r}: {text!r} is not a number"), spec=spec, text=text)) from None
    value = float(text)
    if not value > 0 and not (spec.startswith("greedy") and value == 0):
        raise ValueError(Message(N_("bot {spec!r}: {text!r} must be positive"), spec=spec, text=text))
    return value


def parse_bot(spec: str, seed: int | None = None) -> Player:
    """The bot of a specification such as ``greedy``, ``mcts:0.2``, ``mcts:300it`` or ``perfect``."""
    name, _, parameter = spec.partition(":")
    if name == "random" and not parameter:
        return RandomPlayer(seed)
    if name in ("greedy", "greedy-tuned"):
        noise = min(1.0, _number(spec, parameter)) if parameter else 0.0
        return GreedyPlayer(seed, noise=noise, style=TUNED if name == "greedy-tuned" else CLASSIC)
    if name == "mcts":
        return _mcts(spec, parameter, seed)
    if name == "mcts-learned":
        learned = _mcts(spec, parameter, seed)
        learned.duel, learned.name = learned_score.ROLLOUTS, spec
        return learned
    if name == "perfect":
        seconds = _number(spec, parameter) if parameter else SOLVER_SECONDS
        perfect = PerfectPlayer(seed, solver_seconds=seconds)
        perfect.name = spec
        return perfect
    if name in LEVELS and not parameter:
        player = make_player(name, seed)
        player.name = name
        return player
    message = N_(
        "unknown bot {spec!r}: use random, greedy[:NOISE], greedy-tuned[:NOISE], mcts[:SECONDS|:Nit], "
        "mcts-learned[:SECONDS|:Nit], "
        "perfect[:SECONDS], "
        "or a level (easy, medium, hard)"
    )
    raise ValueError(Message(message, spec=spec))


def _mcts(spec: str, parameter: str, seed: int | None) -> MCTSPlayer:
    """The MCTS player of a spec's parameter: none (0.2 s a move), ``SECONDS`` or ``Nit`` (iterations)."""
    if parameter.endswith("it"):
        count = parameter[:-2]
        try:
            iterations = whole_number(spec, count)  # ASCII digits: int() would also take "٣" or " 3"
        except ValueError:
            iterations = 0
        if iterations == 0:
            message = N_("bot {spec!r}: {count!r} is not a positive number of iterations")
            raise ValueError(Message(message, spec=spec, count=count))
        return MCTSPlayer(iterations=iterations, seed=seed)
    return MCTSPlayer(seconds=_number(spec, parameter) if parameter else None, seed=seed)


@dataclass(frozen=True)
class Advice:
    """A suggested move, and the exact value of the position for the seat to act when the solver settled it."""

    move: Event
    value: int | None
    """``1`` win, ``0`` draw, ``-1`` loss with best play from here; ``None`` when the move comes from MCTS alone."""


def advice(view: View, seconds: float = 1.0) -> Advice:
    """The move the ``perfect`` player would make for ``view``'s seat, with the exact value when settled.

    ``view`` must be the view of the seat to act (``view.legal_moves`` not empty). In the duel
    the solver tries first, within ``seconds``, whatever the number of cards; where it does not
    settle the position (or with three or four players) MCTS searches for ``seconds``.
    """
    if not view.legal_moves:
        raise ValueError("no hint: it is not this seat's turn")
    player = PerfectPlayer(seed=0, solver_seconds=seconds, mcts_seconds=seconds, solver_cards=36)
    move = player.choose(view)
    return Advice(move, player.last_value)


def hint(view: View, seconds: float = 1.0) -> Event:
    """The move of :func:`advice` (the terminal game's ``hint``)."""
    return advice(view, seconds).move
