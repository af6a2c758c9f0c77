"""A small bot that plays a whole game through the Fourfold API alone (httpx + websockets).

    fourfold serve &                       # in another terminal
    python examples/api_bot.py             # creates a table against a server bot
    python examples/api_bot.py --game dao --against bot:level2 --url http://127.0.0.1:8000
    python examples/api_bot.py --table ID --token TOKEN   # play a seat you were given

It listens on the table's WebSocket (the token goes in the first "hello" message, never
in the URL) and answers each event in which it may act with a random legal move, sent
with the version it saw. A stale version (409) just means something landed first: it
waits for the next event.
"""

from __future__ import annotations

import argparse
import json
import random
import sys

import httpx
from websockets.sync.client import connect


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", default="http://127.0.0.1:8000")
    parser.add_argument("--game", default="quarto")
    parser.add_argument("--against", default="bot:level1", help="the other seat")
    parser.add_argument("--table", help="join this table instead of creating one")
    parser.add_argument("--token", help="the seat token for --table")
    parser.add_argument("--seed", type=int, default=None)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    http = httpx.Client(base_url=args.url, timeout=30)
    if args.table:
        table_id, token = args.table, args.token
    else:
        created = http.post("/api/tables", json={
            "game": args.game, "seats": ["human", args.against]})
        created.raise_for_status()
        table_id, token = created.json()["id"], created.json()["seats"][0]["token"]
        print(f"table {args.url}{created.json()['url']} (watch it there)")
    headers = {"Authorization": f"Bearer {token}"}
    ws_url = args.url.replace("http", "ws", 1) + f"/api/tables/{table_id}/live"
    with connect(ws_url) as ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        me = None
        while True:
            message = json.loads(ws.recv(timeout=120))
            if message["type"] == "welcome":
                me = message["you"]
                print(f"playing seat {me} of a {message['table']['game']} table")
            elif message["type"] == "refused":
                print(f"refused ({message['status']}): {message['error']}")
            elif message["type"] == "event":
                view = message["view"]
                if message["kind"] == "move":
                    print(f"v{message['version']}: {message['text']}")
                if view["outcome"] is not None or message["kind"] == "end":
                    state = http.get(f"/api/tables/{table_id}", headers=headers).json()
                    print(f"game over: {state['outcome']}")
                    return 0
                if me in view["actors"] and view["legal_moves"]:
                    move = rng.choice(view["legal_moves"])
                    # the REST call answers 200 (played), 409 (stale) or 422 (illegal)
                    r = http.post(f"/api/tables/{table_id}/moves", headers=headers,
                                  json={"move": move, "version": message["version"]})
                    if r.status_code not in (200, 409):
                        print(f"move {move} refused: {r.json()['error']}")


if __name__ == "__main__":
    sys.exit(main())
