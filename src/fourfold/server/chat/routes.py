"""``GET /api/tables/{id}/chat``: a table's chat so far (seats and spectators alike)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from fourfold.server.access import Watcher
from fourfold.server.chat.service import Chat

router = APIRouter(prefix="/api")


@router.get("/tables/{table_id}/chat", summary="The table's chat so far, and whether it has one")
def get_chat(table_id: str, caller: Watcher, request: Request) -> dict[str, Any]:
    chat: Chat = request.app.state.chat
    return chat.history(caller.live)
