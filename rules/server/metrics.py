"""What ``/metrics`` shows (Prometheus text format, through ``prometheus-client``).

One registry per process; with several server processes, Prometheus scrapes each of them
(see docs/deploy.md).
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

REGISTRY = CollectorRegistry()

CONNECTIONS = Gauge("trumps_connections", "Open WebSocket connections", registry=REGISTRY)
TABLES = Gauge("trumps_tables", "Tables held in this process's memory", registry=REGISTRY)
EVENTS = Counter("trumps_events_total", "Events committed by this process, by who made them", ["by"], registry=REGISTRY)
COMMIT_SECONDS = Histogram(
    "trumps_commit_seconds",
    "Time to commit one event to the database",
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)
ERRORS = Counter("trumps_errors_total", "Requests and messages refused, by error code", ["code"], registry=REGISTRY)


def count_tables(count: Callable[[], float]) -> None:
    """Report ``count()`` as the number of tables at each scrape."""
    TABLES.set_function(count)


def exposition() -> bytes:
    """The metrics as Prometheus text."""
    return generate_latest(REGISTRY)
