"""``fourfold serve``: online tables, an open API and storage that loses nothing.

    settings.py   what a server is configured with (``Settings``)
    storage/      the database: schema (models.py), migrations run at start-up
                  (migrate.py, ../migrations/), and every read and write (repository.py)
    tokens.py     seat tokens: unguessable, stored hashed
    limits.py     rate limits by address and seat token, WebSocket slots, held refusals
    jobs.py       the bounded pool for hints and analyses (worker processes)
    hints.py      a hint from a seat's view; middleware.py headers and the Host guard
    http_protocol.py  uvicorn's HTTP protocol with a read deadline and half-close fix
    specs.py      what a new table is made of (game, seats, clock), checked
    live.py       the tables in play: one ``Table`` each, its listeners, its timer
    protocol.py   the JSON the server adds around the wire format (states, errors)
    api.py        the REST API; websocket.py the live socket; pages.py the HTML pages
    analysis.py   solver values of finished games, cached
    app.py        ``create_app(settings)``; main.py runs it under uvicorn
"""
