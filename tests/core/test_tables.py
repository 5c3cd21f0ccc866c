"""core.tables: every table of a file, grouped, counted apart from the listing."""

from __future__ import annotations

from core import tables
from core.db import MemoryDB
from core.engine import sqlite3
from tests.fixtures import agent_files


def test_groups_of_an_agent_file_with_tables_nobody_knows(tmp_path):
    path = agent_files.make_fresh(tmp_path / "v50.sqlite", 50)
    raw = sqlite3.connect(path)
    raw.execute('CREATE TABLE "future table" (x)')
    raw.executemany('INSERT INTO "future table" VALUES (?)', [(1,), (2,)])
    raw.execute("CREATE VIEW v AS SELECT 1")
    raw.commit()
    raw.close()
    with MemoryDB.open(path) as db:
        listed = tables.inventory(db, counts=False)
        assert all(t.rows is None for t in listed)
        counted = {t.name: t for t in tables.inventory(db)}
    assert [t.name for t in listed] == list(counted)  # same order: group, then name
    assert counted["memory_raw_messages"].group == "memory" and counted["memory_raw_messages"].rows == 20
    for name in (
        "memory_cases",
        "deferred_pushes",
        "routing_rules",
        "constitution_proposals",
        "learning_metrics",
    ):
        assert counted[name].group == "agent" and counted[name].rows >= 1, name
    assert counted["memory_cases"].description.startswith("judge-verified")
    assert counted["memory_skills_fts"].virtual and counted["memory_skills_fts"].rows is None
    assert (
        counted["memory_skills_fts_docsize"].group == "search"
        and counted["memory_skills_fts_docsize"].rows == 7
    )
    assert counted["sqlite_sequence"].group == "sqlite"
    assert (counted["future table"].group, counted["future table"].rows) == ("unknown", 2)
    assert "v" not in counted  # views are not tables
    grouped = tables.grouped(counted.values())
    assert list(grouped) == list(tables.GROUPS)
    assert grouped["unknown"] == [{"name": "future table", "rows": 2, "virtual": False}]
    assert grouped["project"] == []  # nothing written by this project yet


def test_counting_can_stop_between_tables(mem_db):
    asked: list[int] = []

    def cancel() -> bool:
        asked.append(1)
        return len(asked) > 2

    counted = tables.count_rows(mem_db.conn, tables.list_tables(mem_db.conn), cancel=cancel)
    plain = [t for t in counted if not t.virtual]
    assert [t.rows is not None for t in plain[:3]] == [True, True, False]
    assert all(t.rows is None for t in plain[2:])
