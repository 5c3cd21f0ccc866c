"""``philont-memory replay``: the exact JSON of a small case, the plain summary and worst misses with stored
text made visible, the empty cases, progress on stderr, and the file left as it was."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from core import cli
from core.cli.output import indented_json
from core.db import MemoryDB
from core.jsutil import estimate_tokens, json_safe
from core.timeline import RawStore
from tests.core.test_replay import EARLY, FILLER, LATER, MIN, T0, _filler, plant
from tests.reliability.helpers import fingerprint
from tests.support import FIXED_NOW

CONTENTS = [text for _role, text in EARLY + [_filler(i) for i in range(FILLER)] + LATER]


def _run(capsys, path, *args):
    rc = cli.main(["--db", str(path), "--now", str(FIXED_NOW), "replay", *args])
    out, err = capsys.readouterr()
    return rc, out, err


def _tokens(ids):
    return sum(estimate_tokens(CONTENTS[i - 1]) for i in ids)


def test_the_exact_json_of_one_turn(tmp_path, capsys):
    path = tmp_path / "memory.sqlite"
    ids = plant(path)
    c = ids["C"]
    at = str(T0 + (c - 1) * MIN)
    rc, out, _err = _run(capsys, path, "--since", at, "--until", at, "--strategy", "terms-or", "--json")
    assert rc == 0
    recency = list(range(c - 30, c))
    assert json.loads(out) == {
        "summary": {
            "turns": 1,
            "withNeed": 1,
            "hits": 1,
            "hitRate": 1.0,
            "byCause": {},
            "strategies": {
                "agent": {
                    "hits": 1,
                    "hitRate": 1.0,
                    "tokens": _tokens([1, 2]),
                    "tokensPerHit": _tokens([1, 2]),
                },
                "terms-or": {
                    "hits": 1,
                    "hitRate": 1.0,
                    "tokens": _tokens([1, 2]),
                    "tokensPerHit": _tokens([1, 2]),
                },
            },
            "estimate": {"kind": "silver", "maxDf": 5},
        },
        "turns": [
            {
                "messageId": c,
                "timestamp": T0 + (c - 1) * MIN,
                "trigger": None,
                "recalled": [1, 2],
                "needed": [1, 2],
                "hit": True,
                "cause": None,
                "tokens": _tokens(recency) + _tokens([1, 2]),
                "whatIf": {
                    "agent": {"recalled": [1, 2], "hit": True, "tokens": _tokens([1, 2])},
                    "terms-or": {"recalled": [1, 2], "hit": True, "tokens": _tokens([1, 2])},
                },
                "recency": recency,
                "path": "fts",
                "terms": ["quillfeather", "zephyrine"],
                "correction": None,
                "damaged": [],
                "relearned": [],
            }
        ],
    }


def test_plain_output_tells_the_summary_and_the_worst_misses_with_stored_text_visible(tmp_path, capsys):
    path = tmp_path / "memory.sqlite"
    plant(path)
    db = MemoryDB.open(path, writable=True)
    try:
        RawStore(db).append_message("global", "user", "\x1b[31mZephyrine\u202e Quillfeather?!", FIXED_NOW)
    finally:
        db.close()
    before = fingerprint(path)
    rc, out, err = _run(capsys, path)
    assert rc == 0 and fingerprint(path) == before
    assert "referred back to an earlier message (estimate)" in out
    assert "The agent's recall found a needed message in" in out
    assert "missed, replay.cause.query_failed:" in out and "missed, replay.cause.no_overlap:" in out
    assert "terms-or" in out and "terms-or-wide" in out
    assert "Worst misses:" in out and "found by: terms-or" in out
    assert "\x1b" not in out and "\u202e" not in out and "\\x1b[31mZephyrine\\u202e" in out
    assert "replay: 100/" in err  # progress on stderr for a long run


def test_an_empty_history_and_a_range_without_user_turns_say_so(tmp_path, capsys):
    empty = tmp_path / "empty.sqlite"
    MemoryDB.create(empty, now=FIXED_NOW).close()
    rc, out, _err = _run(capsys, empty)
    assert rc == 0 and out == "The history is empty: there is no turn to replay.\n"
    rc, out, _err = _run(capsys, empty, "--json")
    assert rc == 0 and json.loads(out)["summary"]["turns"] == 0 and json.loads(out)["turns"] == []
    path = tmp_path / "memory.sqlite"
    plant(path)
    rc, out, _err = _run(capsys, path, "--since", str(FIXED_NOW + 1))
    assert rc == 0 and out == "No user turn in this range: nothing to replay.\n"


def test_a_bad_strategy_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "memory.sqlite"
    MemoryDB.create(path, now=FIXED_NOW).close()
    rc, _out, err = _run(capsys, path, "--strategy", "magic")
    assert rc == 2 and "invalid choice: 'magic'" in err


def _append(path, text, at):
    db = MemoryDB.open(path, writable=True)
    try:
        RawStore(db).append_message("global", "user", text, at)
    finally:
        db.close()


def test_saved_answers_a_range_as_a_replay_of_it_would(tmp_path, capsys, monkeypatch):
    """``--saved`` reads the range from the saved replay, brought up to date first: the same JSON and the
    same plain output as replaying the range, before and after the agent writes; the file untouched."""
    monkeypatch.setenv("PHILONT_REPLAY_STORE", str(tmp_path / "replays"))
    path = tmp_path / "memory.sqlite"
    ids = plant(path)
    before = fingerprint(path)
    at = lambda key: str(T0 + (ids[key] - 1) * MIN)  # noqa: E731
    ranges = [(), ("--since", at("B")), ("--until", at("C")), ("--since", at("B"), "--until", at("D"))]
    ranges += [("--limit", "2"), ("--since", at("A"), "--limit", "3"), ("--since", str(FIXED_NOW + 1))]
    for args in ranges:
        fresh = _run(capsys, path, *args, "--json")
        assert _run(capsys, path, *args, "--json", "--saved")[:2] == fresh[:2], args
        assert _run(capsys, path, *args, "--saved")[:2] == _run(capsys, path, *args)[:2], args
    assert fingerprint(path) == before
    _append(path, "Zephyrine said what about Quillfeather again?", FIXED_NOW - MIN)
    rc, out, _err = _run(capsys, path, "--since", str(FIXED_NOW - MIN), "--json", "--saved")
    assert rc == 0 and [t["messageId"] for t in json.loads(out)["turns"]] == [max(ids.values()) + 1]
    assert (rc, out) == _run(capsys, path, "--since", str(FIXED_NOW - MIN), "--json")[:2]


def test_saved_cannot_answer_a_conversation_and_sets_aside_what_it_cannot_read(tmp_path, capsys, monkeypatch):
    from core.replay.store import ReplayStore

    monkeypatch.setenv("PHILONT_REPLAY_STORE", str(tmp_path / "replays"))
    path = tmp_path / "memory.sqlite"
    plant(path)
    rc, _out, err = _run(capsys, path, "--saved", "--origin", "global")
    assert rc == 1 and "replay that conversation's turns instead" in err
    assert _run(capsys, path, "--saved")[0] == 0
    turns = ReplayStore().turns_path(path)
    data = turns.read_bytes()
    turns.write_bytes(data[: len(data) // 2] + b"{not json" + data[len(data) // 2 + 9 :])
    rc, _out, err = _run(capsys, path, "--saved", "--json")
    assert rc == 1 and "The saved replay could not be read" in err and "it was set aside" in err
    assert not turns.exists()
    assert _run(capsys, path, "--saved", "--json")[:2] == _run(capsys, path, "--json")[:2]
    size = len(turns.read_bytes())  # a damaged line met while the range's first turn is looked for
    turns.write_bytes(b"x" * (size - 1) + b"\n")
    rc, _out, err = _run(capsys, path, "--saved", "--since", str(T0 + 10_000 * MIN))
    assert rc == 1 and "The saved replay could not be read" in err and not turns.exists()


@settings(max_examples=500, deadline=None)
@given(
    st.recursive(
        st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
        lambda inner: st.lists(inner) | st.dictionaries(st.text(), inner),
        max_leaves=40,
    ),
    st.booleans(),
)
def test_the_json_of_every_command_is_what_json_dumps_indents(value, ensure_ascii):
    """The faster layout of ``--json`` (a replay's turns are long lists of ids) is json.dumps' own text,
    non-finite numbers written as null."""
    want = json.dumps(json_safe(value), ensure_ascii=ensure_ascii, indent=2)
    assert indented_json(value, ensure_ascii) == want
    assert (
        indented_json({1: [(float("nan"),)]}) == '{\n  "1": [\n    [\n      null\n    ]\n  ]\n}'
    )  # json.dumps
