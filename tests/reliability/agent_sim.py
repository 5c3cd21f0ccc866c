"""A stand-in for the running agent: many small writes a second on its own connection.

Run as a separate process while the app browses and curates the same file::

    python tests/reliability/agent_sim.py --db PATH --seconds 60 --out result.json

It opens the database writable through the core (WAL, ``busy_timeout=5000``, no backup: the agent
takes none before writing; with ``--connection-per-write`` a connection of its own for each write,
closed right after it) and, until the time is up, cycles through what the agent does: append a
user and an assistant message, log a tool call, store a fact, record a skill outcome. Every write is
timed; the JSON file gets the latencies and every error. The exit status is 0 when every write
succeeded, 1 when any failed (``database is locked`` included), 2 for bad arguments.

The JSON result::

    {"seconds": float, "writes": int, "errors": [{"op", "error", "at_s"}], "max_ms": float,
     "p50_ms": float, "p99_ms": float, "by_op": {op: count}, "slowest": [{"op", "ms", "at_s"}],
     "session_id": str, "first_message_id": int | None, "last_message_id": int | None,
     "message_ids": int, "fact_namespace": str, "facts_stored": int, "skills": [name],
     "latencies_ms": [float]}
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from core.actions import ActionStore
from core.db import MemoryDB
from core.facts import FactStore
from core.skills import SkillStore
from core.timeline import RawStore

FACT_NAMESPACE = "agent_sim"
OPS = ("user_message", "assistant_message", "action", "fact", "skill_outcome")


def _percentile(sorted_values: list[float], q: float) -> float:
    if not sorted_values:
        return 0.0
    i = min(len(sorted_values) - 1, max(0, round(q * (len(sorted_values) - 1))))
    return sorted_values[i]


class Agent:
    """The writes of one simulated agent on one writable connection."""

    def __init__(self, db: MemoryDB, session_id: str, skills: list[str], rng: random.Random):
        self.db = db
        self.raw = RawStore(db)
        self.actions = ActionStore(db)
        self.facts = FactStore(db)
        self.skills = SkillStore(db)
        self.session_id = session_id
        self.skill_names = skills
        self.rng = rng
        self.n = 0
        self.first_message_id: int | None = None
        self.last_message_id: int | None = None
        self.message_ids = 0
        self.facts_stored = 0

    def start(self) -> None:
        self.raw.start_session(self.session_id, exist_ok=True)

    def rebind(self, db: MemoryDB) -> None:
        """Write through ``db`` from now on (an agent that opens a connection for each write)."""
        self.db = db
        self.raw = RawStore(db)
        self.actions = ActionStore(db)
        self.facts = FactStore(db)
        self.skills = SkillStore(db)

    def step(self, op: str) -> None:
        self.n += 1
        i = self.n
        if op in ("user_message", "assistant_message"):
            role = "user" if op == "user_message" else "assistant"
            m = self.raw.append_message(
                self.session_id, role, f"agent sim {role} message {i}: checking the deployment logs"
            )
            self.last_message_id = int(m.id)
            if self.first_message_id is None:
                self.first_message_id = int(m.id)
            self.message_ids += 1
        elif op == "action":
            self.actions.append(
                self.session_id,
                "search_notes",
                {"query": f"deploy {i}", "limit": 3},
                result="ok",
                success=self.rng.random() < 0.9,
                linked_skill=self.skill_names[i % len(self.skill_names)] if self.skill_names else None,
            )
        elif op == "fact":
            self.facts.store_fact(FACT_NAMESPACE, f"counter_{i % 7}", {"n": i, "note": "agent sim"})
            self.facts_stored += 1
        elif op == "skill_outcome":
            if self.skill_names:
                self.skills.record_skill_outcome(
                    self.skill_names[i % len(self.skill_names)], self.rng.random() < 0.7
                )
        else:  # pragma: no cover - OPS is fixed
            raise ValueError(op)


def run(
    db_path: str,
    seconds: float,
    rate: float,
    skills: list[str],
    session_id: str,
    seed: int,
    ready: str | None = None,
    per_write: bool = False,
) -> dict[str, Any]:
    rng = random.Random(seed)
    errors: list[dict[str, Any]] = []
    latencies: list[float] = []
    slow: list[dict[str, Any]] = []
    by_op: dict[str, int] = dict.fromkeys(OPS, 0)
    t0 = time.monotonic()
    db = MemoryDB.open(db_path, writable=True, check=False, backup_before_write=False)
    agent = Agent(db, session_id, skills, rng)
    try:
        db.ensure_writable_schema()
        agent.start()
        if per_write:  # nothing held open between writes: no lock, and the -wal goes with each close
            db.close()
        if ready:
            Path(ready).write_text(str(os.getpid()))
        interval = 1.0 / rate if rate > 0 else 0.0
        deadline = t0 + seconds
        next_at = time.monotonic()
        k = 0
        while time.monotonic() < deadline:
            op = OPS[k % len(OPS)]
            k += 1
            start = time.perf_counter()
            try:
                if per_write:
                    _one_write(db_path, agent, op)
                else:
                    agent.step(op)
            except Exception as exc:  # every failure is recorded, never hidden
                errors.append(
                    {"op": op, "error": f"{type(exc).__name__}: {exc}", "at_s": time.monotonic() - t0}
                )
            ms = (time.perf_counter() - start) * 1000.0
            latencies.append(ms)
            by_op[op] += 1
            slow.append({"op": op, "ms": ms, "at_s": round(time.monotonic() - t0, 3)})
            if len(slow) > 40:
                slow.sort(key=lambda s: -s["ms"])
                del slow[20:]
            next_at += interval
            pause = next_at - time.monotonic()
            if pause > 0:
                time.sleep(pause)
            else:
                next_at = time.monotonic()
        # The last word: a message whose id the app must reach.
        start = time.perf_counter()
        try:
            if per_write:
                _one_write(db_path, agent, "assistant_message")
            else:
                agent.step("assistant_message")
            by_op["assistant_message"] += 1
        except Exception as exc:
            errors.append({"op": "final_message", "error": f"{type(exc).__name__}: {exc}", "at_s": 0.0})
        latencies.append((time.perf_counter() - start) * 1000.0)
    finally:
        db.close()
    ordered = sorted(latencies)
    slow.sort(key=lambda s: -s["ms"])
    return {
        "seconds": time.monotonic() - t0,
        "writes": len(latencies),
        "errors": errors,
        "max_ms": ordered[-1] if ordered else 0.0,
        "p50_ms": _percentile(ordered, 0.5),
        "p99_ms": _percentile(ordered, 0.99),
        "by_op": by_op,
        "slowest": slow[:20],
        "session_id": session_id,
        "first_message_id": agent.first_message_id,
        "last_message_id": agent.last_message_id,
        "message_ids": agent.message_ids,
        "fact_namespace": FACT_NAMESPACE,
        "facts_stored": agent.facts_stored,
        "skills": skills,
        "latencies_ms": [round(x, 3) for x in latencies],
    }


def _one_write(db_path: str, agent: Agent, op: str) -> None:
    """One write on a connection of its own, closed at once."""
    db = MemoryDB.open(db_path, writable=True, check=False, backup_before_write=False)
    try:
        agent.rebind(db)
        agent.step(op)
    finally:
        db.close()


def _stop(signum: int, frame: Any) -> None:
    """A polite stop (SIGTERM from a test that gives up) still writes the result."""
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--db", required=True)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--rate", type=float, default=40.0, help="target writes per second")
    p.add_argument("--skill", action="append", default=[], help="skill to record outcomes for")
    p.add_argument("--session", default="agent-sim")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", required=True, help="where to write the JSON result")
    p.add_argument("--ready", help="file created once the connection is open and writing starts")
    p.add_argument(
        "--connection-per-write",
        action="store_true",
        help="open a connection for each write and close it right after (no lock held between writes)",
    )
    args = p.parse_args(argv)
    signal.signal(signal.SIGTERM, _stop)
    try:
        result = run(
            args.db,
            args.seconds,
            args.rate,
            args.skill,
            args.session,
            args.seed,
            args.ready,
            args.connection_per_write,
        )
    except KeyboardInterrupt:
        result = {"errors": [{"op": "run", "error": "stopped by SIGTERM", "at_s": 0.0}], "writes": 0}
    except Exception as exc:
        result = {
            "errors": [{"op": "open", "error": f"{type(exc).__name__}: {exc}", "at_s": 0.0}],
            "writes": 0,
        }
    tmp = Path(args.out + ".tmp")
    tmp.write_text(json.dumps(result))
    os.replace(tmp, args.out)
    return 1 if result["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
