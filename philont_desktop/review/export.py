"""The review as a digest a person can keep or share: Markdown (in the interface's language) or JSON.

The texts are made on the GUI thread (:func:`digest_texts`: translated summaries and headings, cheap);
:func:`write_digest` renders and writes the file on the task lane. JSON is the command line's stable
``changes --json`` shape plus ``reviewed`` (the ids marked as looking right).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from core.changes import ChangeSet
from core.jsutil import escape_lone_surrogates, json_safe

__all__ = ["DigestTexts", "markdown", "write_digest"]


@dataclass
class DigestTexts:
    """Everything the Markdown shows, already in the interface's language."""

    title: str
    baseline: str
    layer_names: dict[str, str]
    summaries: dict[str, str]  # change id -> one-line summary
    times: dict[str, str]  # change id -> "3 h ago · 2026-06-15 09:00" (or "time unknown")
    reviewed_label: str = "reviewed"
    notices: list[str] = field(default_factory=list)


def _md(text: str) -> str:
    """Stored text as Markdown text: one line, Markdown's active characters escaped."""
    one = " ".join(str(text).split())
    return "".join("\\" + c if c in "\\`*_[]<>|" else c for c in one)


def markdown(cs: ChangeSet, texts: DigestTexts, reviewed: frozenset[str] = frozenset()) -> str:
    lines = [f"# {_md(texts.title)}", "", _md(texts.baseline), ""]
    for layer, items in cs.by_layer().items():
        if not items:
            continue
        lines += [f"## {_md(texts.layer_names.get(layer, layer))} ({len(items)})", ""]
        for it in items:
            mark = f" — {_md(texts.reviewed_label)}" if it.id in reviewed else ""
            when = texts.times.get(it.id, "")
            summary = texts.summaries.get(it.id, it.summary)
            lines.append(f"- {_md(summary)} · {_md(when)}{mark}")
        lines.append("")
    for n in texts.notices:
        lines += [f"> {_md(n)}", ""]
    return "\n".join(lines).rstrip() + "\n"


def write_digest(
    path: str, fmt: str, cs: ChangeSet, texts: DigestTexts | None, reviewed: frozenset[str], db_path: str
) -> str:
    """Render the digest and write it to ``path`` (a temporary file renamed into place); returns ``path``."""
    if fmt == "json":
        data = {"path": db_path, **cs.to_json(), "reviewed": sorted(reviewed)}
        body = escape_lone_surrogates(json.dumps(json_safe(data), ensure_ascii=False, indent=2)) + "\n"
    else:
        assert texts is not None
        body = markdown(cs, texts, reviewed)
    target = Path(path)
    tmp = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(body, encoding="utf-8")
        os.replace(tmp, target)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return str(target)
