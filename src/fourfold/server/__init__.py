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
    hub.py        every table in memory (``Hub``), loaded, made, swept
    live.py       one table in play (``LiveTable``): joining, acting, refreshing
    persistence.py  saving each change before anyone hears of it (moves appended)
    fanout.py     the table's WebSocket connections, each sent its own view's events
    timers.py     one timer per table at its next deadline
    broker.py     what differs between one instance and several (``Broker``; the
                  null broker alone, redis_broker.py and cluster.py for several)
    access.py     one dependency: a request's token -> the table and its seat
    protocol.py   the JSON the server adds around the wire format (states, errors)
    api.py        the REST API; websocket.py the live socket; pages.py the HTML pages
    analysis.py   solver values of finished games, cached
    app.py        ``create_app(settings)``; main.py runs it under uvicorn
"""
