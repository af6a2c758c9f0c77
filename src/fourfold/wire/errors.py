"""The one error of the wire format, and the strict readers every decoder shares.

A decoder never lets anything but ``WireError`` escape on junk: each reader below
checks one field's JSON type and says *what* was wrong, *where* (the field's path in
the message) and *why*.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from fourfold.core.errors import FourfoldError

#: A JSON object as Python reads it: only dict/list/str/int/float/bool/None inside.
JsonDict = dict[str, Any]


class WireError(FourfoldError):
    """A message or document that is not valid wire JSON.

    ``where`` is the path of the faulty part (``version``, ``view.board.cells[3]``), or
    ``None`` for the message as a whole; ``reason`` says what is wrong with it.
    """

    def __init__(self, reason: str, where: str | None = None) -> None:
        self.reason = reason
        self.where = where
        at = f" at {where}" if where else ""
        super().__init__(f"bad wire message{at}: {reason}")


def join(where: str | None, key: str | int) -> str:
    """The path of ``key`` inside ``where`` (``view.board`` + ``cells`` + 3)."""
    if isinstance(key, int):
        return f"{where or ''}[{key}]"
    return f"{where}.{key}" if where else key


#: Python types and their JSON names, most specific first (a bool is an int too)
_JSON_TYPES: tuple[tuple[type, str], ...] = (
    (type(None), "null"), (bool, "a boolean"), (int, "an integer"), (float, "a number"),
    (str, "a string"), (list, "an array"), (dict, "an object"),
)


def json_type(value: Any) -> str:
    """The JSON name of a Python value's type, for messages (a bool is not a number)."""
    for kind, name in _JSON_TYPES:
        if isinstance(value, kind):
            return name
    return f"not JSON ({type(value).__name__})"


def obj(value: Any, where: str | None) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        raise WireError(f"expected an object, got {json_type(value)}", where)
    for key in value:
        if not isinstance(key, str):
            raise WireError(f"object keys must be strings, got {json_type(key)}", where)
    return value


def exact_keys(value: Mapping[str, Any], required: tuple[str, ...], where: str | None,
               optional: tuple[str, ...] = ()) -> None:
    """Refuse missing and unknown fields, naming them."""
    missing = [k for k in required if k not in value]
    if missing:
        raise WireError(f"missing field(s) {', '.join(repr(k) for k in missing)}", where)
    allowed = set(required) | set(optional)
    extra = sorted(k for k in value if k not in allowed)
    if extra:
        shown = ", ".join(repr(k[:40]) for k in extra[:5])
        raise WireError(f"unknown field(s) {shown}; allowed: {', '.join(sorted(allowed))}",
                        where)


def string(value: Any, where: str, max_len: int | None = None) -> str:
    if not isinstance(value, str):
        raise WireError(f"expected a string, got {json_type(value)}", where)
    if max_len is not None and len(value) > max_len:
        raise WireError(f"too long: {len(value)} characters, at most {max_len}", where)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise WireError("not valid Unicode (a lone surrogate)", where) from None
    return value


def opt_string(value: Any, where: str) -> str | None:
    return None if value is None else string(value, where)


def integer(value: Any, where: str, low: int | None = None, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise WireError(f"expected an integer, got {json_type(value)}", where)
    if low is not None and value < low:
        raise WireError(f"must be at least {low}, got {value}", where)
    if high is not None and value > high:
        raise WireError(f"must be at most {high}, got {value}", where)
    return value


def opt_integer(value: Any, where: str, low: int | None = None,
                high: int | None = None) -> int | None:
    return None if value is None else integer(value, where, low, high)


def number(value: Any, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise WireError(f"expected a number, got {json_type(value)}", where)
    if not math.isfinite(value):
        raise WireError(f"expected a finite number, got {value!r}", where)
    return float(value)


def boolean(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise WireError(f"expected true or false, got {json_type(value)}", where)
    return value


def array(value: Any, where: str, max_len: int | None = None) -> list[Any]:
    if not isinstance(value, list):
        raise WireError(f"expected an array, got {json_type(value)}", where)
    if max_len is not None and len(value) > max_len:
        raise WireError(f"too long: {len(value)} items, at most {max_len}", where)
    return value


def one_of(value: Any, choices: tuple[str, ...], where: str) -> str:
    text = string(value, where, 64)
    if text not in choices:
        raise WireError(f"{text!r} is not one of {', '.join(choices)}", where)
    return text
