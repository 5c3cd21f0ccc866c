"""Backups of a memory database: writing them, what ``backups/`` holds, and restoring one.

This is the one package that knows backups; :meth:`core.db.MemoryDB.backup` calls it. By responsibility:
:mod:`~core.backups.names` (names and owners), :mod:`~core.backups.listing` (listing, checking, copying
out), :mod:`~core.backups.writing` (copying in, rotation), :mod:`~core.backups.activity` (is the agent at
work?), :mod:`~core.backups.restore` with :mod:`~core.backups.replace` (restoring) and
:mod:`~core.backups.damaged` (damaged files set aside). The file helpers it shares with :mod:`core.db`
are in :mod:`core.files`. Every name is importable from ``core.backups``.

**Writing** (:func:`copy_to_backup`, :func:`rotate`). ``backups/`` belongs to the agent: it writes
``memory-YYYYMMDDTHHmmss.sqlite`` every 6 hours and keeps the newest 28 names matching ``memory-*.sqlite``.
A backup this project writes is ``backups/philont-desktop-<database>-YYYYMMDDTHHmmss.sqlite`` (``<database>``
is the database's file name without ``.sqlite``, the time is UTC), which the agent's rotation neither counts
nor deletes. It is written with SQLite's online backup API into a private temporary file that is synced and
then given its name. A name that exists is never replaced: a backup waits up to two seconds for a second
whose name is free, and takes ``…-<second>-<n>.sqlite`` when another process claims the same name meanwhile.
Rotation keeps the newest 28 of this project's backups of the same database and touches nothing else: a
file this project did not write is never deleted. :func:`recent_own_backup` is the rule for a run of edits:
a write needs no new backup when this project backed the same database up less than ``RUN_WINDOW_S``
(10 minutes) ago.

**Looking** never creates, changes or locks a file in ``backups/``. A backup is a closed file: it is read
through an ``immutable=1`` connection, which opens no ``-wal``/``-shm`` (a WAL-mode copy written by the
agent would otherwise gain both). Files beside a backup (``-wal``, ``-shm``, ``-journal``, left by some
other program) are not part of it: they are ignored and reported in :attr:`BackupInfo.side_files`. A name
in ``backups/`` that is a FIFO, socket, device or directory is never opened (a FIFO would block).

**Restoring** (:func:`restore_backup`) replaces the live database with a backup, whatever state the live
file is in:

* a sound file is replaced in place while an exclusive lock keeps every other connection out: its
  content is first backed up (``safety_backup``), then the backup is copied in with the backup API, in
  one WAL transaction (from a private WAL copy with the live file's page size when the backup's page
  size or journal differ): a copy that fails (a full disk) leaves the live file as it was, in WAL mode,
  with no journal beside it;
* a damaged file (not a database, empty, truncated, corrupt pages, a stale ``-wal`` that makes it
  unreadable) is never written: it is moved aside, with its ``-wal``, ``-shm`` and ``-journal``, into
  ``backups/damaged-YYYYMMDDTHHmmss-<name>`` (byte for byte; nothing is deleted), and a copy of the backup
  takes its place;
* a missing file is created from the backup. An orphan ``-wal``/``-shm``/``-journal`` at the path
  (SQLite would merge a stray ``-wal`` into the restored file on its next open) is moved aside the same
  way, never merged and never deleted.

The restored file is in WAL mode, passes ``quick_check``, is 0600, and its audit trail ends with a
``database.restore`` row saying what was restored and where the replaced file went. A restore is refused
while the agent seems to run: its ``-wal`` was written in the last few seconds, another process holds a
lock on the file (or, for a sound file, the exclusive lock cannot be taken), or the file or its ``-wal``
changed while the restore looked at it (at least a second, until the lock is taken: an agent that opens
a connection for each write holds no lock between writes). The caller closes its own
connections first.
"""

from __future__ import annotations

from core.backups.activity import agent_activity
from core.backups.damaged import damaged_files
from core.backups.listing import (
    BackupInfo,
    browse_copy_needed,
    check_backup,
    check_backup_file,
    copy_for_browsing,
    list_backups,
    list_backups_info,
    newest_good_backup,
)
from core.backups.names import (
    AGENT_OWNER,
    BACKUP_NAME_RE,
    BACKUP_RETAIN,
    DAMAGED_PREFIX,
    LOCK_TIMEOUT_S,
    NAME_WAIT_S,
    OBSERVE_S,
    OWN_OWNER,
    OWN_PREFIX,
    PARTIAL_RE,
    RESTORE_ACTION,
    RUN_WINDOW_S,
    STALE_PARTIAL_S,
    WAL_RECENT_S,
    AgentRunningError,
    backup_created_at,
    backup_file_name,
    backup_owner,
    database_stem,
)
from core.backups.replace import RestoreResult
from core.backups.restore import restore_backup
from core.backups.writing import (
    copy_to_backup,
    ensure_backup_folder,
    own_backups,
    recent_own_backup,
    remove_stale_partials,
    rotate,
)
from core.files import SIDE_SUFFIXES, file_kind, header_journal
from core.paths import backups_dir

__all__ = [
    "AGENT_OWNER",
    "BACKUP_NAME_RE",
    "BACKUP_RETAIN",
    "DAMAGED_PREFIX",
    "LOCK_TIMEOUT_S",
    "NAME_WAIT_S",
    "OBSERVE_S",
    "OWN_OWNER",
    "OWN_PREFIX",
    "PARTIAL_RE",
    "RESTORE_ACTION",
    "RUN_WINDOW_S",
    "SIDE_SUFFIXES",
    "STALE_PARTIAL_S",
    "WAL_RECENT_S",
    "AgentRunningError",
    "BackupInfo",
    "RestoreResult",
    "agent_activity",
    "backup_created_at",
    "backup_file_name",
    "backup_owner",
    "backups_dir",
    "browse_copy_needed",
    "check_backup",
    "check_backup_file",
    "copy_for_browsing",
    "copy_to_backup",
    "damaged_files",
    "database_stem",
    "ensure_backup_folder",
    "file_kind",
    "header_journal",
    "list_backups",
    "list_backups_info",
    "newest_good_backup",
    "own_backups",
    "recent_own_backup",
    "remove_stale_partials",
    "restore_backup",
    "rotate",
]
