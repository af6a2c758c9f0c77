"""Table chat for two-player games between people (issue 31).

Who may chat: the two seats of a two-player game when both are held by people (no
chat with a bot, none in a cooperative or many-player game: Quatrefoil's rules limit
what the team may tell each other to the signal, so its page says there is no chat).
Who reads it: everyone at the table, seats and spectators alike. These games hide
nothing, so a line of chat is public at its table, like the moves; it goes over the
table's WebSocket as a ``{"type": "chat", ...}`` message to every connection, and
``GET /api/tables/{id}/chat`` gives the lines so far to a page that opens later.

A line is cleaned (control characters become spaces, runs of spaces one), at most
``MAX_CHAT_CHARS`` characters, and a seat sends at most ``RATE_LINES`` lines in
``RATE_SECONDS``: more is refused (429) with the wait. Lines are kept with the game
(``chat_lines``, migration 0006), at most ``MAX_LINES`` per table. The page writes
them as text, never as markup (static/chat.js), and may mute them (remembered).
"""

from fourfold.server.chat.service import Chat, chat_closed

__all__ = ["Chat", "chat_closed"]
