"""Depth-first proof-number search (df-pn): does one seat of a duel force a win?

The solver's fast prover (see :mod:`rules.players.solver`). It grows a proof for the
question "can seat ``x`` force a win from here?" best first: every position carries a
*proof number* (how many more positions must be proven, at least, to prove it) and a
*disproof number*; the search always expands the position that looks cheapest to settle
the root. Positions the seat to prove has to answer are AND nodes, its own moves OR nodes.

Choices that make it work on this game (each measured on random 12-card positions):

- **Distance-based first numbers.** A position seen for the first time gets the fewest
  plies its seat needs to go out (:func:`plies_to_go_out`) as its proof number and the
  other seat's as its disproof number, times the number of moves at the player's side
  that makes settling it harder. A proof then heads for the lines in which ``x`` sheds cards.
- **The 1 + ε trick** (Pawlewicz and Lew): a child is searched until its number exceeds
  the second best's by a factor :data:`EPSILON`, not by one, so the search does not keep
  switching between two equal children.
- **Cycles are not a win.** A move back to a position of the current path is a
  disproof for ``x`` (the endless game is a draw, see the solver's docstring). A
  disproof that leans on a position of the path above the node is stored with that
  position and trusted only while it is on the path again.
- **Moves in pack order.** Trying the greedy choice first, which helps the Boolean search a
  lot, made this search slower: the numbers already say where to look.

What it returns is asymmetric on purpose: a *proof* is a finite tree of moves in which no
position repeats, made of positions each proven before their parent, so it holds whatever
the path (it is stored in the shared table with its height). A *disproof* can still lean on
the path in cases the bookkeeping above does not capture (a position it leaned on may not
have been disproven in the end), so :meth:`ProofNumberSearch.refuted` checks it on its own
terms before the solver trusts it.

>>> from rules.cards import Card
>>> state = core.State.from_position(trumps=(0, 1), hands=((Card.parse("AS"), Card.parse("7D")), (Card.parse("KH"),)),
...                                  pile=(Card.parse("9C"), Card.parse("JC")), to_act=1, phase=core.RESPOND)
>>> search = ProofNumberSearch(({}, {}))
>>> search.prove(state, seat=1, budget=100), search.prove(state, seat=0, budget=100)
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Final

from rules import core
from rules.cards import PACK_SIZE

__all__ = ["EPSILON", "ProofNumberSearch", "plies_to_go_out"]

INFINITE: Final = 10**9
"""A proof or disproof number that can no longer be reached (the position is settled)."""

EPSILON: Final = 1.5
"""The 1 + ε trick's factor; 1.5 did best of 1, 1.25, 1.5, 2 and 3 on random 12-card positions."""

NOT_WIN: Final = -1
"""A table entry: the seat cannot force a win from the position, whatever the path (a win's entry is its height)."""

SEEDED_DISPROOF: Final = 10**6
"""The disproof number :meth:`ProofNumberSearch.seed_from` gives a position where the other seat was disproven:
large (it is most likely a proof) but finite, so the search can still enter it."""

_CHECK_EVERY: Final = 4096

Table = tuple[dict[core.PositionKey, int], dict[core.PositionKey, int]]
"""The solver's table: for each seat, its proven wins' heights and its proven not-wins, by position."""
Numbers = tuple[int, int] | tuple[int, int, core.PositionKey]
"""``(proof, disproof)``; a disproof that leans on the path also names the path position it leans on."""


class OutOfBudget(Exception):
    """This call's budget of iterations is spent; the numbers found so far are kept."""


def plies_to_go_out(cards: int, to_act: bool, phase: int) -> int:
    """A lower bound on the plies before a duel seat holding ``cards`` can go out.

    Each card takes a ply of its own, and the seat plays at most two in a row (a beat and
    its second card) before the other seat has a ply; a lead or a second card ends its run.

    >>> plies_to_go_out(1, to_act=True, phase=core.RESPOND)   # beat with the last card
    1
    >>> plies_to_go_out(3, to_act=True, phase=core.LEAD)      # lead, (reply), beat, second
    4
    >>> plies_to_go_out(3, to_act=False, phase=core.RESPOND)  # (reply), beat, second, (reply), lead or beat
    5
    """
    if not to_act:
        return cards + (cards + 1) // 2
    if phase == core.RESPOND:
        return cards + (cards - 1) // 2
    return cards + cards // 2


_TO_ACT_PLIES: Final = {
    phase: tuple(plies_to_go_out(cards, True, phase) for cards in range(PACK_SIZE + 1))
    for phase in (core.LEAD, core.RESPOND, core.SECOND)
}
_WAITING_PLIES: Final = tuple(plies_to_go_out(cards, False, core.LEAD) for cards in range(PACK_SIZE + 1))


def _first_numbers(state: core.State, x: int) -> tuple[int, int]:
    """The numbers of a position not searched yet: the distances to going out, times the branching against."""
    moves = core.legal_mask(state).bit_count()
    hands = state.hands
    if state.to_act == x:
        return _TO_ACT_PLIES[state.phase][hands[x].bit_count()], _WAITING_PLIES[hands[1 - x].bit_count()] * moves
    return _WAITING_PLIES[hands[x].bit_count()] * moves, _TO_ACT_PLIES[state.phase][hands[1 - x].bit_count()]


class ProofNumberSearch:
    """df-pn for the duel, on :mod:`rules.core`.

    ``table`` is shared with the solver: ``table[x][key]`` is the proof height of a win of
    seat ``x`` (``>= 0``), or :data:`NOT_WIN` when ``x`` is proven not to win; this search reads
    both, writes the heights of the wins it proves, and :meth:`refuted` writes the not-wins it
    checks. Its own numbers live as long as the object
    and are kept between calls of :meth:`prove`, so a call with a larger budget resumes.
    ``check`` is called every few thousand iterations (the solver's node and time limits).
    """

    def __init__(
        self,
        table: Table,
        check: Callable[[], None] | None = None,
        drawn: frozenset[core.PositionKey] = frozenset(),
    ) -> None:
        self.table = table
        self.check = check
        self.drawn = drawn
        """Positions whose next occurrence draws the game (:meth:`rules.players.solver.Solver.set_history`)."""
        self.iterations = 0
        self._numbers: tuple[dict[core.PositionKey, Numbers], dict[core.PositionKey, Numbers]] = ({}, {})
        self._limit = 0
        self._x = 0
        self._path: dict[core.PositionKey, int] = {}
        self._trail: list[core.PositionKey] = []

    def prove(self, state: core.State, seat: int, budget: int) -> bool | None:
        """``True`` if ``seat`` is proven to force a win, ``False`` if disproven, ``None`` out of budget.

        A disproof is a hint until :meth:`refuted` has checked it.
        """
        if state.outcome is not None:
            return core.won(state.outcome, seat)
        work = state.fresh_copy()  # the rules' count of repetitions then says what is on the path (_child_numbers)
        key = work.key()
        known = self.table[seat].get(key)
        if known is not None and known >= NOT_WIN:
            return known >= 0
        self._x = seat
        self._path = {key: 0}
        self._trail = [key]
        self._limit = self.iterations + budget
        try:
            proof, _, _ = self._search(work, key, 0, INFINITE - 1, INFINITE - 1)
        except OutOfBudget:
            return None
        return proof == 0

    @property
    def stored(self) -> int:
        """How many positions' numbers this search holds."""
        return len(self._numbers[0]) + len(self._numbers[1])

    def forget(self) -> None:
        """Drop every number (they are only guidance; proofs live in the table). Safe in the middle of a search."""
        for numbers in self._numbers:
            numbers.clear()

    def seed_from(self, seat: int) -> None:
        """Start the other seat's numbers from ``seat``'s search, mirrored.

        The two questions are mirror images: the first numbers of one seat are the other's
        swapped, so "does ``seat`` win?" grows the same tree as "does the other seat win?"
        and differs only where a line cycles (not a win for either). After ``seat`` is
        disproven its tree is, cycles aside, the other seat's proof: seeding the other
        search with the swapped numbers, and a proof number of 1 where ``seat`` was disproven
        for good, sends that search straight down it instead of growing it again.
        Only guidance is copied: the other seat's proofs are still searched move by move.
        """
        mirrored = self._numbers[1 - seat]
        for key, numbers in self._numbers[seat].items():
            if len(numbers) == 3 or key in mirrored:
                continue
            proof, disproof = numbers[0], numbers[1]
            if proof == 0:
                mirrored[key] = (INFINITE, 0)
            elif disproof == 0:
                mirrored[key] = (1, SEEDED_DISPROOF)
            else:
                mirrored[key] = (disproof, proof)

    def estimate(self, key: core.PositionKey, seat: int, proof: bool) -> int:
        """The proof number (``proof``) or disproof number of ``seat``'s win at ``key`` as this search left it.

        :data:`INFINITE` for a position it has not searched.
        """
        numbers = self._numbers[seat].get(key)
        if numbers is None:
            return INFINITE
        return numbers[0] if proof else numbers[1]

    def refuted(self, state: core.State, seat: int) -> bool:
        """Whether the disproof this search left for ``seat`` holds whatever the path: a checked not-win.

        A disproof may lean on a repetition above a position (see the module docstring), so it
        is checked here on its own terms. Starting from ``state``, collect the disproven positions
        that the disproof reaches: all the moves of ``seat``, the other seat's moves into disproven
        positions. Then drop, until none is left to drop, every position of ``seat`` with a move
        out of the set (to a win of ``seat``, or to a position not disproven) and every position of
        the other seat with no move left inside the set or to a safe end (a game over without a
        win of ``seat``, or a position the table holds as not won by ``seat`` or as won by the
        other seat). What remains is closed: from each of its positions the other seat can stay
        in it for ever or end the game safely, so ``seat`` cannot force a win there (an endless
        game is a draw). Every position that remains is stored in the table as not won by
        ``seat``; ``True`` if ``state`` remains.
        """
        numbers = self._numbers[seat]
        table = self.table
        work = state.copy()
        work.seen = {}
        root = work.key()
        if table[seat].get(root) == NOT_WIN:
            return True
        entry = numbers.get(root)
        if entry is None or entry[1] != 0:
            return False
        # Per position: whether it is seat's move, and a count of what keeps it in the set; for the
        # other seat's positions the moves that stay inside or end safely, for seat's own, zero or
        # one "move out". parents[c]: the positions with a move into c (once per move).
        is_or: dict[core.PositionKey, bool] = {root: work.to_act == seat}
        keeps: dict[core.PositionKey, int] = {root: 0}
        parents: dict[core.PositionKey, list[core.PositionKey]] = {root: []}
        dropped: list[core.PositionKey] = []
        stack: list[tuple[core.PositionKey, tuple[int, ...], int, core.Undo | None]] = [
            (root, core.legal_moves(work), 0, None)
        ]
        while stack:
            key, moves, index, token = stack.pop()
            if index == len(moves):
                if is_or[key] == (keeps[key] > 0):
                    dropped.append(key)
                if token is not None:
                    core.undo(work, token)
                continue
            stack.append((key, moves, index + 1, token))
            step = core.apply(work, moves[index])
            outcome = work.outcome
            if outcome is not None and not (step[6] is not None and work.repeats > 1):
                inside = not core.won(outcome, seat)
                child = None
            elif self.drawn and step[6] in self.drawn:  # a draw by repetition in this game: a safe end
                inside, child = True, None
            else:  # play goes on, or would but for a draw by repetition: a move back into the walk, not an end
                child = step[6] or work.key()
                known = table[seat].get(child)
                if known is not None and known >= NOT_WIN:
                    inside, child = known == NOT_WIN, None
                elif table[1 - seat].get(child, NOT_WIN) >= 0:
                    inside, child = True, None
                else:
                    entry = numbers.get(child)
                    inside = entry is not None and entry[1] == 0
            if is_or[key]:
                if not inside:
                    keeps[key] = 1
            elif inside:
                keeps[key] += 1
            if child is None or not inside:
                core.undo(work, step)
            elif child in parents:
                parents[child].append(key)
                core.undo(work, step)
            else:
                parents[child] = [key]
                is_or[child] = work.to_act == seat
                keeps[child] = 0
                stack.append((child, core.legal_moves(work), 0, step))
        gone = set(dropped)
        while dropped:
            for parent in parents[dropped.pop()]:
                if parent in gone:
                    continue
                if not is_or[parent]:
                    keeps[parent] -= 1
                    if keeps[parent]:
                        continue
                gone.add(parent)
                dropped.append(parent)
        for key in is_or:
            if key not in gone:
                table[seat][key] = NOT_WIN
        return root not in gone

    def _search(
        self, state: core.State, key: core.PositionKey, depth: int, proof_limit: int, disproof_limit: int
    ) -> tuple[int, int, int]:
        """Search ``state`` (at ``depth`` on the path) until its numbers reach a limit; returns them.

        The third value is the path depth a disproof leans on (:data:`INFINITE` if none).
        """
        x = self._x
        is_or = state.to_act == x
        moves = core.legal_moves(state)
        targets: list[core.PositionKey | None] = []
        current = [self._child_numbers(state, move, targets) for move in moves]
        while True:
            self.iterations += 1
            if self.iterations >= self._limit:
                raise OutOfBudget
            if self.check is not None and self.iterations % _CHECK_EVERY == 0:
                self.check()
            # The best child, the second best number and the sum, for the node's numbers; and the
            # path depths the disproved children lean on.
            best = -1
            first = second = INFINITE + 1
            best_proof = best_disproof = total = 0
            leans_all = INFINITE
            leans_one = -1
            for index, (proof, disproof, leans) in enumerate(current):
                if disproof == 0:
                    if leans < leans_all:
                        leans_all = leans
                    if leans > leans_one:
                        leans_one = leans
                if is_or:
                    ranked = proof
                    total += disproof
                else:
                    ranked = disproof
                    total += proof
                if ranked < first:
                    second = first
                    first = ranked
                    best = index
                    best_proof, best_disproof = proof, disproof
                elif ranked < second:
                    second = ranked
            if total > INFINITE:
                total = INFINITE
            node_proof, node_disproof = (first, total) if is_or else (total, first)
            if node_proof == 0:
                self._numbers[x][key] = (0, INFINITE)
                self.table[x][key] = 1 + self._height(current, targets, is_or)
                return 0, INFINITE, INFINITE
            if node_disproof == 0:
                leans = leans_all if is_or else leans_one
                self._numbers[x][key] = (INFINITE, 0, self._trail[leans]) if leans < depth else (INFINITE, 0)
                return INFINITE, 0, leans
            if node_proof >= proof_limit or node_disproof >= disproof_limit:
                self._numbers[x][key] = (node_proof, node_disproof)
                return node_proof, node_disproof, INFINITE
            target = targets[best]
            assert target is not None
            if is_or:
                child_proof_limit = min(proof_limit, int(second * EPSILON) + 1)
                child_disproof_limit = min(disproof_limit - node_disproof + best_disproof, INFINITE - 1)
            else:
                child_disproof_limit = min(disproof_limit, int(second * EPSILON) + 1)
                child_proof_limit = min(proof_limit - node_proof + best_proof, INFINITE - 1)
            token = core.apply(state, moves[best])
            self._path[target] = depth + 1
            self._trail.append(target)
            # Only the searched child's numbers are read back: a sibling that the search below
            # settled through a transposition is noticed when this node is entered again.
            current[best] = self._search(state, target, depth + 1, child_proof_limit, child_disproof_limit)
            self._trail.pop()
            del self._path[target]
            core.undo(state, token)

    def _child_numbers(
        self, state: core.State, move: int, targets: list[core.PositionKey | None]
    ) -> tuple[int, int, int]:
        """The numbers of the position ``move`` leads to, and the path depth a disproof leans on.

        Appends the position's key to ``targets`` (``None`` if the game ends there).
        """
        x = self._x
        token = core.apply(state, move)
        child = token[6]
        if self.drawn and child in self.drawn:  # a draw by repetition in this game, whatever the path
            core.undo(state, token)
            targets.append(None)
            return INFINITE, 0, INFINITE
        # A position seen before on the path leans on it, before any outcome (a draw by repetition would too).
        at = self._path[child] if child is not None and state.repeats > 1 else None
        outcome = state.outcome
        if outcome is not None and at is None:
            core.undo(state, token)
            targets.append(None)
            return (0, INFINITE, INFINITE) if core.won(outcome, x) else (INFINITE, 0, INFINITE)
        if child is None:  # phase second, which the rules do not count
            child = state.key()
            at = self._path.get(child)
        targets.append(child)
        numbers: tuple[int, int, int] | None = None
        if at is not None:
            numbers = (INFINITE, 0, at)
        else:
            entry = self._numbers[x].get(child)
            if entry is None:
                height = self.table[x].get(child)
                if height is not None and height >= NOT_WIN:
                    numbers = (0, INFINITE, INFINITE) if height >= 0 else (INFINITE, 0, INFINITE)
            elif len(entry) == 2:
                numbers = (entry[0], entry[1], INFINITE)
            else:
                at = self._path.get(entry[2])
                if at is not None:
                    numbers = (INFINITE, 0, at)
        if numbers is None:
            numbers = (*_first_numbers(state, x), INFINITE)
        core.undo(state, token)
        return numbers

    def _height(self, current: list[tuple[int, int, int]], targets: list[core.PositionKey | None], is_or: bool) -> int:
        """The highest (AND) or lowest (OR) proof height among the proven children of a node just proven."""
        heights = [
            0 if target is None else self.table[self._x][target]
            for (proof, _, _), target in zip(current, targets, strict=True)
            if proof == 0
        ]
        return min(heights) if is_or else max(heights)
