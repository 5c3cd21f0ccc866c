"""``check`` (the file's integrity and its full-text indexes) and ``backup`` (a copy in ``backups/``)."""

from __future__ import annotations

import argparse

from core.cli.command import Command, Ctx
from core.cli.output import CommandError, one_line
from core.db import quick_check


def configure_check(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quick", action="store_true", help="quick_check only (faster on big files)")


def run_check(ctx: Ctx) -> int:
    from core import schema

    a = ctx.args
    with ctx.open() as db, db.lock:
        qc = quick_check(db.conn)
        integrity = None
        if not a.quick:
            rows = db.conn.execute("PRAGMA integrity_check").fetchall()
            integrity = "\n".join(str(r[0]) for r in rows) or "ok"
        with db.read_snapshot() as conn:  # the counts of index and content from one moment
            fts = schema.fts_consistency(conn)
    ok = qc == "ok" and integrity in (None, "ok") and not fts
    result = {"path": str(ctx.path), "quick_check": qc, "integrity_check": integrity, "fts": fts, "ok": ok}
    if ctx.out.as_json:
        ctx.out.json(result)
    else:
        o = ctx.out.text
        o(f"quick_check      {one_line(qc) if qc != 'ok' else 'ok'}")
        o(f"integrity_check  {'skipped (--quick)' if integrity is None else one_line(integrity)}")
        o(f"fts              {'consistent' if not fts else '; '.join(fts)}")
        o("ok" if ok else "PROBLEMS FOUND")
    if not ok:
        first = qc if qc != "ok" else (integrity if integrity not in (None, "ok") else fts[0])
        raise CommandError(f"check failed: {one_line(str(first))}")
    return 0


def run_backup(ctx: Ctx) -> int:
    with ctx.open() as db:
        dest = db.backup()
    size = dest.stat().st_size
    if ctx.out.as_json:
        ctx.out.json({"path": str(ctx.path), "backup": str(dest), "bytes": size})
    else:
        ctx.out.text(f"{dest} ({size} bytes)")
    return 0


COMMANDS = (
    Command(
        "check", "integrity_check (or quick_check) and FTS/content consistency", run_check, configure_check
    ),
    Command(
        "backup",
        "write backups/philont-desktop-<database>-YYYYMMDDTHHmmss.sqlite (keeps the newest 28 of these; the "
        "agent's memory-*.sqlite backups are never touched)",
        run_backup,
    ),
)
