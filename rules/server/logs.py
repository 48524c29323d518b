"""The server's log: one line per HTTP request and per refusal, as text or (``--log-json``) JSON.

>>> import logging
>>> record = logging.LogRecord("rules.server", logging.INFO, "", 0, "GET %s", ("/",), None)
>>> record.fields = {"path": "/"}
>>> JsonLines().format(record).split(', ', 1)[1]
'"level": "info", "message": "GET /", "path": "/"}'
"""

from __future__ import annotations

import json
import logging
import sys
import time


class JsonLines(logging.Formatter):
    """A JSON object per line: time, level, message, and the record's ``fields`` if it has some."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "message": record.getMessage(),
        }
        line.update(getattr(record, "fields", {}))
        if record.exc_info:
            line["traceback"] = self.formatException(record.exc_info)
        return json.dumps(line, default=str)


def configure(level: str, as_json: bool) -> None:
    """Send the server's log (logger ``rules.server``) to stderr at ``level``. As JSON, uvicorn's own lines (its
    start and stop, each WebSocket it accepts) and the database driver's (a pool's failed connection) go the same
    way, so that every line is a JSON object: then uvicorn must be run with ``log_config=None``, or it would put its
    text handlers back."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines() if as_json else logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    for name in ("rules.server", "uvicorn", "psycopg") if as_json else ("rules.server",):
        logger = logging.getLogger(name)
        logger.handlers[:] = [handler]
        logger.setLevel(level.upper())
        logger.propagate = False
    if as_json:  # the driver's trouble only: its info is a line per connection taken from the pool and given back
        logging.getLogger("psycopg").setLevel(max(logging.WARNING, logging.getLogger("rules.server").level))
