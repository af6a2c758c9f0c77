"""Numeric options (and non-empty strings and paths), checked as argparse reads them.

``float("nan")`` and ``float("inf")`` parse, and ``nan`` compares false with every
bound, so a hand-written ``if value <= 0`` lets it through. Every numeric option of
every command is declared with one of these types instead: a finite number within its
range, or a one-line refusal naming the option before any work starts.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable
from pathlib import Path


def _bounds(least: float | None, most: float | None, above: float | None) -> str:
    parts = []
    if above is not None:
        parts.append(f"above {above:g}")
    if least is not None:
        parts.append(f"at least {least:g}")
    if most is not None:
        parts.append(f"at most {most:g}")
    return " and ".join(parts)


def real(*, least: float | None = None, most: float | None = None,
         above: float | None = None, unit: str = "") -> Callable[[str], float]:
    """A finite float within the bounds (``above``: strictly greater)."""
    bounds = _bounds(least, most, above)
    want = f"a finite number{' of ' + unit if unit else ''}{' ' + bounds if bounds else ''}"

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {want}, not {text!r}") from None
        if (not math.isfinite(value) or (least is not None and value < least)
                or (most is not None and value > most)
                or (above is not None and value <= above)):
            raise argparse.ArgumentTypeError(f"expected {want}, not {text!r}")
        return value

    parse.__name__ = "number"  # argparse names the type in some messages
    return parse


def seconds(*, zero: bool = False, most: float | None = None) -> Callable[[str], float]:
    """A finite number of seconds, positive (or also 0 when ``zero``, e.g. 'do not run')."""
    if zero:
        return real(least=0, most=most, unit="seconds")
    return real(above=0, most=most, unit="seconds")


def integer(*, least: int | None = None, most: int | None = None) -> Callable[[str], int]:
    """A whole number within the bounds."""
    bounds = _bounds(least, most, None)
    want = f"a whole number{' ' + bounds if bounds else ''}"

    def parse(text: str) -> int:
        try:
            value = int(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {want}, not {text!r}") from None
        if (least is not None and value < least) or (most is not None and value > most):
            raise argparse.ArgumentTypeError(f"expected {want}, not {text!r}")
        return value

    parse.__name__ = "whole number"
    return parse


def text(what: str) -> Callable[[str], str]:
    """A string option that may not be empty or blank (``--variant ''`` is a mistake, not
    'the default')."""

    def parse(value: str) -> str:
        if not value.strip():
            raise argparse.ArgumentTypeError(f"expected {what}, not an empty string")
        return value

    parse.__name__ = what
    return parse


def path(what: str) -> Callable[[str], Path]:
    """A file or folder name that is not empty (``Path('')`` would silently mean '.')."""

    def parse(value: str) -> Path:
        if not value.strip():
            raise argparse.ArgumentTypeError(f"expected {what}, not an empty string")
        return Path(value)

    parse.__name__ = what
    return parse


_SCHEMES = ("tcp://", "tls://", "ws://", "wss://", "inproc://", "ucx://")


def scheduler_address(value: str) -> str:
    """A Dask scheduler's address, ``[tcp://]HOST:PORT`` (a bracketed IPv6 host too):
    checked before any work, so that a typo is a one-line refusal, not a traceback from
    deep in the cluster client after the games were set up."""
    text = value.strip()
    rest = next((text[len(s):] for s in _SCHEMES if text.startswith(s)), text)
    host, colon, port = rest.rpartition(":")
    bracketed = host.startswith("[") and host.endswith("]") and len(host) > 2
    if bracketed:
        host = host[1:-1]
    if not text or not colon or not host or "/" in host or "[" in host or "]" in host \
            or (":" in host and not bracketed) or not port.isdigit() \
            or not 1 <= int(port) <= 65535:
        raise argparse.ArgumentTypeError(
            f"expected a scheduler address such as tcp://10.0.0.5:8786, not {value[:80]!r}")
    return text


def origin(value: str) -> str:
    """A web origin, ``http(s)://HOST[:PORT]`` (no path)."""
    text = value.strip().rstrip("/")
    scheme, sep, host = text.partition("://")
    if scheme not in ("http", "https") or not sep or not host or "/" in host or " " in host:
        raise argparse.ArgumentTypeError(
            f"expected an origin such as https://example.org, not {value[:80]!r}")
    return text


def host_name(value: str) -> str:
    """A Host name (``example.org``, ``192.168.1.5`` or ``[::1]``), without a port."""
    text = value.strip().lower()
    allowed = set("abcdefghijklmnopqrstuvwxyz0123456789.-_[]:")
    if not text or not set(text) <= allowed or (":" in text and not text.startswith("[")):
        raise argparse.ArgumentTypeError(
            f"expected a host name such as fourfold.example.org, not {value[:80]!r}")
    return text
