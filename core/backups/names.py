"""Backup names and owners: the agent's ``memory-<UTC>.sqlite``, this project's
``philont-desktop-<database>-<UTC>.sqlite``, what a name says (who wrote it, when), and the limits the
package works with.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path

from core.errors import MemoryError_

BACKUP_RETAIN = 28


OWN_PREFIX = "philont-desktop-"


AGENT_OWNER = "agent"


OWN_OWNER = "philont-desktop"


# Either kind: the agent's ``memory-<UTC second>.sqlite`` (the reference's name; ``-<n>`` was added by
# earlier versions of this project) or this project's ``philont-desktop-<database>-<UTC second>[-n].sqlite``.
BACKUP_NAME_RE = re.compile(r"^(memory|philont-desktop-(.+))-(\d{8}T\d{6})(?:-(\d+))?\.sqlite$")


PARTIAL_RE = re.compile(
    r"^(?:memory|philont-desktop-.+)-\d{8}T\d{6}\.sqlite\.partial-(\d+)-\d+(?:-journal)?$"
)


DAMAGED_PREFIX = "damaged-"


RUN_WINDOW_S = 600


STALE_PARTIAL_S = 3600


NAME_WAIT_S = 2.0


LOCK_TIMEOUT_S = 0.25


WAL_RECENT_S = 5.0


OBSERVE_S = 1.0


RESTORE_ACTION = "database.restore"


class AgentRunningError(MemoryError_):
    """The database seems to be in use by another process (the agent); nothing was changed.


    Code ``restore.agent_running``; params ``path``, ``reason`` (``wal_recent``, ``locked``, ``written``:
    the file changed while the restore watched it) and, for a recent ``-wal``, ``age_s``.
    """

    default_code = "restore.agent_running"


def database_stem(db_name: str) -> str:
    """The part of a database's file name this project's backups of it carry (``memory.sqlite`` ->
    ``memory``)."""
    name = Path(db_name).name
    return (name[: -len(".sqlite")] if name.endswith(".sqlite") and len(name) > 7 else name)[:120]


def backup_file_name(now: datetime | None = None, db_name: str = "memory.sqlite") -> str:
    """This project's backup name for the database ``db_name`` at the UTC time ``now``:
    ``philont-desktop-<database>-YYYYMMDDTHHmmss.sqlite``. It never matches the agent's ``memory-*.sqlite``,
    so the agent's rotation neither counts nor deletes it."""
    now = now or datetime.now(UTC)
    return f"{OWN_PREFIX}{database_stem(db_name)}-{now.strftime('%Y%m%dT%H%M%S')}.sqlite"


def backup_owner(name: str) -> str | None:
    """Who wrote a backup, by its name: ``"agent"`` (``memory-…``), ``"philont-desktop"`` (this project's
    ``philont-desktop-…``), ``None`` for a name that is no backup name."""
    m = BACKUP_NAME_RE.match(name)
    if m is None:
        return None
    return AGENT_OWNER if m.group(1) == "memory" else OWN_OWNER


def backup_created_at(name: str) -> int | None:
    """Epoch ms of a backup name of either kind (the time in the name is UTC), else ``None``."""
    m = BACKUP_NAME_RE.match(name)
    if m is None:
        return None
    try:
        dt = datetime.strptime(m.group(3), "%Y%m%dT%H%M%S").replace(tzinfo=UTC)
    except ValueError:
        return None
    return int(dt.timestamp() * 1000)


def name_key(p: Path) -> tuple[str, int, str]:
    m = BACKUP_NAME_RE.match(p.name)
    return (m.group(3), int(m.group(4) or 0), p.name) if m else ("", 0, p.name)


def own_of(p: Path, stem: str) -> bool:
    """Whether ``p`` is this project's backup of the database whose stem is ``stem``."""
    m = BACKUP_NAME_RE.match(p.name)
    return m is not None and m.group(1) != "memory" and m.group(2) == stem
