"""core.replay.saved and core.replay.store: a replay read back from its JSON, kept outside the database
keyed to the file, and extended with the user turns written since (only those replayed)."""

from __future__ import annotations

import json
import os
import shutil

import pytest

from core import sidefiles
from core.db import MemoryDB
from core.replay import NeedRule, ReplayOptions, replay
from core.replay.saved import SavedReplayError, replay_from_json
from core.replay.store import ENV_VAR, ReplayStore, default_store_dir
from core.replay.turn import ReplayCancelledError
from core.timeline import RawStore
from tests.core.test_replay import MIN, T0, plant
from tests.reliability.helpers import fingerprint


@pytest.fixture
def planted(tmp_path):
    path = tmp_path / "memory.sqlite"
    plant(path)
    return path


def _full(path, **kw):
    db = MemoryDB.open(path)
    try:
        return replay(db, ReplayOptions(**kw))
    finally:
        db.close()


def _update(store, path, given=None, **kw):
    """``store.update`` on a fresh read-only connection; the turns replayed, counted by progress (the
    turns it reported done: a report of none done yet, at the start, counts none); ``given``: a list the
    turns handed on are added to."""
    seen: set[int] = set()
    db = MemoryDB.open(path)
    try:
        done = store.update(
            db,
            path,
            kw.pop("options", None),
            progress=lambda d, t: seen.add(d),
            on_turn=None if given is None else given.append,
        )
    finally:
        db.close()
    return done, len(seen - {0})


def _append(path, rows, start):
    db = MemoryDB.open(path, writable=True)
    try:
        raw = RawStore(db)
        return [
            raw.append_message("global", role, text, start + k * MIN) for k, (role, text) in enumerate(rows)
        ]
    finally:
        db.close()


def test_a_replay_read_back_from_its_json_gives_the_same_json(planted, tmp_path):
    result = _full(planted)
    assert any(t.hit is False for t in result.turns) and any(t.hit for t in result.turns)
    again = replay_from_json(result.to_json(), history=result.history)
    assert again.to_json() == result.to_json()
    assert again.misses()[0].message.id == result.misses()[0].message.id

    store = ReplayStore(tmp_path / "replays")
    store.save(planted, result, ReplayOptions())
    saved = store.load(planted)
    assert saved is not None and saved.replay.to_json() == result.to_json()
    assert saved.last_id == max(t.message.id for t in result.turns)
    assert saved.replay.history == result.history and saved.count == len(result.turns)
    header = json.loads(store.path(planted).read_text(encoding="utf-8"))
    lines = store.turns_path(planted).read_text(encoding="utf-8").splitlines()
    assert header["summary"] == result.summary() and header["turns"] == len(lines)
    assert [json.loads(line) for line in lines] == result.to_json()["turns"]
    assert [t.to_json() for t in store.turns(planted)] == result.to_json()["turns"]


def test_an_older_file_without_the_newer_members_still_reads(planted):
    data = _full(planted).to_json()
    for t in data["turns"]:
        for member in ("recency", "path", "terms", "correction", "damaged", "relearned"):
            t.pop(member)
    again = replay_from_json(data)
    assert [t.needed for t in again.turns] == [t["needed"] for t in data["turns"]]
    assert all(t.recency == [] and t.path == "" for t in again.turns)
    data["turns"][0]["hit"] = "yes"
    with pytest.raises(SavedReplayError):
        replay_from_json(data)


def test_an_update_after_new_messages_replays_only_the_new_turns(planted, tmp_path):
    store = ReplayStore(tmp_path / "replays")
    given: list = []
    first, replayed = _update(store, planted, given)
    turns = len(given)
    assert (first.how, replayed, first.replayed, first.saved.count) == (
        "new",
        turns,
        turns,
        turns,
    ) and turns > 100
    assert first.saved.replay is None and store.load(planted).replay.to_json() == _full(planted).to_json()

    again, replayed = _update(store, planted)
    assert (again.how, again.replayed, replayed) == ("extended", 0, 0)

    _append(
        planted,
        [("user", "Zephyrine Quillfeather again"), ("assistant", "Yes."), ("user", "what about 欧阳震华")],
        T0 + 10_000 * MIN,
    )
    before = fingerprint(planted)
    given = []
    later, replayed = _update(store, planted, given)
    assert fingerprint(planted) == before  # the update only reads the database
    assert (later.how, later.replayed, replayed) == ("extended", 2, 2)
    assert later.saved.count == turns + 2
    # Extending gives what a replay of every turn gives, the summary added up included.
    full = _full(planted)
    assert store.load(planted).replay.to_json() == full.to_json()
    assert later.saved.summary == full.summary() and [t.message.id for t in given] == [
        t.message.id for t in full.turns[-2:]
    ]


def test_lines_appended_after_the_last_saved_header_are_cut_off(planted, tmp_path):
    """A run stopped between appending turns and writing the header leaves the previous result."""
    store = ReplayStore(tmp_path / "replays")
    _update(store, planted)
    before = store.load(planted).replay.to_json()
    with open(store.turns_path(planted), "ab") as fh:
        fh.write(b'{"messageId": 99999, "timestam')
    assert store.load(planted).replay.to_json() == before
    _append(planted, [("user", "Quillfeather again")], T0 + 10_000 * MIN)
    done, replayed = _update(store, planted)
    assert (done.how, replayed) == ("extended", 1)
    assert store.load(planted).replay.to_json() == _full(planted).to_json()


def test_other_options_are_recomputed_not_extended(planted, tmp_path):
    store = ReplayStore(tmp_path / "replays")
    _update(store, planted)
    done, replayed = _update(store, planted, options=ReplayOptions(rule=NeedRule(max_df=2)))
    assert (done.how, done.reason) == ("recomputed", "options")
    assert replayed == len(store.load(planted).replay.turns) and done.saved.options.rule.max_df == 2


def test_a_damaged_store_file_is_set_aside_reported_and_recomputed(planted, tmp_path):
    store = ReplayStore(tmp_path / "replays")
    _update(store, planted)
    turns = store.turns_path(planted)
    lines = turns.read_text(encoding="utf-8").splitlines(keepends=True)
    data = json.loads(lines[3])
    data["messageId"] = "three"
    lines[3] = json.dumps(data) + "\n"
    turns.write_text("".join(lines), encoding="utf-8")
    notices = []
    with sidefiles.reporting(notices.append):
        assert store.load(planted) is None
    assert {n.params["reason"] for n in notices} == {"sidefile.why.wrong_shape"} and len(notices) == 2
    assert not turns.exists() and list(turns.parent.glob(turns.name + ".bad-*"))
    assert not store.path(planted).exists()

    done, replayed = _update(store, planted)
    assert done.how == "new" and replayed == done.saved.count
    store.path(planted).write_bytes(b"\x00{not json")
    with sidefiles.reporting(notices.append):
        assert store.header(planted) is None
    assert notices[-2].params["reason"] == "sidefile.why.invalid_json"
    done, replayed = _update(store, planted)
    assert done.how == "new" and store.load(planted) is not None

    turns.write_bytes(turns.read_bytes()[:100])  # shorter than the header says
    assert store.header(planted) is None
    assert _update(store, planted)[0].how == "new"


def test_a_replaced_database_file_is_recomputed(planted, tmp_path):
    store = ReplayStore(tmp_path / "replays")
    _update(store, planted)
    other = tmp_path / "other.sqlite"
    db = MemoryDB.create(other)
    try:
        RawStore(db).append_message("global", "user", "a single turn", T0)
    finally:
        db.close()
    os.replace(other, planted)
    given = []
    done, replayed = _update(store, planted, given)
    assert (done.how, done.reason, replayed) == ("recomputed", "replaced", 1)
    assert [t.message.id for t in given] == [1] and done.saved.count == 1


def test_a_file_restored_in_place_is_recomputed(planted, tmp_path):
    """The same file (inode) with other content, as a restore leaves it: the saved last turn is gone."""
    older = tmp_path / "older.sqlite"
    shutil.copyfile(planted, older)
    store = ReplayStore(tmp_path / "replays")
    _append(planted, [("user", "one more Quillfeather question")], T0 + 10_000 * MIN)
    _update(store, planted)
    shutil.copyfile(older, planted)  # same inode, the older content
    given = []
    done, _replayed = _update(store, planted, given)
    assert (done.how, done.reason) == ("recomputed", "changed")
    assert store.load(planted).replay.to_json() == _full(planted).to_json()
    assert [t.to_json() for t in given] == _full(planted).to_json()["turns"]  # none of the extension


def test_results_are_keyed_to_the_real_path_and_the_folder_follows_the_environment(
    planted, tmp_path, monkeypatch
):
    store = ReplayStore(tmp_path / "replays")
    link = tmp_path / "link.sqlite"
    link.symlink_to(planted)
    store.save(link, _full(planted), ReplayOptions())
    assert store.load(planted) is not None and store.path(link) == store.path(planted)
    assert store.load(tmp_path / "another.sqlite") is None
    assert oct(store.path(planted).stat().st_mode & 0o777) == "0o600"
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "elsewhere"))
    assert default_store_dir() == tmp_path / "elsewhere"


def test_a_cancelled_update_saves_nothing(planted, tmp_path):
    store = ReplayStore(tmp_path / "replays")
    db = MemoryDB.open(planted)
    try:
        with pytest.raises(ReplayCancelledError):
            store.update(db, planted, cancelled=lambda: True)
        assert store.header(planted) is None
        _update(store, planted)
        _append(planted, [("user", "Quillfeather once more")], T0 + 10_000 * MIN)
        before = store.load(planted).replay.to_json()
        with pytest.raises(ReplayCancelledError):
            store.update(db, planted, cancelled=lambda: True)
        assert store.load(planted).replay.to_json() == before
    finally:
        db.close()


def test_turns_are_handed_on_as_they_come_and_a_stop_midway_leaves_the_saved_result(planted, tmp_path):
    store = ReplayStore(tmp_path / "replays")
    events: list[tuple[str, int]] = []

    def stop_at(n):
        def on_turn(t):
            events.append(("turn", t.message.id))
            if sum(1 for e in events if e[0] == "turn") == n:
                raise KeyboardInterrupt

        return on_turn

    db = MemoryDB.open(planted)
    try:  # a first replay stopped midway: nothing saved, no file left behind
        with pytest.raises(KeyboardInterrupt):
            store.update(db, planted, on_turn=stop_at(50))
        assert store.header(planted) is None and not list(store.folder.iterdir())
    finally:
        db.close()
    _update(store, planted)
    before = store.load(planted).replay.to_json()
    _append(planted, [("user", f"Quillfeather question {i}") for i in range(4)], T0 + 10_000 * MIN)
    events.clear()
    db = MemoryDB.open(planted)
    try:  # each turn is handed on before the next is replayed; stopped at the third, the appended lines
        with pytest.raises(KeyboardInterrupt):  # are not the saved result
            store.update(db, planted, progress=lambda d, t: events.append(("done", d)), on_turn=stop_at(3))
    finally:
        db.close()
    assert [e[0] for e in events] == ["done", "turn", "done", "turn", "done", "turn"]
    assert store.turns_path(planted).stat().st_size > store.header(planted).size
    assert store.load(planted).replay.to_json() == before
    done, replayed = _update(store, planted)
    assert (done.how, replayed) == ("extended", 4)
    assert store.load(planted).replay.to_json() == _full(planted).to_json()


def test_a_range_of_saved_turns_is_found_by_halving_the_file(tmp_path):
    """The first line at or after a (time, id) key, in a file of lines of many lengths and repeated
    times, is the one a reading from the top finds, for every key in and around the file."""
    import io
    import json as _json
    import random

    from core.replay.ranged import _first_at

    rnd = random.Random(7)
    keys = sorted((rnd.randrange(20), i) for i in range(1, 200))
    lines = [
        (_json.dumps({"timestamp": t, "messageId": i, "pad": "x" * rnd.randrange(300)}) + "\n")
        for t, i in keys
    ]
    data = "".join(lines).encode()
    fh = io.BytesIO(data)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line.encode()))
    for key in [(t, i) for t in range(-1, 22) for i in (-(1 << 63) + 1, 50, (1 << 63) - 1)] + keys:
        want = next((starts[k] for k, kk in enumerate(keys) if kk >= key), len(data))
        assert _first_at(fh, len(data), key) == want, key
    assert _first_at(io.BytesIO(b""), 0, (5, 5)) == 0
