"""``info``: what the database file is and holds."""

from __future__ import annotations

from typing import Any

from core import MAX_KNOWN_SCHEMA_VERSION, MIN_KNOWN_SCHEMA_VERSION
from core.cli.command import Command, Ctx
from core.cli.output import one_line

_GROUP_TITLES = (
    ("agent", "agent tables"),
    ("project", "this project's tables"),
    ("search", "full-text indexes"),
    ("sqlite", "SQLite's own tables"),
    ("unknown", "unknown tables"),
)


def _info_json(db: Any, r: Any, inventory: Any) -> dict[str, Any]:
    from core import schema, tables

    rows = {t.name: t.rows for t in inventory}
    return {
        "path": str(db.path),
        "engine": r.engine,
        "sqlite_version": r.sqlite_version,
        "schema_version": r.schema_version,
        "schema_version_raw": r.schema_version_raw,
        "schema_status": r.schema_status,
        "journal_mode": r.journal_mode,
        "read_only": r.read_only,
        "writable": r.writable,
        "read_only_reason": r.read_only_reason,
        "read_only_code": r.read_only_code,
        "read_only_params": r.read_only_params,
        "immutable": r.immutable,
        "quick_check": r.quick_check,
        "complete": r.complete,
        "missing": {
            "tables": r.missing_tables,
            "peripheral_tables": r.missing_peripheral_tables,
            "fts": r.missing_fts,
            "triggers": r.missing_triggers,
            "indexes": r.missing_indexes,
            "additive_columns": r.missing_additive_columns,
        },
        "row_counts": {t: rows.get(t) for t in schema.CORE_TABLES},
        "tables": tables.grouped(inventory),
        "warnings": r.warnings,
        "notices": [n.to_json() for n in r.notices],
    }


def _print_info(ctx: Ctx, r: Any, info: dict[str, Any]) -> None:
    o = ctx.out.text
    o(f"path            {info['path']}")
    o(f"engine          {r.engine} (SQLite {r.sqlite_version})")
    version = {
        "newer": f"{r.schema_version} (newer than {MAX_KNOWN_SCHEMA_VERSION})",
        "older": f"{r.schema_version} (older than {MIN_KNOWN_SCHEMA_VERSION})",
        "invalid": f"{one_line(repr(r.schema_version_raw))} (not a version number)",
        "missing": "none",
    }.get(r.schema_status, str(r.schema_version))
    o(f"schema version  {version}")
    o(f"journal mode    {r.journal_mode}")
    o(f"quick_check     {r.quick_check}")
    o(f"writable        {'yes' if r.writable else 'no: ' + str(r.read_only_reason)}")
    missing = [(k, v) for k, v in info["missing"].items() if v]
    o(
        "missing         "
        + ("; ".join(f"{k.replace('_', ' ')}: {', '.join(v)}" for k, v in missing) or "nothing")
    )
    for w in r.warnings:
        o(f"warning         {w}")
    o("rows")
    for table, n in info["row_counts"].items():
        o(f"  {table:<22} {'(missing)' if n is None else n}")
    for group, title in _GROUP_TITLES:
        entries = info["tables"][group]
        if entries:
            o(title)
        for t in entries:
            o(f"  {one_line(t['name']):<32} {'(virtual)' if t['virtual'] else t['rows']}")


def run_info(ctx: Ctx) -> int:
    from core import tables

    with ctx.open(check=True) as db:
        r = db.report
        inventory = tables.inventory(db)
    info = _info_json(db, r, inventory)
    if ctx.out.as_json:
        ctx.out.json(info)
    else:
        _print_info(ctx, r, info)
    return 0


COMMANDS = (
    Command("info", "path, schema version, journal mode, row counts, missing pieces, writability", run_info),
)
