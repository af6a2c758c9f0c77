"""``fourfold serve``: online tables, an open API and storage that loses nothing.

    settings.py   what a server is configured with (``Settings``)
    storage/      the database: schema (models.py), migrations run at start-up
                  (migrate.py, ../migrations/), and every read and write (repository.py)
    tokens.py     seat tokens: unguessable, stored hashed
    limits.py     token buckets and size limits
    specs.py      what a new table is made of (game, seats, clock), checked
    live.py       the tables in play: one ``Table`` each, its listeners, its timer
    protocol.py   the JSON the server adds around the wire format (states, errors)
    api.py        the REST API; websocket.py the live socket; pages.py the HTML pages
    analysis.py   solver values of finished games, cached
    app.py        ``create_app(settings)``; main.py runs it under uvicorn
"""
