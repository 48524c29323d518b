"""The arena: bots play each other round-robin on mirrored deals, and the figures that come out.

For every pair of bots ``(a, b)`` and every deal, the *same* deal (the seeded
:meth:`~rules.game.Game.sample_deal` of one seed) is played once in every seating of
the pair, which cuts the luck of the cards:

- the duel: ``a`` in seat 0 and ``b`` in seat 1, then the seats swapped;
- ``K`` players: bots alternate round the table (``a b a``, ``a b a b``), and the deal is
  played in every rotation of that seating and of its mirror image (``b a b``), so both
  bots sit in every seat equally often.

A game counts as a win for ``a`` when a seat of ``b`` is the loser (with 3–4 players the
loser is the one seat left holding cards), a win for ``b`` the other way round, and a
draw otherwise. Bots choose their trumps themselves.

Elo ratings are fitted to all results (a draw scores one half for each side), with one
virtual draw added to every pair so that a clean sweep gives a finite figure; the first
bot is rated 0.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import combinations

from rules.game import Game
from rules.locale import N_, Message
from rules.options import PLAYERS, RuleSet
from rules.players.base import Player
from rules.players.levels import parse_bot

Z95 = 1.959964
"""The two-sided 95% quantile of the normal distribution."""


def seatings(players: int) -> list[tuple[int, ...]]:
    """The seatings of a pair for ``players`` seats: per seat, 0 for bot ``a`` or 1 for bot ``b``.

    >>> seatings(2)
    [(0, 1), (1, 0)]
    >>> seatings(3)
    [(0, 1, 0), (1, 0, 0), (0, 0, 1), (1, 0, 1), (0, 1, 1), (1, 1, 0)]
    """
    base = tuple(seat % 2 for seat in range(players))
    found: list[tuple[int, ...]] = []
    for pattern in (base, tuple(1 - side for side in base)):
        for shift in range(players):
            rotated = pattern[shift:] + pattern[:shift]
            if rotated not in found:
                found.append(rotated)
    return found


def play_game(bots: Sequence[Player], seed: int) -> Game:
    """One game from the trump choice to the end; the deal is that of ``seed``."""
    game = Game(RuleSet(players=len(bots)), seed=seed)
    play_out(game, bots)
    return game


def play_out(game: Game, bots: Sequence[Player]) -> None:
    """Play ``game`` to its end, ``bots[seat]`` choosing for each seat and the seeded deal for chance."""
    while not game.is_over():
        if game.phase == "deal":
            game.push(game.sample_deal())
            continue
        seat = game.to_act
        assert seat is not None
        game.push(bots[seat].choose(game.view(seat)))


@dataclass(frozen=True)
class Task:
    """One game of the arena: the pair, the deal number and the seating."""

    a: str
    b: str
    deal: int
    seating: tuple[int, ...]
    seed: int


def play_task(task: Task) -> tuple[Task, int]:
    """Play ``task``; returns ``1`` if ``a`` won, ``-1`` if ``b`` won, ``0`` for a draw."""
    specs = (task.a, task.b)
    bots = [
        parse_bot(specs[side], seed=task.seed * 1_000_003 + task.deal * 101 + seat * 11 + side)
        for seat, side in enumerate(task.seating)
    ]
    outcome = play_game(bots, seed=task.seed * 1_000_003 + task.deal).outcome
    assert outcome is not None
    if outcome.result == "draw" or outcome.loser is None:
        return task, 0
    return task, 1 if task.seating[outcome.loser] == 1 else -1


@dataclass
class PairResult:
    """The results of one pair, counted from ``a``'s side."""

    a: str
    b: str
    a_wins: int = 0
    draws: int = 0
    b_wins: int = 0

    @property
    def games(self) -> int:
        return self.a_wins + self.draws + self.b_wins

    @property
    def score(self) -> float:
        """``a``'s score: wins plus half the draws, per game."""
        return (self.a_wins + self.draws / 2) / self.games if self.games else 0.5

    def win_rate(self) -> tuple[float, float, float]:
        """``a``'s share of games won and its 95% Wilson interval."""
        return wilson(self.a_wins, self.games)

    def as_dict(self) -> dict[str, object]:
        rate, low, high = self.win_rate()
        return {
            "a": self.a,
            "b": self.b,
            "a_wins": self.a_wins,
            "draws": self.draws,
            "b_wins": self.b_wins,
            "games": self.games,
            "a_win_rate": round(rate, 4),
            "a_win_ci95": [round(low, 4), round(high, 4)],
            "a_score": round(self.score, 4),
        }


def wilson(successes: int, trials: int) -> tuple[float, float, float]:
    """A proportion and its 95% Wilson score interval.

    >>> [round(x, 3) for x in wilson(90, 100)]
    [0.9, 0.826, 0.945]
    """
    if trials == 0:
        return 0.0, 0.0, 1.0
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return p, max(0.0, centre - half), min(1.0, centre + half)


def elo_ratings(bots: Sequence[str], pairs: Sequence[PairResult]) -> dict[str, float]:
    """Bradley–Terry ratings on the Elo scale fitted to the pairs' scores (first bot at 0).

    >>> ratings = elo_ratings(["x", "y"], [PairResult("x", "y", a_wins=0, draws=0, b_wins=3)])
    >>> ratings["x"], round(ratings["y"])     # 3 wins + 1 virtual draw: score 3.5 / 4
    (0.0, 338)
    """
    rating = dict.fromkeys(bots, 0.0)
    for _ in range(2000):
        gradient = dict.fromkeys(bots, 0.0)
        for pair in pairs:
            games = pair.games + 1
            actual = pair.a_wins + pair.draws / 2 + 0.5
            expected = games / (1 + 10 ** ((rating[pair.b] - rating[pair.a]) / 400))
            gradient[pair.a] += actual - expected
            gradient[pair.b] -= actual - expected
        for bot in bots:
            rating[bot] += 100 * gradient[bot] / max(1, sum(p.games + 1 for p in pairs if bot in (p.a, p.b)))
        anchor = rating[bots[0]]
        rating = {bot: value - anchor for bot, value in rating.items()}
    return {bot: round(value, 1) for bot, value in rating.items()}


@dataclass
class ArenaResult:
    bots: list[str]
    players: int
    seed: int
    pairs: list[PairResult] = field(default_factory=list)

    def as_dict(self) -> dict[str, object]:
        return {
            "bots": self.bots,
            "players": self.players,
            "seed": self.seed,
            "pairs": [pair.as_dict() for pair in self.pairs],
            "elo": elo_ratings(self.bots, self.pairs),
        }


def tasks(bots: Sequence[str], games: int, seed: int, players: int) -> list[Task]:
    """The games of a round-robin: ``games`` per pair, rounded up to whole sets of seatings."""
    layouts = seatings(players)
    deals = max(1, math.ceil(games / len(layouts)))
    return [
        Task(a, b, deal, seating, seed)
        for a, b in combinations(bots, 2)
        for deal in range(deals)
        for seating in layouts
    ]


def check_bots(bots: Sequence[str]) -> None:
    """Raise ``ValueError`` naming the first bad bot specification or a bot listed twice."""
    if len(bots) < 2:
        raise ValueError(Message(N_("the arena needs at least two bots")))
    for spec in bots:
        parse_bot(spec)
        if bots.count(spec) > 1:
            raise ValueError(Message(N_("bot {spec!r} is listed twice"), spec=spec))


def run_arena(
    bots: Sequence[str],
    games: int,
    seed: int,
    players: int = PLAYERS,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> ArenaResult:
    """Play the round-robin; ``progress`` is called with the number of games finished so far."""
    check_bots(bots)
    result = ArenaResult(bots=list(bots), players=players, seed=seed)
    table = {(a, b): PairResult(a, b) for a, b in combinations(bots, 2)}
    result.pairs = list(table.values())
    for done, (task, winner) in enumerate(_played(tasks(bots, games, seed, players), jobs), start=1):
        pair = table[(task.a, task.b)]
        if winner > 0:
            pair.a_wins += 1
        elif winner < 0:
            pair.b_wins += 1
        else:
            pair.draws += 1
        if progress is not None:
            progress(done)
    return result


def _played(work: list[Task], jobs: int) -> Iterator[tuple[Task, int]]:
    if jobs <= 1:
        yield from map(play_task, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play_task, work)
