"""Plain HTML pages: the lobby (``/``) and a table (``/t/{id}``). The browser app is
built on the API later; these show that the server is up and what it holds."""

from __future__ import annotations

from html import escape

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from fourfold.server.api import hub_of

router = APIRouter(include_in_schema=False)

STYLE = ("body{font-family:system-ui,sans-serif;max-width:52rem;margin:2rem auto;"
         "padding:0 1rem}table{border-collapse:collapse}td,th{padding:.2rem .8rem;"
         "text-align:left;border-bottom:1px solid #ddd}")


def _page(title: str, body: str) -> HTMLResponse:
    return HTMLResponse(
        f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{escape(title)}"
        f"</title><meta name=viewport content='width=device-width'><style>{STYLE}</style>"
        f"</head><body>{body}</body></html>",
        headers={"Referrer-Policy": "no-referrer"})


@router.get("/")
def lobby_page(request: Request) -> HTMLResponse:
    rows = hub_of(request).repo.lobby(100)
    items = "".join(
        f"<tr><td><a href='/t/{escape(r.id)}'>{escape(r.id)}</a></td>"
        f"<td>{escape(r.game)} ({escape(r.variant)})</td><td>{escape(r.status)}</td>"
        f"<td>{escape(', '.join(s['name'] + (' (open)' if s['kind'] == 'open' else '') for s in r.seats))}</td>"  # noqa: E501
        f"<td>{r.version}</td></tr>" for r in rows)
    table = (f"<table><tr><th>table</th><th>game</th><th>status</th><th>seats</th>"
             f"<th>version</th></tr>{items}</table>") if rows else "<p>No open or live"\
        " tables. Create one through the API (<a href='/docs'>/docs</a>).</p>"
    return _page("Fourfold lobby", f"<h1>Fourfold</h1><h2>Lobby</h2>{table}"
                 "<p>API: <a href='/docs'>/docs</a> &middot; "
                 "<a href='/api/lobby'>/api/lobby</a></p>")


@router.get("/t/{table_id}")
def table_page(table_id: str, request: Request) -> HTMLResponse:
    live = hub_of(request).get(table_id[:64])
    if live is None:
        return _page("No such table", "<h1>No such table</h1><p><a href='/'>Lobby</a></p>")
    tid = escape(live.id)
    seats = "".join(f"<li>{escape(s.name)} ({escape(s.kind)})</li>" for s in live.seats)
    body = (f"<h1>{escape(live.game.info.label())}</h1><p>Table {tid}: {escape(live.status)},"
            f" version {live.table.version}</p><ol start=0>{seats}</ol>"
            f"<p><img alt='the table' src='/api/tables/{tid}/svg' width=480></p>"
            f"<p><a href='/api/tables/{tid}/record'>record</a> &middot; "
            f"<a href='/api/tables/{tid}'>state (JSON)</a> &middot; <a href='/'>lobby</a></p>"
            "<p id=seat></p><script>const m=location.hash.match(/seat=([^&]+)/);"
            "if(m){document.getElementById('seat').textContent='You hold a seat here:"
            " play through the API with this token (the browser app comes next).'}</script>")
    return _page(f"Fourfold table {live.id}", body)
