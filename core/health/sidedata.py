"""What the doctor keeps outside the database, per database file: the groups a person said are not
duplicates ("never merge these") and the last report, to show at once when the file is opened again.

"Never merge these" is one small JSON file in the user's data directory beside the review marks
(``health.json``; ``$PHILONT_HEALTH_FILE`` names another), keyed by the database's real path
(:func:`core.changes.marks.database_key`)::

    {"version": 1, "databases": {"/home/u/.philont/memory/memory.sqlite": {"dismissed": [["id-a", "id-b"]]}}}

The last report of each database is a JSON Lines file of its own in ``health-last/`` beside it (named by
a digest of the database's key): a header line ``{"version": 1, "database": key, "at": ms, "left_out":
n}``, then a finding a line. It is read and written a finding at a time: on the 1M-message file the
report is 3.7 MB, and parsing or writing it in one call held the interpreter for 15-27 ms while the
GUI thread waited to paint (bench/README.md). A line that cannot be read is left out; a report
written into ``health.json`` by an earlier version is dropped from it when the next one is saved.

Written atomically (mode 0600) and read as every side file (:mod:`core.sidefiles`): one that cannot be
read is set aside and reported, never silently overwritten. Reading the database is never needed.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from core import sidefiles
from core.changes.marks import database_digest, database_key, default_marks_path
from core.errors import Notice
from core.health.finding import LAYERS, SEVERITIES, Finding, Fix

__all__ = [
    "ENV_VAR",
    "MAX_KEPT_FINDINGS",
    "HealthSideData",
    "finding_from_json",
    "finding_to_json",
    "saved_files",
]

ENV_VAR = "PHILONT_HEALTH_FILE"
FILE_NAME = "health.json"
LAST_FOLDER = "health-last"
#: the findings kept of the last report (the worst first); the count of those left out is kept too
MAX_KEPT_FINDINGS = 2000
MAX_DISMISSED = 5000
_LOCK = threading.Lock()


def default_path() -> Path:
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return default_marks_path().with_name(FILE_NAME)


def finding_to_json(f: Finding) -> dict[str, Any]:
    return {
        "code": f.code,
        "severity": f.severity,
        "layer": f.layer,
        "targets": list(f.targets),
        "message": f.message.to_json(),
        "measure": dict(f.measure),
        "fix": f.fix.to_json() if f.fix is not None else None,
    }


def finding_from_json(data: Any) -> Finding | None:
    """A finding as :func:`finding_to_json` wrote it (``None`` for anything else)."""
    if not isinstance(data, dict):
        return None
    code, sev, layer, msg = data.get("code"), data.get("severity"), data.get("layer"), data.get("message")
    if not isinstance(code, str) or sev not in SEVERITIES or layer not in LAYERS or not isinstance(msg, dict):
        return None
    fix_data = data.get("fix")
    fix = None
    if isinstance(fix_data, dict) and isinstance(fix_data.get("code"), str):
        params = fix_data.get("params")
        fix = Fix(fix_data["code"], dict(params) if isinstance(params, dict) else {})
    targets = data.get("targets")
    measure = data.get("measure")
    params = msg.get("params")
    return Finding(
        code,
        sev,
        layer,
        list(targets) if isinstance(targets, list) else [],
        Notice(
            str(msg.get("code") or code),
            str(msg.get("message") or ""),
            params if isinstance(params, dict) else {},
        ),
        dict(measure) if isinstance(measure, dict) else {},
        fix,
    )


class HealthSideData:
    """The doctor's side file (:func:`default_path` unless ``path`` is given)."""

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path = Path(path) if path is not None else default_path()

    def _load(self) -> dict[str, Any]:
        data, problem = sidefiles.read_json(self.path)
        dbs = data.get("databases") if isinstance(data, dict) else None
        if problem is None and data is not None and not isinstance(dbs, dict):
            problem = sidefiles.SideFileProblem("wrong_shape", {"error": "no databases member"})
        if problem is not None:
            sidefiles.set_aside(self.path, problem)
            return {}
        return dbs if isinstance(dbs, dict) else {}

    def _entry(self, db_path: str | os.PathLike[str]) -> dict[str, Any]:
        entry = self._load().get(database_key(db_path))
        return entry if isinstance(entry, dict) else {}

    def _update(self, db_path: str | os.PathLike[str], name: str, value: Any) -> None:
        with _LOCK:
            dbs = self._load()
            key = database_key(db_path)
            old = dbs.get(key)
            entry: dict[str, Any] = old if isinstance(old, dict) else {}
            entry[name] = value
            dbs[key] = entry
            self._write({"version": 1, "databases": dbs})

    # -- "never merge these" ----------------------------------------------------------------------------
    def dismissed(self, db_path: str | os.PathLike[str]) -> set[frozenset[str]]:
        groups = self._entry(db_path).get("dismissed")
        out: set[frozenset[str]] = set()
        for g in groups if isinstance(groups, list) else ():
            if isinstance(g, list) and len(g) >= 2 and all(isinstance(i, str) for i in g):
                out.add(frozenset(g))
        return out

    def dismiss(self, db_path: str | os.PathLike[str], ids: Iterable[Any]) -> set[frozenset[str]]:
        """Remember that the rows ``ids`` are not duplicates of each other; returns every group."""
        groups = self.dismissed(db_path) | {frozenset(str(i) for i in ids)}
        self._store_groups(db_path, groups)
        return groups

    def undismiss(self, db_path: str | os.PathLike[str], ids: Iterable[Any]) -> set[frozenset[str]]:
        groups = self.dismissed(db_path) - {frozenset(str(i) for i in ids)}
        self._store_groups(db_path, groups)
        return groups

    def _store_groups(self, db_path: str | os.PathLike[str], groups: set[frozenset[str]]) -> None:
        data = sorted(sorted(g) for g in groups)[-MAX_DISMISSED:]
        self._update(db_path, "dismissed", data)

    # -- the last report --------------------------------------------------------------------------------
    def last_path(self, db_path: str | os.PathLike[str]) -> Path:
        """The file of a database's last report."""
        return self.path.with_name(LAST_FOLDER) / f"{database_digest(db_path)}.jsonl"

    def last(self, db_path: str | os.PathLike[str]) -> tuple[int | None, list[Finding], int]:
        """``(computed at, findings, findings left out)`` of the last report kept (``None, [], 0``: none)."""
        path = self.last_path(db_path)
        got, problem = sidefiles.read_json_lines(path)
        if problem is not None:
            sidefiles.set_aside(path, problem)
        lines = got or []
        head = lines[0] if lines else None
        if (
            not isinstance(head, dict)
            or head.get("version") != 1
            or head.get("database") != database_key(db_path)
        ):
            return None, [], 0
        at, more = head.get("at"), head.get("left_out")
        found = [f for f in map(finding_from_json, lines[1:]) if f is not None]
        return (at if type(at) is int else None), found, (more if type(more) is int else 0)

    def save_last(self, db_path: str | os.PathLike[str], at: int, findings: list[Finding]) -> None:
        order = {s: i for i, s in enumerate(SEVERITIES)}
        worst = sorted(range(len(findings)), key=lambda i: order.get(findings[i].severity, 9))
        kept = [findings[i] for i in sorted(worst[:MAX_KEPT_FINDINGS])]  # the worst, in their order
        head = {
            "version": 1,
            "database": database_key(db_path),
            "at": int(at),
            "left_out": len(findings) - len(kept),
        }
        with _LOCK:
            sidefiles.write_json_lines(self.last_path(db_path), [head, *map(finding_to_json, kept)])
        self._drop_old_last(db_path)

    def _drop_old_last(self, db_path: str | os.PathLike[str]) -> None:
        """An earlier version kept the last report in ``health.json``: dropped, it is not read again."""
        with _LOCK:
            dbs = self._load()
            entry = dbs.get(database_key(db_path))
            if isinstance(entry, dict) and "last" in entry:
                del entry["last"]
                self._write({"version": 1, "databases": dbs})

    def _write(self, data: dict[str, Any]) -> None:
        sidefiles.write_json(self.path, data, indent=None)


def saved_files(db_path: str | os.PathLike[str]) -> list[Path]:
    """The file of a database's last report (and a temporary one being written beside it): it holds
    names and labels of the database's rows, so the privacy purge deletes it
    (:data:`core.privacy.purge_plan.DERIVED`); the next visit of the Health tab checks again."""
    path = HealthSideData().last_path(db_path)
    return [path, *sidefiles.partial_files(path)]
