"""Reviews of finished two-player games on the server (issue 32; docs/review.md).

``jobs.Reviews`` starts a finished game's review in the bounded job pool when the game
ends (and again when it is asked for and was never stored), ``store`` keeps it with
the game, ``routes`` serves it (``GET /api/tables/{id}/review``) and the pictures of
the best line after a mistake. The replay page shows it (static/review.js).
"""

from fourfold.server.review.jobs import Reviews

__all__ = ["Reviews"]
