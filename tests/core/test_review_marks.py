"""Review marks: kept per database outside its file, keyed by the real path, written atomically."""

from __future__ import annotations

import json
import stat
import sys

import pytest

from core.changes.marks import ENV_VAR, ReviewMarks, database_key, default_marks_path


def test_marks_are_per_database_and_by_real_path(tmp_path):
    store = ReviewMarks(tmp_path / "marks" / "review-marks.json")
    a, b = tmp_path / "a.sqlite", tmp_path / "b.sqlite"
    a.write_bytes(b"x")
    link = tmp_path / "link.sqlite"
    link.symlink_to(a)
    assert store.get(a).at is None
    store.mark_all(link, 1000, now=2000)
    assert (store.get(a).at, store.get(a).marked_at) == (1000, 2000)
    assert store.get(b).at is None
    assert store.databases() == [database_key(a)]
    assert a.read_bytes() == b"x"  # the database file is never touched


def test_items_reviewed_until_the_next_mark(tmp_path):
    store = ReviewMarks(tmp_path / "m.json")
    db = tmp_path / "db.sqlite"
    store.mark_all(db, 1000)
    store.mark_items(db, ["fact.new:1", "skill.new:2"], now=1500)
    mark = store.get(db)
    assert mark.is_reviewed("fact.new:1") and mark.reviewed["skill.new:2"] == 1500 and mark.at == 1000
    store.unmark_items(db, ["skill.new:2"])
    assert list(store.get(db).reviewed) == ["fact.new:1"]
    store.mark_all(db, 3000)
    assert store.get(db).reviewed == {} and store.get(db).at == 3000
    store.forget(db)
    assert store.get(db).at is None


def test_file_is_private_and_a_damaged_file_is_set_aside(tmp_path):
    path = tmp_path / "marks" / "review-marks.json"
    store = ReviewMarks(path)
    store.mark_all(tmp_path / "db.sqlite", 5)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert json.loads(path.read_text())["version"] == 1
    path.write_text("{not json")
    assert store.get(tmp_path / "db.sqlite").at is None
    store.mark_all(tmp_path / "db.sqlite", 7)
    assert store.get(tmp_path / "db.sqlite").at == 7
    assert [p.name.startswith("review-marks.json.bad-") for p in path.parent.iterdir()].count(True) == 1
    assert not [p for p in path.parent.iterdir() if p.name.endswith(".tmp")]


def test_default_location_env_override(monkeypatch, tmp_path):
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "x.json"))
    assert default_marks_path() == tmp_path / "x.json"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the XDG data directory is Linux's")
def test_default_location_is_the_xdg_data_directory(monkeypatch, tmp_path):
    monkeypatch.delenv(ENV_VAR, raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_marks_path() == tmp_path / "data" / "Philont" / "philont-desktop" / "review-marks.json"


def test_mark_all_keeps_the_previous_mark_and_restore_puts_it_back(tmp_path):
    store = ReviewMarks(tmp_path / "m.json")
    db = tmp_path / "db.sqlite"
    previous, new = store.mark_all_keeping(db, 1000, now=1100)
    assert previous.at is None and new.at == 1000
    store.restore(db, previous)
    assert store.get(db).at is None  # never reviewed again
    store.mark_all(db, 2000, now=2100)
    store.mark_items(db, ["fact.new:1"], now=2500)
    previous, new = store.mark_all_keeping(db, 3000, now=3100)
    assert (previous.at, previous.marked_at, previous.reviewed) == (2000, 2100, {"fact.new:1": 2500})
    assert store.get(db).reviewed == {}
    store.mark_items(db, ["fact.new:9"], now=3500)  # reviewed after the mark: stays reviewed
    store.restore(db, previous)
    got = store.get(db)
    assert (got.at, got.marked_at) == (2000, 2100)
    assert got.reviewed == {"fact.new:1": 2500, "fact.new:9": 3500}
