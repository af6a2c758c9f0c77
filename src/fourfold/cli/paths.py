"""Files and folders named on the command line, checked before any work starts.

A command that will write a file at the end of a long run (``analyze -o``, ``match
--records``) checks at the start that it can: a missing folder or a directory given as
a file is refused in one line before the first game is played. Reading goes through
``read_text`` so that a directory, a missing file or a binary file is one clear line,
never a traceback. Every message names the file and says why, in the user's terms.
"""

from __future__ import annotations

import os
from pathlib import Path

from fourfold.core.errors import FourfoldError


def _os_reason(error: OSError) -> str:
    return error.strerror or str(error)


def check_writable(path: Path, what: str) -> None:
    """Refuse now a file that could never be written: ``cannot write WHAT to PATH: WHY``."""

    def refuse(why: str) -> FourfoldError:
        return FourfoldError(f"cannot write {what} to {path}: {why}")

    if str(path).strip() == "":
        raise FourfoldError(f"cannot write {what}: the file name is empty")
    if path.is_dir():
        raise refuse("it is a directory")
    folder = path.parent
    if not folder.exists():
        raise refuse(f"the folder {folder} does not exist")
    if not folder.is_dir():
        raise refuse(f"{folder} is not a folder")
    if not os.access(path if path.exists() else folder, os.W_OK):
        raise refuse("permission denied")


def write_text(path: Path, text: str, what: str) -> None:
    """Write ``text`` (UTF-8); a failure (disk full, ...) is one line naming the file."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise FourfoldError(f"cannot write {what} to {path}: {_os_reason(error)}") from None


def check_readable(path: Path, what: str) -> None:
    """Refuse now a file that cannot be read: ``cannot read WHAT PATH: WHY``."""

    def refuse(why: str) -> FourfoldError:
        return FourfoldError(f"cannot read {what} {path}: {why}")

    if str(path).strip() == "":
        raise FourfoldError(f"cannot read {what}: the file name is empty")
    if path.is_dir():
        raise refuse("it is a directory")
    if not path.exists():
        raise refuse("no such file")
    if not os.access(path, os.R_OK):
        raise refuse("permission denied")


def read_text(path: Path, what: str) -> str:
    """The file's text (UTF-8), or one line saying why it cannot be read."""
    check_readable(path, what)
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise FourfoldError(f"cannot read {what} {path}: {_os_reason(error)}") from None
    except UnicodeDecodeError:
        raise FourfoldError(f"cannot read {what} {path}: it is not a text file"
                            " (not UTF-8)") from None


def check_folder(path: Path, what: str, *, create: bool) -> None:
    """A folder the command will write in: made when ``create`` and missing; a file of
    that name, or a folder that cannot be written, is refused in one line."""
    if str(path).strip() == "":
        raise FourfoldError(f"{what}: the folder name is empty")
    if path.exists() and not path.is_dir():
        raise FourfoldError(f"{what} {path} is a file, not a folder")
    if not path.exists():
        if not create:
            raise FourfoldError(f"{what} {path} does not exist")
        above = next((a for a in path.parents if a.exists()), None)
        if above is not None and not above.is_dir():
            raise FourfoldError(f"cannot make {what} {path}: {above} is a file, not a folder")
        try:
            path.mkdir(parents=True)
        except OSError as error:
            raise FourfoldError(f"cannot make {what} {path}: {_os_reason(error)}") from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise FourfoldError(f"cannot write in {what} {path}: permission denied")
