"""The online table: an ASGI app (:mod:`rules.server.app`) serving tables that play matches.

:mod:`~rules.server.protocol` holds the messages, :mod:`~rules.server.tables` the tables,
:mod:`~rules.server.store` the SQLite event store, :mod:`~rules.server.limits` the settings.
"""
