"""The doctor's findings grouped by layer (:class:`FindingGroups`: the layers that have findings, each
layer's findings worst first) and the words a line of the findings tree shows. Plain Python: the tree
(:class:`~philont_desktop.health.doctor.tree.FindingsTree`) holds these words in items Qt reads itself.
A finding's text is its message in the interface's language (stored names in it are shown as text: the
views are plain text)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from core.health.finding import LAYERS, SEVERITIES, Finding
from philont_desktop import messages
from philont_desktop.health.doctor.texts import layer_name
from philont_desktop.widgets import plain

__all__ = [
    "COL_FINDING",
    "COL_SEVERITY",
    "FindingGroups",
    "finding_line",
    "finding_text",
    "layer_counts",
    "severity_role",
]

COL_FINDING, COL_SEVERITY = range(2)
_STATUS_OF = {"fail": "error", "warn": "editing", "info": "changed", "ok": "live"}


def severity_role(severity: str) -> str:
    """The theme's status colour of a severity (``fail``, ``warn``, ``info``, ``ok``)."""
    return _STATUS_OF.get(severity, "paused")


def layer_counts(findings: Iterable[Finding]) -> dict[str, dict[str, int]]:
    """``{layer: {"fail": n, "warn": n, "info": n}}`` for every layer."""
    out = {layer: dict.fromkeys(SEVERITIES, 0) for layer in LAYERS}
    for f in findings:
        if f.layer in out and f.severity in out[f.layer]:
            out[f.layer][f.severity] += 1
    return out


def finding_text(f: Finding) -> str:
    return messages.text(f.message.code or f.code, f.message.params, f.message.message)


def finding_line(f: Finding) -> str:
    """What the finding's line in the tree says: its message on one line, at most 600 characters."""
    return plain.plain(finding_text(f), 600, one_line=True)


def _identity(f: Finding) -> tuple[Any, ...]:
    """Which finding this is, checked again (compared, never hashed: the targets themselves; a repr of
    the 818 findings' targets at 1M, up to 168,680 characters each, took 12 ms)."""
    return f.code, f.layer, f.targets


def _shown(f: Finding) -> tuple[Any, ...]:
    """What a finding's line is made of (its measure is shown only beside the tree)."""
    return f.code, f.severity, f.layer, f.targets, f.message


class FindingGroups:
    """The layers that have findings (known layers first, in their order) and each layer's findings,
    worst first."""

    def __init__(self) -> None:
        self.layers: list[str] = []
        self.rows: dict[str, list[Finding]] = {}
        self._lines: list[tuple[Any, ...]] = []  # what the lines shown are made of, in their order

    def set_findings(self, findings: Iterable[Finding]) -> bool:
        """Group ``findings``; ``False`` when their lines are those of the findings before, line for line
        (a check that found the same things, only their measures moved: the tree can stay as it is)."""
        order = {s: i for i, s in enumerate(SEVERITIES)}
        groups: dict[str, list[Finding]] = {}
        for f in findings:
            groups.setdefault(f.layer, []).append(f)
        layers = [la for la in LAYERS if la in groups] + sorted(set(groups) - set(LAYERS))
        rows = {la: sorted(groups[la], key=lambda f: order.get(f.severity, 9)) for la in layers}
        lines = [_shown(f) for la in layers for f in rows[la]]
        changed = lines != self._lines
        self._lines = lines
        self.layers, self.rows = layers, rows
        return changed

    def findings(self) -> list[Finding]:
        return [f for la in self.layers for f in self.rows[la]]

    def finding(self, layer_pos: int, row: int) -> Finding | None:
        """The ``row``-th finding of the ``layer_pos``-th layer (``None`` where there is none)."""
        if not 0 <= layer_pos < len(self.layers):
            return None
        rows = self.rows[self.layers[layer_pos]]
        return rows[row] if 0 <= row < len(rows) else None

    def position(self, f: Finding) -> tuple[int, int] | None:
        """Where ``f`` is (layer, row), or the finding of the same code about the same rows (its measure
        may have moved since: a new check of the same thing)."""
        key = _identity(f)
        for pos, layer in enumerate(self.layers):
            for row, g in enumerate(self.rows[layer]):
                if g is f or _identity(g) == key:
                    return pos, row
        return None

    def layer_line(self, layer: str) -> str:
        """What a layer's line says: its name and how many findings it has."""
        return f"{layer_name(layer)} ({len(self.rows.get(layer, []))})"
