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

The arena also counts, per bot over all its games, its moves of play (every move after the
trump choice: :class:`Moves`). For a bot that plays exactly where its solver settles the
position (``perfect``: it keeps the counters
:attr:`~rules.players.perfect.PerfectPlayer.solved_moves` and
:attr:`~rules.players.perfect.PerfectPlayer.unsolved_moves`), it counts too how many of them
it made exactly (the solver settled the position's value within its budget) and at how many
the solver was asked but did not settle the value (MCTS chose). Each game's counts come back
with its result, from the worker process when games are played in parallel. The JSON of the
arena (``trumps arena --json``, :meth:`ArenaResult.as_dict`) carries them as
``"exact_play"``: for each such bot (and for no other) an object with

- ``"moves"``: its moves of play in all its games;
- ``"exact"``: the moves made exactly;
- ``"asked"``: the moves at which its solver was asked (``exact`` + ``unsettled``);
- ``"unsettled"``: the moves at which the solver was asked and did not settle the value within
  its budget.

The moves made without asking the solver (too many cards in the hands, or three or four
players) are ``moves - asked``.
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
from rules.players.base import Player, choose_move
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


def play_out(game: Game, bots: Sequence[Player]) -> list[int]:
    """Play ``game`` to its end, ``bots[seat]`` choosing for each seat and the seeded deal for chance.

    Returns the moves of play each seat made (its moves after the trump choice).
    """
    moves = [0] * len(bots)
    while not game.is_over():
        if game.phase == "deal":
            game.push(game.sample_deal())
            continue
        seat = game.to_act
        assert seat is not None
        if game.phase != "trump_choice":
            moves[seat] += 1
        game.push(choose_move(bots[seat], game.view(seat), game.position_counts()))
    return moves


@dataclass(frozen=True)
class Moves:
    """A bot's moves of play (after the trump choice) and, for a bot with a solver, how many it made exactly.

    ``exact`` and ``unsettled`` are ``None`` for a bot that keeps no such counters (it never asks a solver).

    >>> Moves(40, exact=9, unsettled=2) + Moves(30, exact=0, unsettled=1)
    Moves(moves=70, exact=9, unsettled=3)
    >>> Moves(70, 9, 3).asked, Moves(70).asked
    (12, None)
    """

    moves: int = 0
    exact: int | None = None
    """Moves made exactly: the solver settled the position's value within its budget."""
    unsettled: int | None = None
    """Moves at which the solver was asked and did not settle the value within its budget (MCTS chose)."""

    @property
    def asked(self) -> int | None:
        """Moves at which the solver was asked: settled or not."""
        if self.exact is None or self.unsettled is None:
            return None
        return self.exact + self.unsettled

    def __add__(self, other: Moves) -> Moves:
        if self.exact is None and other.exact is None:
            return Moves(self.moves + other.moves)
        return Moves(
            self.moves + other.moves,
            (self.exact or 0) + (other.exact or 0),
            (self.unsettled or 0) + (other.unsettled or 0),
        )

    def as_dict(self) -> dict[str, int]:
        """The fields of ``"exact_play"`` in the arena's JSON (for a bot with the counters)."""
        return {
            "moves": self.moves,
            "exact": self.exact or 0,
            "asked": self.asked or 0,
            "unsettled": self.unsettled or 0,
        }


def moves_of(bot: Player, moves: int) -> Moves:
    """``bot``'s ``moves`` of play in a game, with its exact and unsettled moves if it counts them."""
    exact = getattr(bot, "solved_moves", None)
    unsettled = getattr(bot, "unsolved_moves", None)
    if isinstance(exact, int) and isinstance(unsettled, int):
        return Moves(moves, exact, unsettled)
    return Moves(moves)


@dataclass(frozen=True)
class Task:
    """One game of the arena: the pair, the deal number and the seating."""

    a: str
    b: str
    deal: int
    seating: tuple[int, ...]
    seed: int


@dataclass(frozen=True)
class Played:
    """A game of the arena played: its task, who won, and each side's moves (summed over its seats)."""

    task: Task
    winner: int
    """``1`` if ``a`` won, ``-1`` if ``b`` won, ``0`` for a draw."""
    a: Moves
    b: Moves


def play_task(task: Task) -> Played:
    """Play ``task``: the winner, and the moves of each bot (it runs in a worker process with ``--jobs``)."""
    specs = (task.a, task.b)
    bots = [
        parse_bot(specs[side], seed=task.seed * 1_000_003 + task.deal * 101 + seat * 11 + side)
        for seat, side in enumerate(task.seating)
    ]
    game = Game(RuleSet(players=len(bots)), seed=task.seed * 1_000_003 + task.deal)
    made = play_out(game, bots)
    sides = [Moves(), Moves()]
    for seat, side in enumerate(task.seating):
        sides[side] += moves_of(bots[seat], made[seat])
    return Played(task, winner(game, task.seating), sides[0], sides[1])


def winner(game: Game, seating: tuple[int, ...]) -> int:
    """``1`` if a seat of ``b`` lost the finished ``game`` (``a`` won), ``-1`` if a seat of ``a`` lost, else ``0``."""
    outcome = game.outcome
    assert outcome is not None
    if outcome.result == "draw" or outcome.loser is None:
        return 0
    return 1 if seating[outcome.loser] == 1 else -1


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
    moves: dict[str, Moves] = field(default_factory=dict)
    """Each bot's moves over all its games (see :class:`Moves`)."""

    def exact_play(self) -> dict[str, Moves]:
        """The moves of the bots that count their exact moves (``perfect``), in the bots' order."""
        return {bot: self.moves[bot] for bot in self.bots if bot in self.moves and self.moves[bot].exact is not None}

    def as_dict(self) -> dict[str, object]:
        return {
            "bots": self.bots,
            "players": self.players,
            "seed": self.seed,
            "pairs": [pair.as_dict() for pair in self.pairs],
            "elo": elo_ratings(self.bots, self.pairs),
            "exact_play": {bot: moves.as_dict() for bot, moves in self.exact_play().items()},
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
    result.moves = {bot: Moves() for bot in bots}
    for done, played in enumerate(_played(tasks(bots, games, seed, players), jobs), start=1):
        task = played.task
        pair = table[(task.a, task.b)]
        result.moves[task.a] += played.a
        result.moves[task.b] += played.b
        if played.winner > 0:
            pair.a_wins += 1
        elif played.winner < 0:
            pair.b_wins += 1
        else:
            pair.draws += 1
        if progress is not None:
            progress(done)
    return result


def _played(work: list[Task], jobs: int) -> Iterator[Played]:
    if jobs <= 1:
        yield from map(play_task, work)
        return
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        yield from pool.map(play_task, work)
