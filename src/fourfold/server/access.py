"""Who is asking: one FastAPI dependency maps a request's token to a table and a seat.

Every route under ``/api/tables/{table_id}`` takes a ``Caller`` (``Watcher``: a seat's
holder or a spectator; ``Seated``: a seat's holder only), and the WebSocket asks
``seat_holding`` the same question, so a token means the same thing everywhere:

- the request is charged to its client address (every request, on every route: the
  middleware ``AddressCharge``), and to the token once the token has held a seat
  (server/limits.py): a made-up token costs its address, never a fresh bucket;
- an unknown table is 404; a token that holds no seat at the table is 403 (it is not
  quietly treated as a spectator); no token at all is a spectator, refused (403) at a
  table of the daily deal until its day ends (``check_watchable``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from fourfold.server.hub import Hub
from fourfold.server.limits import address_key
from fourfold.server.live import LiveTable
from fourfold.server.tokens import token_hash

bearer = HTTPBearer(auto_error=False, description="the seat's token")
Credentials = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
#: the longest token read (longer ones are cut, and so hold no seat)
TOKEN_CHARS = 200


class ApiError(Exception):
    """A refusal: the HTTP status and the reason in words (and, for a 429, the seconds
    after which asking again may work: ``Retry-After``, 1 unless given)."""

    def __init__(self, status: int, reason: str, retry_after: int | None = None) -> None:
        self.status = status
        self.reason = reason
        self.retry_after = retry_after
        super().__init__(reason)


@dataclass(frozen=True)
class Caller:
    """The table asked about and who asks: ``seat`` (``None``: a spectator), and the
    token it was sent with (``None``: none)."""

    live: LiveTable
    seat: int | None
    token: str | None


def hub_of(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


def token_of(credentials: HTTPAuthorizationCredentials | None) -> str | None:
    """The bearer token sent, if any (cut to ``TOKEN_CHARS``)."""
    if credentials is None or not credentials.credentials:
        return None
    return credentials.credentials[:TOKEN_CHARS]


def charge(request: Request, token: str | None) -> None:
    """Charge the request to its token's bucket (if the token has held a seat); 429
    past the rate. Every request was charged to its address already, whatever its
    route (``AddressCharge``, server/middleware.py)."""
    if not request.app.state.limits.allow_token(token_hash(token) if token else None):
        raise ApiError(429, "too many requests: slow down")


def new_solver_allowed(request: Request) -> bool:
    """May a puzzle solver id never seen before be rated, from this request's address?

    A solver is a random id its browser makes (no account), and only its first try of
    a puzzle is rated. Minting ids would give one person as many rated tries as they
    like: to push a puzzle's rating anywhere, and to add rows without end. Each address
    may start ``NEW_SOLVERS_PER_HOUR`` new solvers an hour (at once, too); past that a
    new id's tries are answered but not rated (``"rated": null``)."""
    host = request.client.host if request.client else None
    allowed: bool = request.app.state.new_solvers.allow(address_key(host))
    return allowed


def find_table(hub: Hub, table_id: str) -> LiveTable:
    live = hub.get(table_id[:64])
    if live is None:
        raise ApiError(404, f"there is no table {table_id[:40]!r}")
    return live


def seat_holding(state: Any, live: LiveTable, token: str) -> int | None:
    """The seat ``token`` holds at ``live`` (``None``: none). A token that holds a seat
    gets a rate-limit bucket of its own from now on (``state``: the app's state)."""
    digest = token_hash(token[:TOKEN_CHARS])
    seat = live.seat_for(digest)
    if seat is not None:
        state.limits.admit(digest)
    return seat


def check_watchable(state: Any, live: LiveTable) -> None:
    """Refuse (403) to show ``live`` to anyone but its players while it is sealed: a
    table of the daily deal, until its day ends (server/daily). ``state``: the app's."""
    reason = state.daily.sealed(live.id)
    if reason is not None:
        raise ApiError(403, reason)


def caller_of(request: Request, table_id: str, token: str | None) -> Caller:
    """The ``Caller`` for ``token`` at ``table_id`` (see the module's docstring)."""
    live = find_table(hub_of(request), table_id)
    if token is None:
        check_watchable(request.app.state, live)
        return Caller(live, None, None)
    seat = seat_holding(request.app.state, live, token)
    if seat is None:
        raise ApiError(403, "this token holds no seat at this table")
    return Caller(live, seat, token)


def watcher(table_id: str, request: Request, credentials: Credentials) -> Caller:
    """The dependency: charge the request, then find the table and the token's seat."""
    token = token_of(credentials)
    charge(request, token)
    return caller_of(request, table_id, token)


def seated(caller: Annotated[Caller, Depends(watcher)]) -> Caller:
    """``watcher``, for routes that only a seat's holder may use."""
    if caller.token is None:
        raise ApiError(403, "send your seat's token (Authorization: Bearer TOKEN)")
    return caller


#: a seat's holder or a spectator
Watcher = Annotated[Caller, Depends(watcher)]
#: a seat's holder only
Seated = Annotated[Caller, Depends(seated)]
