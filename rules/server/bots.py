"""Computer seats' thinking, off the event loop: in worker processes, or threads.

A search (MCTS, the solver) is pure Python and holds the interpreter lock while it runs;
in a thread of the server process it would slow every other table down. So by default
bots think in a pool of worker processes (started with ``spawn``: a clean interpreter, no
copy of the server's threads or sockets). Each worker keeps the players it built, by
level and seed, so a seat's player keeps whatever it learns between moves when its calls
land on the same worker. ``processes=0`` runs them in threads instead (tests, tiny hosts).

>>> import asyncio
>>> from rules.game import Game
>>> from rules.options import RuleSet
>>> bots = Bots(processes=0, threads=1)
>>> view = Game(RuleSet(), seed=1).view(1)
>>> move = asyncio.run(bots.choose("easy", 7, view, {}))
>>> move.type, move.seat
('choose_trump', 1)
>>> bots.close()
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from rules.core import PositionKey
from rules.events import Event
from rules.players import Player, make_player
from rules.players.base import choose_move
from rules.state import View

log = logging.getLogger("rules.server")

_PLAYERS: OrderedDict[tuple[str, int], Player] = OrderedDict()
_KEEP = 256


def choose(level: str, seed: int, view: View, seen: dict[PositionKey, int]) -> Event:
    """One move of the ``level`` player with ``seed``, told the game's repetition history ``seen`` (in a worker)."""
    key = (level, seed)
    player = _PLAYERS.get(key)
    if player is None:
        player = _PLAYERS[key] = make_player(level, seed)
        if len(_PLAYERS) > _KEEP:
            _PLAYERS.popitem(last=False)
    else:
        _PLAYERS.move_to_end(key)
    return choose_move(player, view, seen)


def worker_started(parent: int) -> None:
    """In a worker: leave Ctrl-C to the server, and exit when the server is gone, even if it was killed (no orphans
    thinking forever).

    Ctrl-C in a terminal interrupts the whole process group: a worker interrupted mid-search would print its own
    traceback (not a line of the server's log) and hand the interrupt back to the server as the search's result,
    which would stop the event loop. The server stops its workers itself as it shuts down (:meth:`Bots.close`).
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, name="trumps-bot-watch", daemon=True).start()


class Bots:
    """Where computer players think: ``processes`` workers, or (``processes=0``) ``threads`` threads."""

    def __init__(self, processes: int, threads: int) -> None:
        self._processes = processes
        self._threads = max(1, threads)
        self._pool = self._new_pool()

    def _new_pool(self) -> Executor:
        if self._processes > 0:
            return ProcessPoolExecutor(
                self._processes,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=worker_started,
                initargs=(os.getpid(),),
            )
        return ThreadPoolExecutor(self._threads, thread_name_prefix="trumps-bot")

    async def choose(self, level: str, seed: int, view: View, seen: dict[PositionKey, int]) -> Event:
        """The bot's move, told how often each position of the game has come up (``Game.position_counts``); raises
        whatever the bot raised (the caller falls back on a random move)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool, choose, level, seed, view, seen)
        except BrokenProcessPool:
            # A worker died (killed, out of memory): start a fresh pool for the next moves.
            log.error("a bot worker process died; starting new ones")
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = self._new_pool()
            raise

    def close(self) -> None:
        """Stop the workers and wait for them (a search under way ends first: a few seconds at most).

        Waited for, because the server then exits by the signal it got, which runs no exit handlers: a pool still
        shutting down would leave its queues' semaphores to multiprocessing's resource tracker, which warns of them
        on stderr, in plain text among the JSON lines of ``--log-json``.
        """
        self._pool.shutdown(wait=True, cancel_futures=True)
