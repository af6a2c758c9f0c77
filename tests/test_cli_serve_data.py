"""``fourfold serve --data`` with a folder that cannot be used: one line saying which
folder, why, and what to do instead; exit status 2 and no traceback, as for every
other usage error. ``--data /proc`` used to say only "cannot write in the data
directory /proc: No such file or directory", of a folder that plainly exists. Each
case runs the real command in a process of its own."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ADVICE = "give --data a folder you can write in (for example --data ~/fourfold-data)"
SERVE = [sys.executable, "-c", "from fourfold.cli.main import main; raise SystemExit(main())",
         "serve", "--no-warm-up", "--port", "0"]


def _refusal(command: list[str]) -> str:
    """The one line ``command`` (a ``fourfold serve``) is refused with (exit status 2)."""
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, (done.returncode, done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and done.stdout == "", done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    return lines[0]


def _mounted_as(folder: str) -> str | None:
    """The type of the file system mounted at ``folder``, if one is."""
    try:
        mounts = Path("/proc/self/mounts").read_text().splitlines()
    except OSError:
        return None
    return next((f.split()[2] for f in mounts if f.split()[1:2] == [folder]), None)


@pytest.mark.parametrize(("folder", "kind"), [("/proc", "proc"), ("/sys", "sysfs")])
def test_a_folder_of_the_kernels_is_named_as_such(folder: str, kind: str) -> None:
    if _mounted_as(folder) != kind:
        pytest.skip(f"no {kind} file system at {folder} here")
    line = _refusal([*SERVE, "--data", folder])
    assert line.startswith(f"fourfold serve: --data {folder}: the data directory is on"
                           f" {folder}, a '{kind}' file system that the kernel makes up,"
                           " where no program can keep files of its own; " + ADVICE), line
    assert "or leave --data out to use " in line


def test_a_file_is_not_a_folder(tmp_path: Path) -> None:
    (tmp_path / "notes").write_text("")
    line = _refusal([*SERVE, "--data", str(tmp_path / "notes")])
    assert line.startswith(f"fourfold serve: --data {tmp_path}/notes: this is a file, and the"
                           " data directory is a folder"), line
    assert ADVICE in line
    line = _refusal([*SERVE, "--data", str(tmp_path / "notes" / "sub")])
    assert (f"--data {tmp_path}/notes/sub: the data directory cannot be made, as"
            f" {tmp_path}/notes is a file, not a folder; {ADVICE}") in line


def test_a_read_only_folder_says_so(tmp_path: Path) -> None:
    """As another user, a folder without write permission; as root (who may write in
    any folder), a read-only file system mounted in a mount namespace of its own."""
    folder = tmp_path / "kept"
    folder.mkdir()
    if os.geteuid() != 0:
        folder.chmod(0o555)
        try:
            line = _refusal([*SERVE, "--data", str(folder)])
        finally:
            folder.chmod(0o755)
        assert f"--data {folder}: you (user " in line
        assert "may not make files in the data directory" in line and ADVICE in line
        return
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare here (util-linux) to mount a read-only file system")
    probe = subprocess.run([unshare, "-m", "sh", "-c",
                            f"mount -t tmpfs -o ro tmpfs {folder}"],
                           capture_output=True, text=True, timeout=30)
    if probe.returncode != 0:
        pytest.skip(f"cannot mount a read-only file system here: {probe.stderr.strip()}")
    for data, what in ((folder, "the data directory"),
                       (folder / "new", "the data directory cannot be made: the folder"
                                        " above")):
        script = f'mount -t tmpfs -o ro tmpfs {folder} && exec "$@"'
        line = _refusal([unshare, "-m", "sh", "-c", script, "sh", *SERVE, "--data",
                         str(data)])
        assert line.startswith(f"fourfold serve: --data {data}: {what} is on a read-only"
                               f" file system (mounted read-only at {folder}), so no file"
                               f" can be made there; {ADVICE}"), line


def test_a_database_file_that_is_no_database(tmp_path: Path) -> None:
    (tmp_path / "folder" / "fourfold.sqlite3").mkdir(parents=True)
    line = _refusal([*SERVE, "--data", str(tmp_path / "folder")])
    assert f"cannot open the database {tmp_path}/folder/fourfold.sqlite3: " in line
    assert line.endswith("(it is a folder, not a file: move it away, or give another"
                         " --data folder (or --database file))"), line
    (tmp_path / "text").mkdir()
    (tmp_path / "text" / "fourfold.sqlite3").write_text("not a database " * 100)
    line = _refusal([*SERVE, "--data", str(tmp_path / "text")])
    assert f"cannot open the database {tmp_path}/text/fourfold.sqlite3: " in line
    assert line.endswith("(this file is not an SQLite database: move it away, or give"
                         " another --data folder (or --database file))"), line
