"""Bad places: a backups folder that cannot be written, loops of symbolic links, backups named for a
later date. Every message names the real cause (never "probably the agent", a temporary file's name or
SQLite's "File exists"), with one period at the end of each sentence, and nothing is changed."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from core import cli
from core.db import MemoryDB
from core.errors import MemoryError_
from tests.reliability import badfiles
from tests.reliability.helpers import REPO, child_env, fingerprint, python

DOUBLE_PERIOD = re.compile(r"(?<!\.)\.\.(?!\.)")


def _cli(capsys, *args: str) -> tuple[int, str, str]:
    rc = cli.main(list(args))
    out, err = capsys.readouterr()
    return rc, out, err


def _read_only_folder_child(*args: str) -> list[str]:
    """The command prefix that runs a child where a 0555 folder cannot be written: as root, without the
    capabilities that bypass permission bits (skips where they cannot be dropped)."""
    if os.geteuid() != 0:
        return []
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root, where a read-only folder can be written, and setpriv is missing")
    prefix = [setpriv, "--bounding-set=-dac_override,-dac_read_search", "--"]
    probe = Path(args[0]) / "probe"
    proc = subprocess.run(
        [*prefix, python(), "-c", f"open({str(probe)!r}, 'w')"], capture_output=True, timeout=60
    )
    if proc.returncode == 0:
        probe.unlink()
        pytest.skip("cannot drop the capabilities that bypass file permissions here")
    return prefix


def _run_child(prefix: list[str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*prefix, python(), "-m", "core", *args],
        capture_output=True,
        text=True,
        timeout=180,
        cwd=REPO,
        env=child_env(),
    )


@pytest.fixture
def base_db(tmp_path) -> Path:
    path = tmp_path / "memory" / "memory.sqlite"
    path.parent.mkdir(mode=0o700)
    badfiles.base(path)
    return path


def test_a_read_only_backups_folder_is_named_when_backing_up_and_restoring(base_db, tmp_path):
    backups = base_db.parent / "backups"
    backups.mkdir()
    with MemoryDB.open(base_db, writable=True) as db:
        good = db.backup()
    outside = tmp_path / "good.sqlite"
    shutil.copy2(good, outside)
    os.chmod(backups, 0o555)
    try:
        prefix = _read_only_folder_child(str(backups))
        proc = _run_child(prefix, "--db", str(base_db), "backup")
        assert proc.returncode == 1, proc.stderr
        assert proc.stderr.startswith(
            f"philont-memory: error: The backups folder {backups} cannot be written"
        )
        assert "partial" not in proc.stderr and "Permission denied" not in proc.stderr
        # Restoring over a damaged file: the damaged file cannot be moved into backups/; the agent is not
        # blamed (exit status 1, not 3) and nothing was changed.
        base_db.write_bytes(b"this is not a database any more")
        for side in ("-wal", "-shm"):
            Path(str(base_db) + side).unlink(missing_ok=True)
        before = fingerprint(base_db)
        proc = _run_child(prefix, "--db", str(base_db), "restore", "--yes", str(outside))
        assert proc.returncode == 1, proc.stderr
        assert f"The backups folder {backups} cannot be written" in proc.stderr
        assert "agent" not in proc.stderr
        assert fingerprint(base_db) == before
        assert sorted(p.name for p in backups.iterdir()) == [good.name]
    finally:
        os.chmod(backups, 0o755)


def test_a_backups_folder_that_is_a_loop_of_links_is_named(base_db, capsys):
    backups = base_db.parent / "backups"
    os.symlink(backups.name, backups)  # a link to itself
    rc, _out, err = _cli(capsys, "--db", str(base_db), "backup")
    assert rc == 1
    assert err == (
        f"philont-memory: error: The backups folder {backups} is a symbolic link loop (a link that leads "
        "back to itself), so nothing can be kept there. Nothing was changed.\n"
    )
    with MemoryDB.open(base_db, writable=True) as db, pytest.raises(MemoryError_) as exc:
        db.backup()
    assert (exc.value.code, exc.value.params) == ("backup.folder_symlink_loop", {"path": str(backups)})
    os.unlink(backups)
    backups.write_text("a file where the folder should be")
    rc, _out, err = _cli(capsys, "--db", str(base_db), "backup")
    assert rc == 1 and "is not a folder (this path names a file)" in err


def test_a_database_path_that_is_a_loop_of_links_is_named_on_the_start_page(tmp_path, capfd):
    from philont_desktop import app as app_mod

    loop = tmp_path / "memory.sqlite"
    os.symlink(loop.name, loop)
    rc, _out, err = _cli_capfd(capfd, "--db", str(loop), "info")
    assert rc == 1 and "loop of symbolic links" in err
    code = app_mod.main(["--db", str(loop), "--self-test"])
    out, _err = capfd.readouterr()
    assert code == 1
    report = [ln for ln in out.splitlines() if ln.startswith("database: ")]
    assert report == [
        f"database: {loop}: This path names a loop of symbolic links (a link that leads back to "
        "itself), not a file."
    ], out
    assert "No memory database exists" not in out


def _cli_capfd(capfd, *args: str) -> tuple[int, str, str]:
    rc = cli.main(list(args))
    out, err = capfd.readouterr()
    return rc, out, err


@pytest.mark.parametrize("bad", ["zero_byte", "truncated", "text_file"])
def test_restoring_a_bad_backup_says_why_in_one_sentence(base_db, tmp_path, capsys, bad):
    backup = tmp_path / f"{bad}.sqlite"
    getattr(badfiles, bad)(backup)
    rc, _out, err = _cli(capsys, "--db", str(base_db), "restore", "--yes", str(backup))
    assert rc == 1 and "cannot be restored" in err
    assert not DOUBLE_PERIOD.search(err), err


def test_the_quick_check_hint_only_after_a_search_of_backups(base_db, capsys):
    base_db.write_text("hello")
    rc, _out, err = _cli(capsys, "--db", str(base_db), "info")
    assert rc == 1 and "not an SQLite database" in err
    assert "passes quick_check" not in err  # there are no backups: nothing was searched
    backups = base_db.parent / "backups"
    backups.mkdir()
    (backups / "memory-20260101T000000.sqlite").write_text("not a database either")
    rc, _out, err = _cli(capsys, "--db", str(base_db), "info")
    assert rc == 1 and "No backup that passes quick_check was found in backups/." in err


def test_a_backup_named_for_a_later_date_is_in_the_future(base_db, capsys):
    backups = base_db.parent / "backups"
    backups.mkdir()
    with MemoryDB.open(base_db, writable=True) as db:
        made = db.backup()
    later = made.with_name("memory-20990101T000000.sqlite")
    os.replace(made, later)
    rc, out, _err = _cli(capsys, "--db", str(base_db), "--now", str(badfiles.NOW), "backups")
    assert rc == 0
    line = next(ln for ln in out.splitlines() if ln.startswith(later.name))
    assert "in the future" in line and "just now" not in line
