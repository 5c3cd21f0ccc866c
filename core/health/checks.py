"""Running the doctor: :func:`run_checks` reads a memory file once through the core's API and returns a
:class:`HealthReport` of :class:`~core.health.finding.Finding` values, layer by layer.

Reading never writes: the stores are used in their read-only ways (no ``getFact`` bump, no
``record_usage``), the prefix is built without ``bump_self``, and the file-level figures come from
``PRAGMA`` reads and ``os.stat``. A damaged value (a NaN confidence, invalid JSON) is a finding of its
own, never an exception. Each statement holds the database's lock for itself alone (a worker running the
checks never keeps the app's other readers waiting longer than one query) and is its own read: a row the
agent writes meanwhile may be seen by one check and not by another, never half by one.

The thresholds are the fields of :class:`HealthOptions`; ``options`` may be a :class:`HealthOptions`
or a mapping of some of its field names to values (``{"unread_days": 30}``).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.errors import DatabaseClosedError, Notice, ValidationError_
from core.health import calendar, facts, growth, indexes, notes, skills
from core.health.context import Check, Context, HealthOptions, ProgressFn, finding
from core.health.finding import LAYERS, SEVERITIES, Finding, Fix
from core.jsutil import now_ms as _clock

if TYPE_CHECKING:
    from core.db import MemoryDB

__all__ = ["HealthOptions", "HealthReport", "finding_json", "run_checks"]

_CHECKS: dict[str, Sequence[Check]] = {
    "facts": facts.CHECKS,
    "skills": skills.CHECKS,
    "notes": notes.CHECKS,
    "indexes": indexes.CHECKS,
    "calendar": calendar.CHECKS,
    "file": growth.CHECKS,
}


@dataclass
class HealthReport:
    """What :func:`run_checks` found: the findings (worst first within each layer, layers in
    :data:`~core.health.finding.LAYERS` order), the layers checked and the ``now`` they were held at."""

    findings: list[Finding]
    layers: tuple[str, ...] = LAYERS
    now_ms: int = 0

    def summary(self) -> dict[str, dict[str, Any]]:
        """Per layer checked: ``{"status": "ok"|"warn"|"fail", "fail": n, "warn": n, "info": n}``."""
        out: dict[str, dict[str, Any]] = {}
        for layer in self.layers:
            counts = {s: 0 for s in SEVERITIES}
            for f in self.findings:
                if f.layer == layer:
                    counts[f.severity] += 1
            status = "fail" if counts["fail"] else "warn" if counts["warn"] else "ok"
            out[layer] = {"status": status, **counts}
        return out

    def worst(self) -> str:
        """``fail``, ``warn`` or ``ok``: the worst status of any layer."""
        statuses = {s["status"] for s in self.summary().values()}
        return "fail" if "fail" in statuses else "warn" if "warn" in statuses else "ok"

    def to_json(self) -> dict[str, Any]:
        return {"summary": self.summary(), "findings": [finding_json(f) for f in self.findings]}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], now_ms: int = 0) -> HealthReport:
        """The report :meth:`to_json` wrote (a kept result shown before the checks run again)."""
        findings = [
            Finding(
                f["code"],
                f["severity"],
                f["layer"],
                list(f["targets"]),
                Notice(f["message"]["code"], f["message"]["message"], dict(f["message"]["params"])),
                dict(f["measure"]),
                None if f["fix"] is None else Fix(f["fix"]["code"], dict(f["fix"]["params"])),
            )
            for f in data["findings"]
        ]
        return cls(findings, tuple(data["summary"]), now_ms)


def finding_json(f: Finding) -> dict[str, Any]:
    """One finding as ``health --json`` prints it (the message in English with its code and params)."""
    return {
        "code": f.code,
        "severity": f.severity,
        "layer": f.layer,
        "targets": list(f.targets),
        "message": f.message.to_json(),
        "measure": dict(f.measure),
        "fix": None if f.fix is None else f.fix.to_json(),
    }


NOTE_LABEL_CHARS = 40  # a note is named by the start of its text


def _labels(ctx: Context, layer: str) -> dict[Any, str]:
    """What a person calls the rows a layer's findings target: ``namespace.key`` for a fact, the name of
    a skill or a task, the start of a note's text."""
    if layer == "facts":
        return {f.id: f"{f.namespace}.{f.key}" for f in ctx.facts}
    if layer == "skills":
        return {s.id: str(s.name) for s in ctx.skills}
    if layer == "notes":
        out = {}
        for nid, content, _, _ in ctx.notes:
            text = " ".join(content.split()) if isinstance(content, str) else ""
            out[nid] = text if len(text) <= NOTE_LABEL_CHARS else text[: NOTE_LABEL_CHARS - 1] + "…"
        return out
    if layer == "calendar":
        return {t.id: str(t.name) for t in ctx.schedules}
    return {}


def _labelled(found: list[Finding], labels: dict[Any, str]) -> list[Finding]:
    """The findings with ``measure["labels"]``, one per target, where every target has a name."""
    out = []
    for f in found:
        if f.targets and all(t in labels for t in f.targets):
            f = dataclasses.replace(f, measure={**f.measure, "labels": [labels[t] for t in f.targets]})
        out.append(f)
    return out


def _run_one(check: Check, layer: str, ctx: Context) -> list[Finding]:
    """One check's findings; a check that cannot run (a table missing from the file, a value no reading
    foresaw) is a finding of its own (``health.<layer>.check_failed``), and the other checks still run."""
    try:
        return check(ctx)
    except DatabaseClosedError:
        raise
    except Exception as exc:  # a doctor reports what it cannot measure instead of stopping
        name = check.__name__.removeprefix("check_")
        error = f"{type(exc).__name__}: {exc}"
        return [
            finding(
                f"health.{layer}.check_failed",
                "warn",
                [],
                {"check": name, "error": error},
                check=name,
                error=error,
            )
        ]


def run_checks(
    db: MemoryDB,
    *,
    layers: Iterable[str] | None = None,
    now_ms: int | None = None,
    options: HealthOptions | Mapping[str, Any] | None = None,
    progress: ProgressFn | None = None,
) -> HealthReport:
    """Every check of ``layers`` (all of :data:`~core.health.finding.LAYERS` by default) at ``now_ms``.

    ``progress(layer, done, total)`` is called before each layer and once at the end (an exception it
    raises stops the run). An unknown layer raises :class:`~core.errors.ValidationError_`
    (``health.layer_unknown``). A check that cannot run is a ``health.<layer>.check_failed`` warning.
    Nothing is written.
    """
    chosen = LAYERS if layers is None else tuple(dict.fromkeys(layers))
    for layer in chosen:
        if layer not in LAYERS:
            raise ValidationError_(
                f"Unknown layer {layer!r}; the layers are {', '.join(LAYERS)}.",
                code="health.layer_unknown",
                params={"layer": layer, "layers": list(LAYERS)},
            )
    ordered = tuple(la for la in LAYERS if la in chosen)
    ctx = Context(db, _clock() if now_ms is None else int(now_ms), HealthOptions.of(options))
    found: list[Finding] = []
    for i, layer in enumerate(ordered):
        if progress is not None:
            progress(layer, i, len(ordered))
        layer_found: list[Finding] = []
        for check in _CHECKS[layer]:
            layer_found.extend(_run_one(check, layer, ctx))
        if layer_found:
            try:
                names = _labels(ctx, layer)
            except DatabaseClosedError:
                raise
            except Exception:  # the rows could not be read: the findings keep their ids alone
                names = {}
            layer_found = _labelled(layer_found, names)
        layer_found.sort(key=lambda f: SEVERITIES.index(f.severity))
        found.extend(layer_found)
    if progress is not None:
        progress("done", len(ordered), len(ordered))
    return HealthReport(found, ordered, ctx.now)
