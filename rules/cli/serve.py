"""``trumps serve``: run the online table server (Starlette on uvicorn, SQLite event store)."""

from __future__ import annotations

from typing import Annotated

import typer


def serve(
    host: Annotated[str, typer.Option(help="Address to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.", min=1, max=65535)] = 8000,
    db: Annotated[
        str | None, typer.Option(help="SQLite file of the event store (default trumps.sqlite3, or env TRUMPS_DB).")
    ] = None,
    sync: Annotated[
        str | None, typer.Option(help="SQLite synchronous mode: full (survives power loss) or normal.")
    ] = None,
    max_message_bytes: Annotated[int | None, typer.Option(help="Largest WebSocket message read [4096].")] = None,
    rate: Annotated[float | None, typer.Option(help="Messages per second per connection [20].")] = None,
    burst: Annotated[int | None, typer.Option(help="Messages a connection may send at once [40].")] = None,
    hello_timeout: Annotated[float | None, typer.Option(help="Seconds to wait for hello [10].")] = None,
    max_tables_per_client: Annotated[
        int | None, typer.Option(help="Unfinished tables one address may create, 0: no limit [10].")
    ] = None,
    max_tables: Annotated[int | None, typer.Option(help="Unfinished tables on the server [2000].")] = None,
    max_connections_per_client: Annotated[
        int | None, typer.Option(help="Open WebSocket connections from one address, 0: no limit [64].")
    ] = None,
    idle_table_seconds: Annotated[
        float | None,
        typer.Option(
            help="Seconds before a table nobody is connected to leaves memory (kept on disk), 0: never [600]."
        ),
    ] = None,
    computer_delay: Annotated[float | None, typer.Option(help="Seconds a computer seat waits to move [0].")] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Serve the lobby, the tables and the browser client; every move is stored in the database first.

    Every limit can also be set as an environment variable TRUMPS_<NAME> (e.g. TRUMPS_RATE=10).
    """
    try:
        import uvicorn

        from rules.server.app import create_app
    except ImportError as missing:
        typer.echo(
            f"trumps serve needs the web server ({missing.name} is missing): pip install 'your-trumps[server]'",
            err=True,
        )
        raise typer.Exit(2) from None
    from rules.server.limits import Settings
    from rules.server.store import database_problem

    try:
        settings = Settings.from_env(
            db=db,
            sync=sync,
            max_message_bytes=max_message_bytes,
            rate=rate,
            burst=burst,
            hello_timeout=hello_timeout,
            max_tables_per_client=max_tables_per_client,
            max_tables=max_tables,
            max_connections_per_client=max_connections_per_client,
            idle_table_seconds=idle_table_seconds,
            computer_delay=computer_delay,
        )
    except ValueError as error:
        typer.echo(f"trumps serve: {error}", err=True)
        raise typer.Exit(2) from None
    problem = database_problem(settings.db)
    if problem is not None:
        typer.echo(f"trumps serve: cannot use the database {settings.db}: {problem}", err=True)
        raise typer.Exit(2)
    typer.echo(f"serving on http://{host}:{port}/  (database {settings.db})", err=True)
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=settings.hard_message_bytes,
        log_level=log_level,
        # The WebSocket library's own keepalive; the protocol has ping/pong for clients that want it.
        ws_ping_interval=20,
        ws_ping_timeout=20,
    )
