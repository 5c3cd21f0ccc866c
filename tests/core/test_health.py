"""The doctor's checks (core.health): a planted file gives every finding with its exact targets, the demo
gives no false failure, the report's JSON shape, and a check changes no byte of the file."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from core.db import MemoryDB
from core.errors import ValidationError_
from core.health.checks import HealthOptions, run_checks
from core.health.finding import LAYERS
from tests.conftest import FIXED_NOW

NOW = FIXED_NOW
D = 86_400_000

FACT_COLS = (
    "id, namespace, key, value_json, confidence, superseded_by, supersedes, created_at, valid_until, "
    "last_accessed_at, decay_tau_days, forgotten_at"
)


def fact(conn, fid, ns, key, value='"v"', *, conf=1.0, sup_by=None, sups=None, created=NOW - D,
         until=None, read=None, tau=None, forgotten=None):  # fmt: skip
    conn.execute(
        f"INSERT INTO memory_facts ({FACT_COLS}) VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
        (fid, ns, key, value, conf, sup_by, sups, created, until, read, tau, forgotten),
    )


def plant_facts(conn) -> None:
    # several live values for one key
    fact(conn, "conflict-a", "user", "city", '"Lyon"', created=NOW - 2 * D)
    fact(conn, "conflict-b", "user", "city", '"Paris"', created=NOW - D)
    # a chain naming a missing fact; a cycle of two
    fact(conn, "broken", "project", "stage", '"alpha"', sup_by="nowhere")
    fact(conn, "cyc-1", "misc", "loop", '"one"', sup_by="cyc-2")
    fact(conn, "cyc-2", "misc", "loop", '"two"', sup_by="cyc-1")
    # one value under two keys (normalised: case and white space)
    fact(conn, "same-1", "contacts", "boss", '"Ada  Lovelace"')
    fact(conn, "same-2", "contacts", "manager", '"ada lovelace"')
    # valid_until passed, live and shown in the prefix
    fact(conn, "expired", "user", "trip", '"Rome"', until=NOW - D, read=NOW - 3600_000)
    # shown in the prefix while decayed below 0.05 (project τ 60 d, a year old)
    fact(conn, "decayed", "project", "deadline", '"march"', created=NOW - 365 * D)
    # damaged values
    fact(conn, "nan-conf", "misc", "nan", '"x"', conf="high")
    fact(conn, "big-conf", "misc", "big", '"x"', conf=7)
    fact(conn, "bad-json", "misc", "json", "{not json")
    fact(conn, "inf-conf", "misc", "inf", '"x"')
    conn.execute("UPDATE memory_facts SET confidence = 1e999999 WHERE id = 'inf-conf'")
    # never read for 200 days (not in the prefix)
    fact(conn, "unread", "notes", "old", '"kept"', created=NOW - 200 * D)


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("planted") / "memory.sqlite"
    db = MemoryDB.create(path, now=NOW)
    with db.write() as conn:
        plant_facts(conn)
    db.close()
    return path


@pytest.fixture(scope="module")
def report(planted):
    db = MemoryDB.open(planted)
    try:
        yield run_checks(db, now_ms=NOW)
    finally:
        db.close()


def targets(report, code) -> list[list]:
    return [f.targets for f in report.findings if f.code == code]


def one(report, code):
    found = [f for f in report.findings if f.code == code]
    assert len(found) == 1, (code, found)
    return found[0]


def test_live_conflict(report):
    f = one(report, "health.facts.live_conflict")
    assert (f.severity, f.layer, f.targets) == ("fail", "facts", ["conflict-b", "conflict-a"])
    assert f.fix.code == "health.fix.merge_duplicates"
    assert f.fix.params == {"layer": "facts", "ids": ["conflict-b", "conflict-a"]}
    assert str(f.message) == "user.city has 2 live values at once; the agent reads only one."


def test_broken_chains(report):
    assert targets(report, "health.facts.chain_missing") == [["broken"]]
    assert targets(report, "health.facts.chain_cycle") == [["cyc-1", "cyc-2"]]
    assert one(report, "health.facts.chain_cycle").fix.code == "health.fix.repair_chain"


def test_same_value_under_several_keys(report):
    f = one(report, "health.facts.same_value")
    assert (f.severity, f.targets, f.measure["keys"]) == ("warn", ["same-1", "same-2"], ["boss", "manager"])


def test_expired_live_and_shown(report):
    f = one(report, "health.facts.expired_live")
    assert (f.severity, f.targets, f.measure["shown"]) == ("warn", ["expired"], 1)
    assert f.fix.code == "health.fix.forget"


def test_decayed_but_shown(report):
    f = one(report, "health.facts.decayed_shown")
    assert f.targets == ["decayed"]
    assert f.measure["scores"]["decayed"] < 0.05


def test_damaged_values_are_findings(report):
    found = [f for f in report.findings if f.code == "health.facts.confidence_invalid"]
    assert sorted((f.targets[0], f.measure["value"]) for f in found) == [
        ("big-conf", "7"),
        ("inf-conf", "Infinity"),
        ("nan-conf", "'high'"),
    ]
    assert targets(report, "health.facts.invalid_json") == [["bad-json"]]


def test_unread_facts(report):
    f = one(report, "health.facts.unread")
    assert (f.severity, f.targets) == ("info", ["unread"])


def test_thresholds_are_options(planted):
    with MemoryDB.open(planted) as db:
        r = run_checks(db, now_ms=NOW, layers=["facts"], options={"unread_days": 500})
    assert targets(r, "health.facts.unread") == []
    with pytest.raises(ValidationError_) as e:
        HealthOptions.of({"nope": 1})
    assert e.value.code == "health.option_unknown"


def test_unknown_layer_refused(planted):
    with MemoryDB.open(planted) as db, pytest.raises(ValidationError_) as e:
        run_checks(db, layers=["facts", "moon"])
    assert e.value.code == "health.layer_unknown"


def test_json_shape(report):
    js = json.loads(json.dumps(report.to_json()))
    assert list(js) == ["summary", "findings"]
    assert list(js["summary"]) == list(LAYERS)
    assert js["summary"]["facts"]["status"] == "fail"
    first = js["findings"][0]
    assert list(first) == ["code", "severity", "layer", "targets", "message", "measure", "fix"]
    assert list(first["message"]) == ["code", "message", "params"]


def _digest(path: Path) -> dict[str, str]:
    return {
        p.name: hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(path.parent.iterdir())
        if p.name.endswith((".sqlite", ".sqlite-wal"))
    }


def test_health_changes_no_byte(planted):
    before = _digest(planted)
    with MemoryDB.open(planted) as db:
        run_checks(db, now_ms=NOW)
    assert _digest(planted) == before


def test_demo_has_no_false_failure(demo_db_path):
    with MemoryDB.open(demo_db_path) as db:
        r = run_checks(db, now_ms=NOW)
    assert [f.code for f in r.findings if f.severity == "fail"] == []
