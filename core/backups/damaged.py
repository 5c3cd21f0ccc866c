"""Damaged files a restore sets aside: moved, with their side files and byte for byte, into
``backups/damaged-<UTC>-<name>`` (all or none; nothing is deleted), and listing them.
"""

from __future__ import annotations

import errno
import os
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from core.backups.activity import locked_error
from core.backups.names import DAMAGED_PREFIX
from core.backups.writing import folder_not_writable
from core.errors import MemoryError_
from core.files import move_no_clobber
from core.paths import backups_dir


def damaged_names(db: Path, d: Path, suffixes: tuple[str, ...]) -> dict[str, Path]:
    """``backups/damaged-<UTC second>[-n]-<name><suffix>`` for each suffix, none of them taken."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%S")
    for n in range(0, 10_000):
        stem = f"{DAMAGED_PREFIX}{stamp}{'' if n == 0 else f'-{n}'}-{db.name}"
        names = {s: d / (stem + s) for s in suffixes}
        if not any(os.path.lexists(p) for p in names.values()):
            return names
    raise MemoryError_(f"No free name in {d}.", code="backup.no_free_name", params={"dir": str(d)})


def move_aside(db: Path, names: dict[str, Path]) -> list[Path]:
    """Move the live file and its side files to ``names`` (suffix -> path), all or none.


    On a failure the files already moved are moved back. The error says what is where: code
    ``restore.move_failed`` (``path``, ``error``, ``errno``: its symbolic name) when everything is back
    in place, ``restore.move_incomplete`` (also ``moved``: the files that stayed in ``backups/``) when
    something could not be moved back."""
    moved: list[tuple[Path, Path]] = []
    try:
        for suffix, target in names.items():
            source = Path(str(db) + suffix)
            if not move_no_clobber(source, target):
                raise FileExistsError(errno.EEXIST, "a file of that name appeared", str(target))
            moved.append((source, target))
    except OSError as exc:
        stuck = []
        for source, target in reversed(moved):
            try:
                if not move_no_clobber(target, source):
                    stuck.append(target)
            except OSError:
                stuck.append(target)
        folder = next(iter(names.values())).parent
        if isinstance(exc, PermissionError) and not stuck and not os.access(folder, os.W_OK):
            raise folder_not_writable(folder) from None
        if isinstance(exc, PermissionError) and not stuck:
            raise locked_error(db) from None
        params: dict[str, Any] = {
            "path": str(db),
            "error": exc.strerror or str(exc),
            "errno": errno.errorcode.get(exc.errno or 0),
        }
        if stuck:
            raise MemoryError_(
                f"The damaged file {db} could not be moved into {folder}: {params['error']}. Moving back "
                f"what was moved failed too: {', '.join(str(p) for p in stuck)} stayed there, byte for "
                "byte. Move them back beside the database before anything else.",
                code="restore.move_incomplete",
                params={**params, "moved": [str(p) for p in stuck]},
            ) from None
        raise MemoryError_(
            f"The damaged file {db} could not be moved into {folder}: {params['error']}. "
            "Nothing was changed.",
            code="restore.move_failed",
            params=params,
        ) from None
    return [t for _, t in moved]


def damaged_files(db_path: str | os.PathLike[str]) -> list[Path]:
    """The files a restore moved aside into ``backups/`` (``damaged-*``), newest first."""
    d = backups_dir(db_path)
    if not d.is_dir():
        return []
    return sorted(
        (p for p in d.iterdir() if p.name.startswith(DAMAGED_PREFIX)), key=lambda p: p.name, reverse=True
    )
