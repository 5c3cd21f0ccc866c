"""``export``: one layer to a JSON, JSONL or CSV file (0600)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from core.cli.args import optional_time
from core.cli.command import Command, Ctx
from core.cli.output import CommandError, UsageError
from core.export import FORMATS as EXPORT_FORMATS
from core.export import LAYERS as _EXPORT_LAYER_SPECS
from core.paths import expand_user, inspect_path, real_path, replaceable_target

EXPORT_LAYERS = tuple(_EXPORT_LAYER_SPECS)
_FORMAT_OF_SUFFIX = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".csv": "csv"}


def configure_export(p: argparse.ArgumentParser) -> None:
    p.add_argument("layer", metavar="LAYER", choices=EXPORT_LAYERS, help=", ".join(EXPORT_LAYERS))
    p.add_argument("out", metavar="OUT", help="the file to write")
    p.add_argument("--format", choices=EXPORT_FORMATS, help="default: from OUT's extension, else jsonl")
    p.add_argument("--bom", action="store_true", help="start with a UTF-8 byte-order mark (Excel and CSV)")
    p.add_argument("--since", metavar="T", help="rows at or after T (the layer's time column)")
    p.add_argument("--until", metavar="T", help="rows at or before T")
    p.add_argument("--session", metavar="ID", action="append", help="only these sessions (repeatable)")
    p.add_argument("--force", action="store_true", help="replace OUT when it exists")


def _is_database_file(ctx: Ctx, out: Path) -> bool:
    """Whether ``out`` names the database or one of its ``-wal``/``-shm`` files."""
    for suffix in ("", "-wal", "-shm"):
        f = Path(str(ctx.path) + suffix)
        try:
            if os.path.samefile(out, f):
                return True
        except OSError:
            if real_path(out) == real_path(f):
                return True
    return False


def _check_target(ctx: Ctx, out: Path) -> None:
    """Refuse an OUT that is the database, not a file, or exists without ``--force``."""
    if _is_database_file(ctx, out):
        raise UsageError(f"{out} is the database itself; choose another file to export to")
    if inspect_path(out)[0] not in ("missing", "regular", "folder"):
        replaceable_target(out, "the export")  # a FIFO, socket, device or link loop: refused
    if os.path.lexists(out) and not out.is_dir() and not ctx.args.force:
        raise CommandError(f"{out} already exists; it was left alone (--force replaces it)")


def _progress(ctx: Ctx, shown: list[bool]) -> Callable[[int, int], None]:
    quiet = ctx.out.as_json or not sys.stderr.isatty()

    def progress(done: int, total: int) -> None:
        if not quiet:
            shown[0] = True
            sys.stderr.write(f"\rexporting {ctx.args.layer}: {done}/{total}".ljust(40))
            sys.stderr.flush()

    return progress


def _export(ctx: Ctx, out: Path, fmt: str, since: int | None, until: int | None) -> Any:
    from core.export import export_layer, layer_columns

    a = ctx.args
    shown = [False]
    with ctx.open() as db:
        filters = None
        if a.session:
            if "session_id" not in layer_columns(db, a.layer):
                raise UsageError(f"--session does not apply to the {a.layer} layer (it has no sessions)")
            filters = {"session_id": list(dict.fromkeys(a.session))}
        try:
            return export_layer(
                db,
                a.layer,
                out,
                fmt,
                filters=filters,
                since=since,
                until=until,
                bom=a.bom,
                progress=_progress(ctx, shown),
            )
        finally:
            if shown[0]:
                sys.stderr.write("\r" + " " * 40 + "\r")
                sys.stderr.flush()


def _print_export(ctx: Ctx, result: Any) -> None:
    ctx.out.text(
        f"wrote {result.rows} row{'s' if result.rows != 1 else ''} of {ctx.args.layer} to {result.path} "
        f"({result.format}, {result.bytes} bytes)"
    )
    if result.damaged_rows:
        where = (
            "their values are written as shown (U+FFFD for bytes that are not UTF-8); export JSON "
            "or JSONL to keep the stored bytes"
            if result.format == "csv"
            else "each has a _damaged member with what is unreadable and the stored bytes"
        )
        ctx.out.text(f"⚠ {result.damaged_rows} row(s) hold unreadable values: {where}")


def run_export(ctx: Ctx) -> int:
    a = ctx.args
    out = expand_user(a.out)
    fmt = a.format or _FORMAT_OF_SUFFIX.get(out.suffix.lower(), "jsonl")
    since = optional_time(a.since, "--since")
    until = optional_time(a.until, "--until")
    _check_target(ctx, out)
    result = _export(ctx, out, fmt, since, until)
    if ctx.out.as_json:
        ctx.out.json(
            {
                "path": str(result.path),
                "layer": a.layer,
                "format": result.format,
                "rows": result.rows,
                "bytes": result.bytes,
                "columns": result.columns,
                "damaged_rows": result.damaged_rows,
            }
        )
    else:
        _print_export(ctx, result)
    return 0


COMMANDS = (
    Command("export", "export one layer to a JSON, JSONL or CSV file (0600)", run_export, configure_export),
)
