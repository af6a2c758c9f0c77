"""The wire format's version: raised on any change a version-1 reader would misread."""

from __future__ import annotations

from typing import Any

from fourfold.wire.errors import WireError, integer

WIRE_VERSION = 1


def check_version(value: Any, where: str) -> None:
    if integer(value, where) != WIRE_VERSION:
        raise WireError(f"this reader speaks wire version {WIRE_VERSION}, not {value}", where)
