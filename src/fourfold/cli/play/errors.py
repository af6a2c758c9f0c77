"""The one error of the interactive player: a session that cannot start or go on."""

from __future__ import annotations

from fourfold.core.errors import FourfoldError


class PlayError(FourfoldError):
    """A record file that cannot be read or written, or a game the turn loop cannot run.

    ``what`` names the thing at fault (a path, a game) and ``reason`` says why.
    """

    def __init__(self, what: str, reason: str) -> None:
        self.what = what
        self.reason = reason
        super().__init__(f"{what}: {reason}")
