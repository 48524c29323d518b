"""``trumps serve``: run the online table server (Starlette on uvicorn; SQLite or PostgreSQL event store)."""

from __future__ import annotations

import errno
import logging
import socket
from typing import Annotated

import typer

from rules.cli.extras import require_server
from rules.cli.usage import COUNT, host_address, os_reason, shell_word
from rules.locale import N_, _, said

# The command's --help (a docstring would not be extracted for translation, so the help is a message).
HELP = N_(
    "Serve the lobby, the tables and the browser client; every move is stored in the database first.\n"
    "\n"
    "Every limit can also be set as an environment variable TRUMPS_<NAME> (e.g. TRUMPS_RATE=10)."
)

LOG_LEVELS = ("debug", "info", "warning", "error")


def serve(
    host: Annotated[str, typer.Option(help=N_("Address to listen on."))] = "127.0.0.1",
    port: Annotated[int, typer.Option(help=N_("Port to listen on."), min=1, max=65535)] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "SQLite file of the event store, or a postgresql://USER:PASSWORD@HOST:PORT/NAME URL that any number "
                "of server processes may share (default trumps.sqlite3, or env TRUMPS_DB)."
            )
        ),
    ] = None,
    sync: Annotated[
        str | None, typer.Option(help=N_("SQLite synchronous mode: full (survives power loss) or normal."))
    ] = None,
    # The numbers are read as text and checked as their TRUMPS_<NAME> variables are (Settings.from_env), not by
    # typer, which would take " 5", "+5", "1_000" or "5.0" for a whole number.
    max_message_bytes: Annotated[
        str | None, typer.Option(metavar=COUNT, help=N_("Largest WebSocket message read [4096]."))
    ] = None,
    rate: Annotated[str | None, typer.Option(help=N_("Messages per second per connection [20]."))] = None,
    burst: Annotated[
        str | None, typer.Option(metavar=COUNT, help=N_("Messages a connection may send at once [40]."))
    ] = None,
    hello_timeout: Annotated[str | None, typer.Option(help=N_("Seconds to wait for hello [10]."))] = None,
    max_tables_per_client: Annotated[
        str | None, typer.Option(metavar=COUNT, help=N_("Unfinished tables one address may create, 0: no limit [10]."))
    ] = None,
    max_tables: Annotated[
        str | None, typer.Option(metavar=COUNT, help=N_("Unfinished tables on the server [2000]."))
    ] = None,
    max_connections_per_client: Annotated[
        str | None,
        typer.Option(metavar=COUNT, help=N_("Open WebSocket connections from one address, 0: no limit [64].")),
    ] = None,
    idle_table_seconds: Annotated[
        str | None,
        typer.Option(
            help=N_("Seconds before a table nobody is connected to leaves memory (kept on disk), 0: never [600].")
        ),
    ] = None,
    computer_delay: Annotated[str | None, typer.Option(help=N_("Seconds a computer seat waits to move [0]."))] = None,
    trusted_proxies: Annotated[
        str | None,
        typer.Option(
            help=N_(
                "Comma-separated addresses or networks of the reverse proxies whose X-Forwarded-For is believed; "
                "the client is the right-most hop not among them [127.0.0.1]."
            )
        ),
    ] = None,
    pool_size: Annotated[
        str | None,
        typer.Option(
            metavar=COUNT, help=N_("PostgreSQL connections per process for requests (2 more are opened) [10].")
        ),
    ] = None,
    rules_url: Annotated[
        str | None,
        typer.Option(metavar="URL", help=N_("Address of the full rules, linked from the lobby (http:// or https://).")),
    ] = None,
    log_level: Annotated[str, typer.Option(help=N_("Log level: debug, info, warning, error."))] = "info",
    log_json: Annotated[
        bool, typer.Option("--log-json", envvar="TRUMPS_LOG_JSON", help=N_("Log one JSON object per line."))
    ] = False,
) -> None:
    if log_level.lower() not in LOG_LEVELS:
        levels = ", ".join(LOG_LEVELS)
        unknown = _("--log-level {level}: choose one of {levels}").format(level=shell_word(log_level), levels=levels)
        typer.echo(f"trumps serve: {unknown}", err=True)
        raise typer.Exit(2)
    if not host_address(host):
        unknown = _("--host {host}: not an IP address or a host name").format(host=shell_word(host))
        typer.echo(f"trumps serve: {unknown}", err=True)
        raise typer.Exit(2)
    require_server("serve")
    import uvicorn

    from rules.server import logs
    from rules.server.app import create_app
    from rules.server.limits import Settings, proxy_entries
    from rules.server.store import database_problem, is_postgres

    try:
        settings = Settings.from_env(
            options={
                "db": db,
                "sync": sync,
                "max_message_bytes": max_message_bytes,
                "rate": rate,
                "burst": burst,
                "hello_timeout": hello_timeout,
                "max_tables_per_client": max_tables_per_client,
                "max_tables": max_tables,
                "max_connections_per_client": max_connections_per_client,
                "idle_table_seconds": idle_table_seconds,
                "computer_delay": computer_delay,
                "trusted_proxies": trusted_proxies,
                "pool_size": pool_size,
                "rules_url": rules_url,
            }
        )
    except ValueError as error:
        typer.echo(f"trumps serve: {said(error)}", err=True)
        raise typer.Exit(2) from None
    busy = port_problem(host, port)
    if busy is not None:
        cannot = _("cannot listen on {address}: {why}").format(address=shell_word(f"{host}:{port}"), why=busy)
        typer.echo(f"trumps serve: {cannot}", err=True)
        raise typer.Exit(1)
    if is_postgres(settings.db):
        from rules.server.pgstore import check, redact

        refused = check(settings.db, settings.pool_size)  # the whole pool: over PostgreSQL's budget, one line here
        if refused is not None:
            typer.echo(f"trumps serve: {said(refused)}", err=True)
            raise typer.Exit(1)
        shown = redact(settings.db)
    else:
        problem = database_problem(settings.db)
        if problem is not None:
            cannot = _("cannot use the database {db}: {why}").format(db=shell_word(settings.db), why=said(problem))
            typer.echo(f"trumps serve: {cannot}", err=True)
            raise typer.Exit(2)
        shown = settings.db
    logs.configure(log_level.lower(), log_json)
    serving = _("serving on {url}  (database {db})").format(url=f"http://{host}:{port}/", db=shown)
    if log_json:  # every line a JSON object, this one too
        logging.getLogger("rules.server").info("%s", serving)
    else:
        typer.echo(serving, err=True)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=settings.hard_message_bytes,
        log_level=log_level.lower(),
        # As JSON, uvicorn's own lines go through the server's handler (logs.configure); else its usual text.
        log_config=None if log_json else uvicorn.config.LOGGING_CONFIG,
        # The client's address (for the per-address limits and the log) and scheme, as the trusted proxies say.
        proxy_headers=True,
        # Checked entries (uvicorn would take a typo for a name that matches nothing); ["*"]: every address.
        forwarded_allow_ips=proxy_entries(settings.trusted_proxies),
        access_log=False,  # the app logs each request itself (as JSON with --log-json)
        # SIGTERM: stop listening, close WebSockets with 1012 (the page reconnects, to another process
        # behind the load balancer), let the requests in flight finish their commits for up to 10 s.
        timeout_graceful_shutdown=10,
        # The WebSocket library's own keepalive; the protocol has ping/pong for clients that want it.
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )


def port_problem(host: str, port: int) -> str | None:
    """Why the server could not listen on ``host:port`` (checked before anything is created), in the language
    spoken, or ``None``."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as error:
        if error.errno == socket.EAI_NONAME:
            return _("unknown address: no machine has this name")
        return _("unknown address ({why})").format(why=error.strerror)
    family, kind, proto, _canonical, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        # As uvicorn binds: SO_REUSEADDR, so a port in TIME_WAIT after a restart is not called busy.
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as error:
            if error.errno == errno.EADDRINUSE:
                return _("the port is in use by another program (choose another with --port)")
            return os_reason(error)
    return None
