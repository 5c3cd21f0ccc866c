"""A scan as plain lines (``philont-memory privacy scan`` and the MCP tool): every file read, the counts
by kind and by layer, then each finding with its masked preview, then what was skipped. The lines hold
stored text (row ids): a caller that prints them makes control characters visible."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def file_name(file: str | None) -> str:
    """``database`` for the live file, ``backups/<name>`` for a backup."""
    return "database" if file is None else f"backups/{Path(file).name}"


def _counts(title: str, counts: dict[str, int]) -> list[str]:
    width = max((len(k) for k in counts), default=0)
    return (
        [f"{title}:", *(f"  {k:<{width}}  {n:>6}" for k, n in counts.items())]
        if counts
        else [
            f"{title}:",
            "  (none)",
        ]
    )


def scan_lines(data: dict[str, Any]) -> list[str]:
    """The lines of a scan's JSON form (:func:`core.privacy.scan.result_json`)."""
    out = []
    for s in data["files"]:
        rows = sum(s["layers"].values())
        state = f"not read: {s['error']}" if s["error"] is not None else f"{rows} rows read"
        out.append(f"{file_name(s['file'])}: {state}")
    out += _counts("by kind", data["by_kind"])
    out += _counts("by layer", data["by_layer"])
    if data["findings"]:
        out.append("findings:")
    for f in data["findings"]:
        where = "" if f["file"] is None else f"  in {file_name(f['file'])}"
        place = f"{f['table']}:{f['row']} {f['column']} [{f['start']}:{f['end']}]"
        out.append(
            f"  {f['id']}  {f['confidence']:.2f}  {f['kind']:<25} {f['layer']:<15} {place}  {f['preview']}{where}"
        )
    for s in data["skipped"]:
        what = f"{s['table']}:{s['row']} {s['column']}" if s["row"] is not None else s["table"]
        detail = f": {s['detail']}" if s["detail"] else ""
        out.append(f"skipped {file_name(s['file'])} {what} ({s['problem']}{detail})")
    n, allowed = len(data["findings"]), len(data["allowed"])
    out.append(
        f"({n} finding{'s' if n != 1 else ''}; {allowed} allowed, not listed; {len(data['skipped'])} skipped)"
    )
    return out
