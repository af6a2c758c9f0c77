"""An append-only journal of finished tasks (JSON lines), so a stopped job resumes.

The first line names the job (``{"job": {...}}``); every later line is one finished
task, ``{"key": KEY, "result": RESULT}``, written and flushed to disk as soon as the
task's result arrives. Opening a journal reads what is already there: a job run
again with the same journal skips every task it finds. A journal written by another
job (another game, position or question) is refused rather than mixed in. A last
line cut short by a crash is ignored (that task simply runs again).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from fourfold.core.errors import FourfoldError


class JournalError(FourfoldError):
    """A journal cannot be used: unreadable, not a journal, or another job's."""


class Journal:
    """The finished tasks of one job, read from and appended to a JSON-lines file."""

    def __init__(self, path: str | Path, job: dict[str, Any]) -> None:
        self.path = Path(path)
        self.job = json.loads(json.dumps(job))  # as it reads back from the file
        self.results: dict[str, Any] = {}
        if self.path.exists():
            self._read()
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self.path.write_text(json.dumps({"job": self.job}) + "\n", encoding="utf-8")
            except OSError as exc:
                raise JournalError(f"cannot write the journal {self.path}:"
                                   f" {exc.strerror or exc}") from None

    def _read(self) -> None:
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
        except OSError as exc:
            raise JournalError(f"cannot read the journal {self.path}:"
                               f" {exc.strerror or exc}") from None
        if not lines:
            raise JournalError(f"{self.path} is empty, not a journal")
        try:
            head = json.loads(lines[0])
        except ValueError:
            head = None
        if not isinstance(head, dict) or "job" not in head:
            raise JournalError(f"{self.path} is not a journal (its first line names no job)")
        if head["job"] != self.job:
            raise JournalError(f"{self.path} is the journal of another job: {head['job']}"
                               f" (this job: {self.job})")
        for number, line in enumerate(lines[1:], start=2):
            try:
                entry = json.loads(line)
            except ValueError:
                if number == len(lines):
                    self._drop_last_line(lines)  # cut short by a crash: that task runs again
                    return
                raise JournalError(f"{self.path}, line {number}: not JSON") from None
            if not isinstance(entry, dict) or "key" not in entry or "result" not in entry:
                raise JournalError(f"{self.path}, line {number}: not a finished task")
            self.results[str(entry["key"])] = entry["result"]
        if not self.path.read_bytes().endswith(b"\n"):
            self._drop_last_line([*lines, ""])

    def _drop_last_line(self, lines: list[str]) -> None:
        """Rewrite the file without its last line (half-written when a run was killed)."""
        text = "".join(line + "\n" for line in lines[:-1])
        temporary = self.path.with_name(self.path.name + ".partial")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, self.path)

    def __contains__(self, key: str) -> bool:
        return key in self.results

    def get(self, key: str) -> Any:
        return self.results.get(key)

    def record(self, key: str, result: Any) -> Any:
        """Append one finished task (flushed and synced); return the result as it reads back."""
        line = json.dumps({"key": key, "result": result})
        with self.path.open("a", encoding="utf-8") as f:
            f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())
        stored = json.loads(line)["result"]
        self.results[key] = stored
        return stored
