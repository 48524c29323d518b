"""The transition table turned into the step that plays it: one engine for :class:`rules.game.Game` and for search.

:func:`compile_table` reads the rows of a table (:data:`rules.table.TRANSITIONS` or a
variant) and nothing else. For each trigger in each phase it keeps the rows in order, as
:class:`Step` objects holding the very functions of :mod:`rules.core` the rows name; then:

- :attr:`Compiled.fire` takes any event (setup included) by walking those steps;
- :attr:`Compiled.apply` plays a move (a card or :data:`rules.core.TAKE`): the same steps
  written out as Python by :func:`python_of_steps`, a branch per phase and kind of move, that
  *calls* the rule functions in the rows' order. The code is text made from the table alone
  (no rule's source is read), so an install of byte code only works, a traceback points at a
  line of it (it is registered with :mod:`linecache`), and ``trumps spec`` publishes it on
  the documentation site so that a change of the table shows as a change of this code.
- :attr:`Compiled.legal_mask` and :attr:`Compiled.legal_moves`: the masks of the play
  triggers the table takes in each phase (:data:`rules.core.MOVE_MASKS`), OR-ed together.

:func:`undo` takes back what :attr:`Compiled.apply` did, from the :class:`Undo` it returned.
"""

from __future__ import annotations

import inspect
import linecache
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from rules.cards import PACK_SIZE
from rules.table import AUTOMATIC, PLAY, STATES, Row

if TYPE_CHECKING:
    from rules.core import PositionKey, State
    from rules.outcome import Outcome

_TAKE = PACK_SIZE  # rules.core.TAKE (core imports this module, so it is not imported from there)
_PHASES = {name: number for number, name in enumerate(STATES)}


Undo = tuple[int, int, tuple[int, ...], int, tuple[int, ...], "Outcome | None", "PositionKey | None"]
"""What :attr:`Compiled.apply` returns, for :func:`undo`: the values a move may change, before it, at the
positions :class:`UndoFields` names: the seat that moved, the phase, the pile, that seat's hand (the only
hand a move changes), the order of going out, the outcome, and the position the move counted for the
repetition rule (it passed the turn), else ``None``.

A plain tuple, made only by the step: a named tuple costs search 6-10% of its time (it is made on
every ply), so the names are :class:`UndoFields`, a view of it (``UndoFields(*token).counted``).
"""


class UndoFields(NamedTuple):
    """The names of an :data:`Undo` token's positions."""

    seat: int
    phase: int
    pile: tuple[int, ...]
    hand: int
    out_order: tuple[int, ...]
    outcome: Outcome | None
    counted: PositionKey | None


def undo(state: State, token: Undo) -> None:
    """Take back the move that returned ``token`` (moves are undone last first)."""
    seat, phase, pile, hand, out_order, outcome, key = token
    state.hands[seat] = hand
    state.to_act = seat
    state.phase = phase
    state.pile = pile
    state.out_order = out_order
    state.outcome = outcome
    if key is not None:
        count = state.seen[key] - 1
        if count:
            state.seen[key] = count
        else:
            del state.seen[key]


class Step(NamedTuple):
    """A row of the table with its functions: conditions, callbacks, destination, and the rows of a transient one."""

    conditions: tuple[Callable[[State, Any], bool], ...]
    callbacks: tuple[Callable[[State, Any], None], ...]
    dest: int
    then: tuple[Step, ...] | None
    """The steps of the destination's automatic trigger (:data:`rules.table.AUTOMATIC`), if it is transient."""
    row: Row
    """The row itself, whose names the compiled code calls the functions by."""


class NoTransition(LookupError):
    """The table has no row for this trigger in this phase."""

    def __init__(self, trigger: str, phase: int) -> None:
        super().__init__(f"the rules have no {trigger} in phase {STATES[phase]}")
        self.trigger = trigger
        self.phase = phase


class Compiled(NamedTuple):
    """A transition table turned into what plays it."""

    apply: Callable[[State, int], Undo]
    """Play ``move`` (which must be legal) for the player to act; returns the token for :func:`undo`."""
    fire: Callable[[State, str, Any], None]
    """Take any event of the table (setup included) by trigger name, with its data."""
    legal_mask: Callable[[State], int]
    """The legal moves as one mask: bit ``c`` to play card ``c``, bit :data:`rules.core.TAKE` to take."""
    legal_moves: Callable[[State], tuple[int, ...]]
    """The legal moves of the player to act, cards in pack order then :data:`rules.core.TAKE`."""
    card_triggers: tuple[str | None, ...]
    """By phase, the trigger of playing a card there (``lead``, ``beat``, ``second``), if any."""
    triggers: tuple[frozenset[str], ...]
    """By phase, every trigger the table takes there."""
    steps: dict[tuple[str, int], tuple[Step, ...]]
    """By trigger and phase, the rows the table tries, in order."""
    source: str
    """The Python of :attr:`apply`, :attr:`legal_mask` and :attr:`legal_moves`, as :func:`python_of_steps` wrote it."""


def _function(name: str, namespace: dict[str, Any]) -> Callable[..., Any]:
    """The function of :mod:`rules.core` a row names; a name that is not a rule of two arguments is refused."""
    function = namespace.get(name)
    if not callable(function):
        raise ValueError(f"the table names {name}, which is not a function of rules.core")
    try:
        inspect.signature(function).bind(None, None)
    except TypeError:
        raise ValueError(f"the table names {name}, which does not take (state, move)") from None
    return function  # type: ignore[no-any-return]


def _groups(rows: Iterable[Row]) -> dict[tuple[str, int], list[Row]]:
    groups: dict[tuple[str, int], list[Row]] = {}
    for row in rows:
        for state in (row.source, row.dest):
            if state not in _PHASES:
                raise ValueError(f"the table names the state {state}, which rules.table.STATES does not list")
        groups.setdefault((row.trigger, _PHASES[row.source]), []).append(row)
    for (trigger, phase), group in groups.items():
        if group[-1].conditions or any(not row.conditions for row in group[:-1]):
            raise ValueError(f"the rows of {trigger} in {STATES[phase]} must end with exactly one unconditional row")
    return groups


def _lines(group: tuple[Step, ...], indent: str) -> list[str]:
    """The rows of ``group`` as ``if``/``elif``/``else`` statements calling their functions on ``(state, move)``."""
    lines = []
    for number, step in enumerate(group):
        inner = indent + "    "
        if step.conditions:
            test = " and ".join(f"{condition}(state, move)" for condition in step.row.conditions)
            lines.append(f"{indent}{'elif' if number else 'if'} {test}:")
        elif number:
            lines.append(f"{indent}else:")
        else:
            inner = indent  # the only row: no test
        lines += [f"{inner}{callback}(state, move)" for callback in step.row.callbacks]
        if step.then is None:
            lines.append(f"{inner}state.phase = {step.dest}  # {STATES[step.dest]}")
        else:  # a transient state: its rows decide at once (no rule reads the phase on the way)
            lines.append(f"{inner}# {STATES[step.dest]}")
            lines += _lines(step.then, inner)
    return lines


def python_of_steps(
    play: tuple[tuple[tuple[Step, ...] | None, tuple[Step, ...] | None], ...],
    masks: tuple[tuple[str, ...], ...],
) -> str:
    """The Python of ``apply``, ``legal_mask`` and ``legal_moves``.

    ``play[phase]`` holds the steps of playing a card and of taking in that phase (``None``
    where the table has none), ``masks[phase]`` the mask functions of the moves it takes there.
    """
    by_frequency = sorted(range(len(play)), key=lambda phase: phase != _PHASES["respond"])
    source = [
        "def apply(state, move):",
        "    seat = state.to_act",
        "    phase = state.phase",
        "    pile = state.pile",
        "    hand = state.hands[seat]",
        "    out_order = state.out_order",
        "    outcome = state.outcome",
        "    state.counted = None",
        "    if move == TAKE:",
    ]
    branch = "if"
    for phase in by_frequency:
        take = play[phase][1]
        if take is not None:
            source.append(f"        {branch} phase == {phase}:  # {STATES[phase]}")
            source += _lines(take, "            ")
            branch = "elif"
    source += [
        "        else:" if branch == "elif" else "        if True:",
        "            raise NoTransition('take', phase)",
    ]
    branch = "elif"
    for phase in by_frequency:
        card = play[phase][0]
        if card is not None:
            source.append(f"    {branch} phase == {phase}:  # {STATES[phase]}")
            source += _lines(card, "        ")
    source += ["    else:", "        raise NoTransition('card', phase)"]
    source.append("    return (seat, phase, pile, hand, out_order, outcome, state.counted)")
    for name, result in (("legal_mask", "{}"), ("legal_moves", _LISTING)):
        source += ["", "", f"def {name}(state):", "    phase = state.phase"]
        for phase in by_frequency:
            if masks[phase]:
                mask = " | ".join(f"{function}(state)" for function in masks[phase])
                if name == "legal_mask":
                    source += [f"    if phase == {phase}:  # {STATES[phase]}", f"        return {mask}"]
                else:
                    source += [
                        f"    if phase == {phase}:  # {STATES[phase]}",
                        f"        mask = {mask}",
                        f"        return {result}",
                    ]
        source.append("    return 0" if name == "legal_mask" else "    return ()")
    return "\n".join(source) + "\n"


_LISTING = (
    "MOVES_0[mask & 255] + MOVES_1[mask >> 8 & 255] + MOVES_2[mask >> 16 & 255]"
    " + MOVES_3[mask >> 24 & 255] + MOVES_4[mask >> 32]"
)
""":func:`rules.core.moves_of_mask` written out in ``legal_moves``: search lists moves every ply, and a call costs."""

_compiled = 0  # how many tables were compiled: each gets its own file name for tracebacks


def compile_table(rows: Iterable[Row]) -> Compiled:
    """Compile a transition table (:data:`rules.table.TRANSITIONS` or a variant) into what plays it."""
    from rules import core  # the rules this table names (core imports this module first)

    global _compiled
    rules = vars(core)
    groups = _groups(rows)
    steps: dict[tuple[str, int], tuple[Step, ...]] = {}

    def steps_of(trigger: str, phase: int) -> tuple[Step, ...]:
        if (trigger, phase) not in steps:
            group = []
            for row in groups[trigger, phase]:
                dest = _PHASES[row.dest]
                automatic = AUTOMATIC.get(row.dest)
                if automatic is not None and (automatic, dest) not in groups:
                    raise ValueError(f"the transient state {row.dest} has no row of its trigger {automatic}")
                then = steps_of(automatic, dest) if automatic is not None else None
                conditions = tuple(_function(name, rules) for name in row.conditions)
                callbacks = tuple(_function(name, rules) for name in row.callbacks)
                group.append(Step(conditions, callbacks, dest, then, row))
            steps[trigger, phase] = tuple(group)
        return steps[trigger, phase]

    for trigger, phase in groups:
        steps_of(trigger, phase)

    phases = range(len(STATES))
    triggers = tuple(frozenset(trigger for trigger, source in groups if source == phase) for phase in phases)
    card_triggers: list[str | None] = []
    for phase in phases:
        cards = sorted(triggers[phase] & {"lead", "beat", "second"})
        if len(cards) > 1:
            raise ValueError(f"phase {STATES[phase]} takes two kinds of card: {cards}")
        card_triggers.append(cards[0] if cards else None)
    play = tuple(
        (
            steps.get((card, phase)) if card is not None else None,
            steps.get(("take", phase)),
        )
        for phase, card in enumerate(card_triggers)
    )
    masks = tuple(
        tuple(core.MOVE_MASKS[kind].__name__ for kind in sorted(triggers[phase] & set(PLAY))) for phase in phases
    )
    source = python_of_steps(play, masks)

    namespace: dict[str, Any] = {
        "TAKE": _TAKE,
        "NoTransition": NoTransition,
        **{f"MOVES_{byte}": table for byte, table in enumerate(core.MOVES_BY_BYTE)},
    }
    for group in steps.values():
        for step in group:
            names = (*step.row.conditions, *step.row.callbacks)
            namespace.update(zip(names, (*step.conditions, *step.callbacks), strict=True))
    namespace.update({kind.__name__: kind for kind in core.MOVE_MASKS.values()})
    _compiled += 1
    filename = "<rules.table steps>" if _compiled == 1 else f"<rules.table steps {_compiled}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(keepends=True), filename)
    exec(compile(source, filename, "exec"), namespace)

    def fire(state: State, trigger: str, data: Any) -> None:
        group: tuple[Step, ...] | None = steps.get((trigger, state.phase))
        if group is None:
            raise NoTransition(trigger, state.phase)
        state.counted = None
        while group is not None:
            for step in group:
                if all(condition(state, data) for condition in step.conditions):
                    for callback in step.callbacks:
                        callback(state, data)
                    state.phase = step.dest
                    group = step.then
                    break

    return Compiled(
        namespace["apply"],
        fire,
        namespace["legal_mask"],
        namespace["legal_moves"],
        tuple(card_triggers),
        triggers,
        steps,
        source,
    )
