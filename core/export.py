"""Exporting memory to files: a whole layer or the rows of a view, as JSON, JSONL or CSV.

* **Streaming.** A layer is read in keyset pages by ``rowid`` (each page its own short read, so a long
  export never pins a WAL snapshot while the agent writes) and written as it is read: a million-row
  table never sits in memory. Rows the agent appends during the export are included when they land
  after the page being read.
* **Safe files.** The output is written to a temporary name in the target directory, created 0600,
  synced and renamed into place at the end. Only a regular file is replaced (a symbolic link's target
  file, the link kept); a FIFO, socket, device, folder or link loop at the destination is refused. A cancelled or failed export removes the temporary file
  and leaves no output (an existing file at the target stays as it was).
* **Formats.** ``json``: one array of objects; ``jsonl``: one object per line; ``csv``: a header line,
  then one line per row (RFC 4180 quoting, ``\\r\\n`` line ends). Text is UTF-8; ``bom=True`` writes a
  byte-order mark so that Excel reads CSV as UTF-8. JSON-valued columns (``*_json``,
  ``trigger_keywords``, ``revision_history``) are exported as their stored text in CSV, and as parsed
  JSON values in JSON/JSONL unless ``parse_json=False`` (text that does not parse is kept as text).
  NULL is ``null`` in JSON and an empty field in CSV; a BLOB becomes its hex string.
* **Damaged values** (:mod:`core.damage`) are exported as values: text that is not UTF-8 as the text
  with U+FFFD, a non-finite number as ``null`` (empty in CSV), JSON that does not parse or nests too
  deep as its text. In JSON and JSONL a row with such a value gets a ``_damaged`` member
  (``{column: {problem, message, bytes?, hex?, stored?}}``, the stored bytes in full), so nothing is
  lost; :attr:`ExportResult.damaged_rows` counts those rows in every format.
* **Progress and cancel.** ``progress(done, total_estimate)`` after every page; ``cancel()`` is
  asked between pages and rows and raises :class:`ExportCancelledError` when it returns true.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
import re
import secrets
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.damage import Damage, UnreadableText, loads_json
from core.errors import MemoryError_, ValidationError_
from core.paths import expand_user, fsync_dir, replaceable_target

if TYPE_CHECKING:
    from core.db import MemoryDB

FORMATS: tuple[str, ...] = ("json", "jsonl", "csv")
EXTENSIONS = {"json": ".json", "jsonl": ".jsonl", "csv": ".csv"}
PAGE_SIZE = 2000
BUFFER_BYTES = 1 << 18


@dataclass(frozen=True)
class Layer:
    """One exportable layer: its table and the column that orders it in time (for ``since``/``until``)."""

    name: str
    table: str
    time_column: str | None
    json_columns: tuple[str, ...] = ()


LAYERS: dict[str, Layer] = {
    "messages": Layer("messages", "memory_raw_messages", "timestamp"),
    "actions": Layer("actions", "memory_actions", "timestamp", ("params_json",)),
    "notes": Layer("notes", "memory_notes", "created_at"),
    "facts": Layer("facts", "memory_facts", "created_at", ("value_json",)),
    "skills": Layer("skills", "memory_skills", "created_at", ("trigger_keywords", "revision_history")),
    "calendar": Layer("calendar", "memory_calendar", "starts_at"),
    "schedules": Layer("schedules", "memory_schedules", "next_run_at", ("payload_json",)),
}

__all__ = [
    "EXTENSIONS",
    "FORMATS",
    "LAYERS",
    "ExportCancelledError",
    "ExportResult",
    "Layer",
    "default_file_name",
    "export_layer",
    "export_rows",
    "layer_columns",
]


class ExportCancelledError(MemoryError_):
    """The export was cancelled; no output file was left behind."""

    default_code = "export.cancelled"


@dataclass
class ExportResult:
    path: Path
    rows: int
    format: str
    columns: list[str] = field(default_factory=list)
    bytes: int = 0
    damaged_rows: int = 0


ProgressFn = Callable[[int, int], Any]
CancelFn = Callable[[], bool]


def default_file_name(name: str, fmt: str, stamp: str = "") -> str:
    """``<name>[-<stamp>].<ext>`` (``stamp`` e.g. ``20260615-1200``)."""
    _check_format(fmt)
    safe = "".join(c if c.isalnum() or c in "-_." else "-" for c in name).strip("-.") or "export"
    return f"{safe}{'-' + stamp if stamp else ''}{EXTENSIONS[fmt]}"


def _check_format(fmt: str) -> None:
    if fmt not in FORMATS:
        raise ValidationError_(
            f"Unknown export format {fmt!r}: use one of {', '.join(FORMATS)}.",
            code="export.format_unknown",
            params={"format": str(fmt), "formats": list(FORMATS)},
        )


# -- values -------------------------------------------------------------------------------------------------


def _json_value(v: Any) -> Any:
    if isinstance(v, bytes | bytearray | memoryview):
        return bytes(v).hex()
    if isinstance(v, float) and not math.isfinite(v):
        return None  # as JSON.stringify writes Infinity / NaN
    return v


def _finite(v: Any) -> Any:
    """A parsed JSON value with every non-finite number as ``None`` (JSON has neither)."""
    if isinstance(v, float):
        return v if math.isfinite(v) else None
    if isinstance(v, list):
        return [_finite(x) for x in v]
    if isinstance(v, dict):
        return {k: _finite(x) for k, x in v.items()}
    return v


def _damage_of(col: str, v: Any) -> Damage | None:
    """What is damaged about one exported value (``None`` when it is as its column promises)."""
    if isinstance(v, UnreadableText):
        return Damage(col, "not_utf8", f"{col}: text that is not valid UTF-8 (exported with U+FFFD)", v.raw)
    if isinstance(v, bytes | bytearray | memoryview):
        b = bytes(v)
        return Damage(col, "blob", f"{col}: binary data (a BLOB of {len(b)} bytes), exported as hex", b)
    if isinstance(v, float) and not math.isfinite(v):
        return Damage(col, "non_finite", f"{col}: a non-finite number, exported as null", stored=v)
    return None


# A JSON escape of half a surrogate pair (``\\ud800``): JSON text may hold one, UTF-8 cannot.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def _has_lone_surrogate(v: Any) -> bool:
    if isinstance(v, str):
        return _LONE_SURROGATE.search(v) is not None
    if isinstance(v, list):
        return any(_has_lone_surrogate(x) for x in v)
    if isinstance(v, dict):
        return any(_has_lone_surrogate(k) or _has_lone_surrogate(x) for k, x in v.items())
    return False


def _without_lone_surrogates(v: Any) -> Any:
    """A parsed JSON value with each lone surrogate as U+FFFD (the stored text is in ``_damaged``)."""
    if isinstance(v, str):
        return _LONE_SURROGATE.sub("\ufffd", v)
    if isinstance(v, list):
        return [_without_lone_surrogates(x) for x in v]
    if isinstance(v, dict):
        return {_without_lone_surrogates(k): _without_lone_surrogates(x) for k, x in v.items()}
    return v


def _lone_surrogate_damage(col: str, stored: str) -> dict[str, Any]:
    raw = stored.encode("utf-8")
    d = Damage(
        col,
        "lone_surrogate",
        f"{col}: JSON with half a surrogate pair (\\uD800-\\uDFFF alone), which UTF-8 cannot hold "
        "(exported with U+FFFD; the stored text is in hex)",
        raw,
    )
    out = d.to_json() | {"hex": d.hex()}
    out.pop("hexTruncated", None)
    return out


def _csv_value(v: Any) -> str:
    if v is None:
        return ""
    if isinstance(v, bytes | bytearray | memoryview):
        return bytes(v).hex()
    if isinstance(v, bool):
        return "1" if v else "0"
    if isinstance(v, float):
        return repr(v) if math.isfinite(v) else ""
    if isinstance(v, dict | list):
        return json.dumps(_finite(v), ensure_ascii=False, separators=(",", ":"))
    return str(v)


# -- writers -------------------------------------------------------------------------------------------------


class _Writer:
    """Writes rows in one format to a binary file handle, buffering into ~1 MB writes."""

    def __init__(self, fh: Any, fmt: str, columns: Sequence[str], json_columns: Iterable[str], parse: bool):
        self.fh = fh
        self.fmt = fmt
        self.columns = list(columns)
        self.json_columns = frozenset(json_columns) if parse else frozenset()
        self.rows = 0
        self.bytes = 0
        self.damaged_rows = 0
        self._json_cols = frozenset(json_columns)
        self._buf = io.StringIO()
        self._csv = csv.writer(self._buf, lineterminator="\r\n") if fmt == "csv" else None

    def _flush(self, force: bool = False) -> None:
        if force or self._buf.tell() >= BUFFER_BYTES:
            data = self._buf.getvalue().encode("utf-8")
            self.fh.write(data)
            self.bytes += len(data)
            self._buf.seek(0)
            self._buf.truncate()

    def begin(self) -> None:
        if self.fmt == "csv":
            assert self._csv is not None
            self._csv.writerow(self.columns)
        elif self.fmt == "json":
            self._buf.write("[")

    def row(self, values: Mapping[str, Any], known: Mapping[str, Damage] | None = None) -> None:
        """Write one row; ``known``: its damage as the row's model reads it (:func:`core.models.row_damage`)."""
        damaged: dict[str, Any] = {}
        for c, kd in (known or {}).items():
            damaged[c] = kd.to_json() | ({"hex": kd.hex()} if kd.raw is not None else {})
            damaged[c].pop("hexTruncated", None)
        obj: dict[str, Any] = {}
        for c in self.columns:
            v = values.get(c)
            if c in self._json_cols and isinstance(v, str):
                parsed, problem, message = loads_json(v)
                if problem is not None and c not in damaged:
                    damaged[c] = Damage(c, problem, f"{c}: {message}").to_json()
                obj[c] = v if problem is not None and problem != "out_of_range" else _finite(parsed)
                if _SURROGATE_ESCAPE.search(v) and _has_lone_surrogate(obj[c]):
                    obj[c] = _without_lone_surrogates(obj[c])
                    damaged.setdefault(c, _lone_surrogate_damage(c, v))
            else:
                if v is not None and type(v) is not int and type(v) is not str and c not in damaged:
                    d = _damage_of(c, v)
                    if d is not None:
                        damaged[c] = d.to_json() | ({"hex": d.hex()} if d.raw is not None else {})
                        damaged[c].pop("hexTruncated", None)
                obj[c] = _json_value(v)
        if damaged:
            self.damaged_rows += 1
        if self.fmt == "csv":
            assert self._csv is not None
            self._csv.writerow([_csv_value(values.get(c)) for c in self.columns])
        else:
            if not self.json_columns:  # parse_json=False: JSON columns as their text
                for c in self._json_cols:
                    if c in obj:
                        obj[c] = _json_value(values.get(c))
            if damaged:
                obj["_damaged"] = damaged
            text = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=str)
            if self.fmt == "json":
                self._buf.write(("\n" if self.rows == 0 else ",\n") + text)
            else:
                self._buf.write(text + "\n")
        self.rows += 1
        self._flush()

    def end(self) -> None:
        if self.fmt == "json":
            self._buf.write("\n]\n" if self.rows else "]\n")
        self._flush(force=True)


def _write_atomically(
    path: str | os.PathLike[str],
    fmt: str,
    columns: Sequence[str],
    json_columns: Iterable[str],
    rows_fn: Callable[[_Writer], None],
    *,
    bom: bool,
    parse_json: bool,
) -> ExportResult:
    _check_format(fmt)
    target = expand_user(path)
    if target.is_dir():
        raise ValidationError_(
            f"{target} is a folder; choose a file name to export to.",
            code="export.folder",
            params={"path": str(target)},
        )
    # Only a regular file is replaced (through its symbolic links): never a FIFO, socket or device.
    target = replaceable_target(target, "the export")
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise ValidationError_(
            f"The folder {directory} does not exist.",
            code="export.folder_missing",
            params={"path": str(directory)},
        )
    tmp = directory / f".{target.name}.partial-{os.getpid()}-{secrets.token_hex(4)}"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    ok = False
    owned = False
    try:
        with contextlib.suppress(OSError):
            os.chmod(tmp, 0o600)  # whatever the umask did
        fh_raw = os.fdopen(fd, "wb")
        owned = True
        with fh_raw as fh:
            if bom:
                fh.write(b"\xef\xbb\xbf")
            writer = _Writer(fh, fmt, columns, json_columns, parse_json)
            writer.begin()
            rows_fn(writer)
            writer.end()
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, target)
        ok = True
        fsync_dir(directory)
        return ExportResult(
            target, writer.rows, fmt, list(columns), writer.bytes + (3 if bom else 0), writer.damaged_rows
        )
    finally:
        if not ok:
            if not owned:
                with contextlib.suppress(OSError):
                    os.close(fd)
            with contextlib.suppress(OSError):
                tmp.unlink()


# -- layers ----------------------------------------------------------------------------------------------------


def layer_columns(db: MemoryDB, layer: str) -> list[str]:
    """The columns of a layer's table, in table order."""
    spec = _layer(layer)
    with db.lock:
        return [r[1] for r in db.conn.execute(f'PRAGMA table_info("{spec.table}")')]


def _layer(layer: str) -> Layer:
    spec = LAYERS.get(layer)
    if spec is None:
        raise ValidationError_(
            f"Unknown layer {layer!r}: use one of {', '.join(LAYERS)}.",
            code="export.layer_unknown",
            params={"layer": str(layer), "layers": list(LAYERS)},
        )
    return spec


def _where(
    spec: Layer,
    columns: Sequence[str],
    filters: Mapping[str, Any] | None,
    since: int | None,
    until: int | None,
) -> tuple[list[str], list[Any]]:
    clauses: list[str] = []
    args: list[Any] = []
    for col, value in (filters or {}).items():
        if col not in columns:
            raise ValidationError_(
                f"The {spec.name} layer has no column {col!r} to filter on.",
                code="export.filter_column_unknown",
                params={"layer": spec.name, "column": col},
            )
        if value is None:
            clauses.append(f'"{col}" IS NULL')
        elif isinstance(value, list | tuple | set | frozenset):
            values = list(value)
            if not values:
                clauses.append("0")
            else:
                clauses.append(f'"{col}" IN ({", ".join("?" * len(values))})')
                args.extend(values)
        else:
            clauses.append(f'"{col}" = ?')
            args.append(value)
    if (since is not None or until is not None) and spec.time_column is None:
        raise ValidationError_(
            f"The {spec.name} layer has no time column.",
            code="export.no_time_column",
            params={"layer": spec.name},
        )
    if since is not None:
        clauses.append(f'"{spec.time_column}" >= ?')
        args.append(int(since))
    if until is not None:
        clauses.append(f'"{spec.time_column}" <= ?')
        args.append(int(until))
    return clauses, args


def _estimate(db: MemoryDB, table: str, where: list[str], args: list[Any]) -> int:
    """A cheap total: ``max(rowid) - min(rowid) + 1`` without filters (never a scan), else a count."""
    with db.lock:
        if where:
            row = db.conn.execute(
                f"SELECT count(*) FROM {table} WHERE {' AND '.join(where)}", args
            ).fetchone()
            return int(row[0] or 0)
        row = db.conn.execute(f"SELECT min(rowid), max(rowid) FROM {table}").fetchone()
    if row[0] is None:
        return 0
    return int(row[1]) - int(row[0]) + 1


def _checked_columns(spec: Layer, all_columns: list[str], columns: Sequence[str] | None) -> list[str]:
    """The columns to export (default: all, in table order); refused when the table or a column is missing."""
    if not all_columns:
        raise ValidationError_(
            f"This database has no {spec.table} table.", code="db.table_missing", params={"table": spec.table}
        )
    cols = list(columns) if columns is not None else all_columns
    unknown = [c for c in cols if c not in all_columns]
    if unknown:
        raise ValidationError_(
            f"The {spec.name} layer has no column(s) {', '.join(unknown)}.",
            code="export.columns_unknown",
            params={"layer": spec.name, "columns": unknown},
        )
    return cols


@dataclass(frozen=True)
class _PagedQuery:
    """The rows of one layer to export, read a page at a time in rowid order."""

    db: MemoryDB
    table: str
    columns: list[str]
    where: list[str]
    args: list[Any]
    page: int


def _write_pages(
    writer: _Writer, q: _PagedQuery, total: int, progress: ProgressFn | None, cancel: CancelFn | None
) -> None:
    """Write every row of ``q``, page by page, with progress and cancellation between pages."""
    last: int | None = None
    estimate = total
    if progress is not None:
        progress(0, estimate)
    while True:
        if cancel is not None and cancel():
            raise ExportCancelledError("The export was cancelled; no file was written.")
        clauses = list(q.where)
        page_args = list(q.args)
        if last is not None:
            clauses.append("rowid > ?")
            page_args.append(last)
        # Every column is read, so that each row's damage is what its model reads (core.damage).
        from core.models import row_damage  # pydantic: not imported with the app's File menu

        sql = (
            f'SELECT rowid AS "__rowid__", * FROM {q.table}'
            + (f" WHERE {' AND '.join(clauses)}" if clauses else "")
            + " ORDER BY rowid LIMIT ?"
        )
        with q.db.lock:
            batch = q.db.conn.execute(sql, (*page_args, q.page)).fetchall()
        for r in batch:
            writer.row({c: r[c] for c in q.columns}, row_damage(q.table, r))
        if batch:
            last = int(batch[-1][0])
        estimate = max(estimate, writer.rows)
        if progress is not None:
            progress(writer.rows, estimate if len(batch) == q.page else writer.rows)
        if len(batch) < q.page:
            break


def export_layer(
    db: MemoryDB,
    layer: str,
    path: str | os.PathLike[str],
    fmt: str = "jsonl",
    *,
    filters: Mapping[str, Any] | None = None,
    since: int | None = None,
    until: int | None = None,
    columns: Sequence[str] | None = None,
    bom: bool = False,
    parse_json: bool = True,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
    page_size: int = PAGE_SIZE,
) -> ExportResult:
    """Export the rows of ``layer`` (see :data:`LAYERS`) to ``path`` in storage order.

    ``filters`` are column equalities (a list/tuple means "one of"; ``None`` means NULL); ``since`` /
    ``until`` bound the layer's time column (both inclusive). ``columns`` picks and orders the columns
    (default: all, in table order).
    """
    _check_format(fmt)
    spec = _layer(layer)
    all_columns = layer_columns(db, layer)
    cols = _checked_columns(spec, all_columns, columns)
    where, args = _where(spec, all_columns, filters, since, until)
    total = _estimate(db, spec.table, where, args)
    query = _PagedQuery(db, spec.table, cols, where, args, max(1, int(page_size)))

    def _rows(writer: _Writer) -> None:
        _write_pages(writer, query, total, progress, cancel)

    return _write_atomically(path, fmt, cols, spec.json_columns, _rows, bom=bom, parse_json=parse_json)


def export_rows(
    rows: Iterable[Mapping[str, Any]],
    path: str | os.PathLike[str],
    fmt: str = "jsonl",
    *,
    columns: Sequence[str],
    json_columns: Iterable[str] = (),
    total: int | None = None,
    bom: bool = False,
    parse_json: bool = True,
    progress: ProgressFn | None = None,
    cancel: CancelFn | None = None,
    every: int = 500,
) -> ExportResult:
    """Export already-selected rows (a view: what a table shows) with the same file guarantees.

    ``rows`` may be any iterable (a generator streams); ``total`` is the estimate given to
    ``progress``. Missing keys are exported as NULL.
    """
    cols = list(columns)
    if not cols:
        raise ValidationError_("Nothing to export: the view has no columns.", code="export.no_columns")
    estimate = int(total) if total is not None else 0

    def _rows(writer: _Writer) -> None:
        if progress is not None:
            progress(0, estimate)
        for r in rows:
            if cancel is not None and writer.rows % every == 0 and cancel():
                raise ExportCancelledError("The export was cancelled; no file was written.")
            writer.row(r)
            if progress is not None and writer.rows % every == 0:
                progress(writer.rows, max(estimate, writer.rows))
        if cancel is not None and cancel():
            raise ExportCancelledError("The export was cancelled; no file was written.")
        if progress is not None:
            progress(writer.rows, writer.rows)

    return _write_atomically(path, fmt, cols, json_columns, _rows, bom=bom, parse_json=parse_json)
