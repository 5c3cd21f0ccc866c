"""Hostile files beside the database: the review marks and the app's settings as a FIFO, a link to
/dev/zero, JSON nested 100,000 levels deep or numbers no program reads. Each is read only when it is a
regular file of a sane size; a bad one is set aside (``<name>.bad-<time>``) with a message, and is never
the reason nothing opens. The command line and the app run in children with a deadline, so that a
blocking open fails the test instead of hanging it."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from core.changes.marks import ReviewMarks, database_key
from tests.reliability import badfiles
from tests.reliability.helpers import REPO, child_env, python

posix_only = pytest.mark.skipif(os.name != "posix", reason="FIFOs and /dev/zero are POSIX")
DEEP = "[" * 100_000 + "]" * 100_000
DEADLINE_S = 120


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _zero(path: Path) -> None:
    os.symlink("/dev/zero", path)


def _deep(path: Path) -> None:
    path.write_text('{"version": 1, "databases": {"x": ' + DEEP + "}}")


def _huge_number(path: Path) -> None:
    path.write_text('{"version": 1, "databases": {"x": {"mark": 1e999999}}}')


BAD_FILES = {
    "fifo": _fifo,
    "link-to-dev-zero": _zero,
    "json-100000-deep": _deep,
    "number-1e999999": _huge_number,
}


@pytest.fixture(scope="module")
def database(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("side-files") / "memory.sqlite"
    badfiles.base(path)
    return path


def _run(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [python(), *args], capture_output=True, text=True, timeout=DEADLINE_S, env=child_env(**env), cwd=REPO
    )


def _set_aside(folder: Path, name: str) -> list[Path]:
    return [p for p in folder.iterdir() if p.name.startswith(f"{name}.bad-")]


@posix_only
@pytest.mark.parametrize("kind", list(BAD_FILES))
def test_changes_runs_and_sets_a_bad_review_marks_file_aside(kind, database, tmp_path):
    marks = tmp_path / "review-marks.json"
    BAD_FILES[kind](marks)
    proc = _run(["-m", "core", "--db", str(database), "--json", "changes"], PHILONT_REVIEW_MARKS=str(marks))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["baseline"]["kind"] == "time"  # no mark: the last 7 days
    assert "Traceback" not in proc.stderr
    assert "warning: " in proc.stderr and "was set aside as review-marks.json.bad-" in proc.stderr
    assert not os.path.lexists(marks) and len(_set_aside(tmp_path, "review-marks.json")) == 1
    if kind == "link-to-dev-zero":  # the link was moved, not what it leads to
        assert _set_aside(tmp_path, "review-marks.json")[0].is_symlink()


@pytest.mark.parametrize("kind", ["json-100000-deep", "number-1e999999"])
def test_mark_all_reviewed_repairs_a_bad_marks_file(kind, database, tmp_path):
    marks = tmp_path / "review-marks.json"
    BAD_FILES[kind](marks)
    store = ReviewMarks(marks)
    assert store.get(database).at is None
    store.mark_all(database, 1000, now=2000)
    assert store.get(database).at == 1000
    assert json.loads(marks.read_text())["databases"][database_key(database)]["mark"] == 1000


def test_times_no_date_holds_in_the_marks_read_as_no_mark(database, tmp_path):
    """Valid JSON whose times are integers beyond any date (they overflowed SQLite's integers)."""
    marks = tmp_path / "review-marks.json"
    key = database_key(database)
    marks.write_text(json.dumps({"version": 1, "databases": {key: {"mark": 10**20, "markedAt": -(10**30),
                                                                   "reviewed": {"a": 10**40, "b": 5}}}}))  # fmt: skip
    mark = ReviewMarks(marks).get(database)
    assert (mark.at, mark.marked_at, mark.reviewed) == (None, None, {"b": 5})
    proc = _run(["-m", "core", "--db", str(database), "--json", "changes"], PHILONT_REVIEW_MARKS=str(marks))
    assert proc.returncode == 0 and "Traceback" not in proc.stderr, proc.stderr
    assert marks.exists()  # the other entries of the file are kept


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "link-to-dev-zero", "json-100000-deep"])
def test_the_app_opens_the_database_with_a_bad_marks_file(kind, database, tmp_path):
    marks = tmp_path / "review-marks.json"
    BAD_FILES[kind](marks)
    settings = tmp_path / "settings"
    proc = _run(
        ["-m", "philont_desktop", "--db", str(database), "--self-test"],
        PHILONT_REVIEW_MARKS=str(marks),
        PHILONT_DESKTOP_SETTINGS_DIR=str(settings),
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert "Traceback" not in proc.stderr
    assert len(_set_aside(tmp_path, "review-marks.json")) == 1


@posix_only
@pytest.mark.parametrize("kind", ["fifo", "link-to-dev-zero", "deep-recent-files"])
def test_the_app_starts_with_a_bad_settings_file(kind, database, tmp_path):
    settings = tmp_path / "settings"
    settings.mkdir()
    ini = settings / "philont-desktop.ini"
    if kind == "deep-recent-files":  # a file that can be read, with a value of the wrong shape
        ini.write_text(f'[files]\nrecent="{DEEP}"\n[appearance]\ntheme=dark\n')
    else:
        BAD_FILES[kind](ini)
    proc = _run(
        ["-m", "philont_desktop", "--db", str(database), "--self-test"],
        PHILONT_REVIEW_MARKS=str(tmp_path / "marks.json"),
        PHILONT_DESKTOP_SETTINGS_DIR=str(settings),
    )
    assert proc.returncode == 0, (proc.stdout + proc.stderr)[-3000:]
    assert "Traceback" not in proc.stderr
    if kind == "deep-recent-files":
        assert ini.read_text().count(DEEP) == 1  # read, not set aside: only the bad value is ignored
    else:
        assert len(_set_aside(settings, "philont-desktop.ini")) == 1
