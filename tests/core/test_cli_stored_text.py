"""Plain command-line output shows stored text with its controls and direction overrides visible (never
applied to the terminal), ``--json`` keeps it exact, and the context names each damaged row the agent
would be given."""

from __future__ import annotations

import json

from core import cli
from core.db import MemoryDB
from core.engine import sqlite3
from core.notes import NotesStore
from core.timeline import RawStore
from tests.support import FIXED_NOW

HOSTILE = "\x1b]0;owned\x07\x1b[31mred\x1b[0m deploy photo_\u202egnp.exe\rover"


def _db(tmp_path):
    path = tmp_path / "memory.sqlite"
    db = MemoryDB.create(path, now=FIXED_NOW)
    try:
        raw = RawStore(db)
        raw.append_message("global", "user", HOSTILE, FIXED_NOW)
        raw.append_message("global", "assistant", "the deploy went fine", FIXED_NOW + 1)
        NotesStore(db).upsert("n-1", HOSTILE, 0.9, None, FIXED_NOW)
    finally:
        db.close()
    return path


def _run(capsys, path, *args):
    rc = cli.main(["--db", str(path), "--now", str(FIXED_NOW + 10), *args])
    out, err = capsys.readouterr()
    return rc, out, err


def test_plain_output_spells_controls_and_json_stays_exact(tmp_path, capsys):
    path = _db(tmp_path)
    for args in (("search", "deploy"), ("search", "deploy", "--layer", "notes"), ("context", "deploy")):
        rc, out, _err = _run(capsys, path, *args)
        assert rc == 0, args
        assert "\x1b" not in out and "\u202e" not in out and "\r" not in out and "\x07" not in out, args
        assert "\\x1b[31mred" in out and "\\u202e" in out, args
    rc, out, _err = _run(capsys, path, "search", "deploy", "--json")
    assert rc == 0
    contents = [r["content"] for r in json.loads(out)["results"]]
    assert HOSTILE in contents


def test_context_names_a_damaged_row_the_agent_would_be_given(tmp_path, capsys):
    path = _db(tmp_path)
    conn = sqlite3.connect(str(path), isolation_level=None)
    try:
        conn.execute("UPDATE memory_raw_messages SET content = CAST(X'6869FF' AS TEXT) WHERE id = 2")
    finally:
        conn.close()
    rc, out, _err = _run(capsys, path, "context", "deploy", "--json")
    assert rc == 0
    notes = json.loads(out)["damaged_rows"]
    assert [n["code"] for n in notes] == ["context.row.replacement_chars"]
    assert notes[0]["params"]["id"] == 2
    rc, out, _err = _run(capsys, path, "context", "deploy")
    assert rc == 0 and "message #2" in out
