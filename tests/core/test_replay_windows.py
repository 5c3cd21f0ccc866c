"""core.replay.windows: the window counts of the substring step kept beside the saved replay, used by the
next update while sound, dropped once too many rows were written after them, a cache never trusted blindly."""

from __future__ import annotations

import json
from collections import OrderedDict

import pytest

from core.db import MemoryDB
from core.replay import ReplayOptions, replay
from core.replay import windows as windows_module
from core.replay.store import ReplayStore
from core.replay.windows import WindowCounts
from tests.core.test_replay import T0, plant
from tests.core.test_replay_store import MIN, _append, _full, _update


@pytest.fixture
def planted(tmp_path):
    path = tmp_path / "memory.sqlite"
    plant(path)
    return path


def _entries(store, path) -> dict[str, list[int]]:
    data = json.loads(store.windows_path(path).read_text(encoding="utf-8"))
    assert data["version"] == 1
    return {w: [n, top] for w, n, top in data["windows"]}


def _top(path) -> int:
    db = MemoryDB.open(path)
    try:
        return db.conn.execute("SELECT max(id) FROM memory_raw_messages").fetchone()[0]
    finally:
        db.close()


def test_the_next_update_uses_the_kept_counts_and_gives_what_a_full_replay_gives(planted, tmp_path):
    store = ReplayStore(tmp_path / "replays")
    _update(store, planted)
    first_top = _top(planted)
    kept = _entries(store, planted)
    assert kept and {top for _n, top in kept.values()} == {first_top}
    # New turns whose texts take the substring step with windows counted before and one new word.
    _append(
        planted,
        [
            ("user", "Zephyrine Quillfeather again?"),
            ("assistant", "Yes."),
            ("user", "Quillfeather, Oxbridgeworth?"),
        ],
        T0 + 10_000 * MIN,
    )
    later, _replayed = _update(store, planted)
    assert later.how == "extended" and later.replayed == 2
    assert store.load(planted).replay.to_json() == _full(planted).to_json()
    after = _entries(store, planted)
    reused = {w for w, (n, top) in after.items() if top == first_top}
    counted = {w for w, (_n, top) in after.items() if top == _top(planted)}
    assert reused and all(after[w] == kept[w] for w in reused)  # used as kept, not counted again
    assert "oxb" in counted and "oxb" not in kept  # a new window is counted, with the top of its update


def test_a_count_is_dropped_once_too_many_rows_were_written_after_it(planted, monkeypatch):
    monkeypatch.setattr(windows_module, "ADDED_AT_MOST", 3)
    top = _top(planted)
    counts = WindowCounts(OrderedDict([("old", (5, top - 3)), ("new", (7, top - 2)), ("now", (9, top))]))
    db = MemoryDB.open(planted)
    try:
        assert counts.usable(db) == {"new": 7, "now": 9}  # 3 rows after ``old``'s top: dropped
    finally:
        db.close()
    _append(planted, [("user", "one"), ("user", "two"), ("user", "three")], T0 + 10_000 * MIN)
    db = MemoryDB.open(planted)
    try:
        assert counts.usable(db) == {}
    finally:
        db.close()


@pytest.mark.parametrize(
    "content",
    [
        b"not json",
        b'{"version": 2, "windows": []}',
        b'{"version": 1, "windows": [["abc", -1, 3], ["abd", 1]]}',
    ],
)
def test_an_unreadable_counts_file_is_ignored_and_replaced(planted, tmp_path, content):
    store = ReplayStore(tmp_path / "replays")
    _update(store, planted)
    store.windows_path(planted).write_bytes(content)
    _append(planted, [("user", "Zephyrine Quillfeather again?")], T0 + 10_000 * MIN)
    later, _replayed = _update(store, planted)
    assert later.how == "extended" and store.load(planted).replay.to_json() == _full(planted).to_json()
    assert {top for _n, top in _entries(store, planted).values()} == {_top(planted)}


def test_forgetting_a_saved_replay_removes_its_counts(planted, tmp_path):
    store = ReplayStore(tmp_path / "replays")
    _update(store, planted)
    assert store.windows_path(planted).exists()
    store.forget(planted)
    assert not store.windows_path(planted).exists()


def test_the_needs_frequent_terms_are_kept_and_used_only_under_the_same_cap(planted, tmp_path):
    store = ReplayStore(tmp_path / "replays")
    _update(store, planted)
    data = json.loads(store.windows_path(planted).read_text(encoding="utf-8"))
    assert data["frequent"]["cap"] == 10 and {"routine", "weather", "build"} <= set(data["frequent"]["terms"])
    assert "zephyrine" not in data["frequent"]["terms"]  # rare: looked up at every turn

    def terms_of_last_turn(windows):
        db = MemoryDB.open(planted)
        try:
            turns = replay(db, ReplayOptions(limit=1), windows=windows).turns
        finally:
            db.close()
        return turns[-1].terms

    plain = terms_of_last_turn(None)
    assert plain  # the last turn (a correction) has rare terms
    rare = plain[0]
    # A term given as frequent is not looked up: proof that the kept set is used ...
    assert rare not in terms_of_last_turn(WindowCounts(frequent=(10, {rare})))
    # ... but only when it was made under the same cap (another --max-df: not used).
    assert terms_of_last_turn(WindowCounts(frequent=(4, {rare}))) == plain
