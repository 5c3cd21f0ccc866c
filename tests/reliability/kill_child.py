"""What the app process does while it is killed: audited edits or backups in a loop, through the core.

The functions run in a child process (forked from a server that imported the core once, so a child
starts in milliseconds) and never return: the test kills them with SIGKILL. Progress goes to a log file,
one line per event, each written with a single ``os.write`` on an ``O_APPEND`` descriptor, so a kill
never leaves half a line:

* ``ready`` once the connection is open;
* ``begin <n>`` before each edit and ``committed <audit id>`` after its transaction committed;
* ``start <n>`` / ``done <file name>`` around each backup.
"""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

from core import curation
from core.backups import backup_file_name
from core.curation import facts as fact_curation
from core.curation import notes as note_curation
from core.curation import skills as skill_curation
from core.db import MemoryDB
from core.paths import backups_dir
from core.skills import SkillStore

KILL_NAMESPACE = "kill_test"
ADD_PREFIX = "kill-add"
ACTOR = "kill-test@philont-desktop"


class Log:
    def __init__(self, path: str):
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)

    def __call__(self, line: str) -> None:
        os.write(self.fd, (line + "\n").encode())


def curation_loop(db_path: str, log_path: str, seed: int, note_ids: list[str], skill_name: str) -> None:
    """Edits of every kind the app makes, each ONE audited transaction, forever.

    * ``facts.add`` of a new version of ``kill_test.k<n>`` (every version stays: a durable trace);
    * ``notes.add`` of a note whose text starts with ``kill-add`` (a new row each time);
    * ``notes.update`` of one of ``note_ids`` (the current text must be the last audited one);
    * ``skills.update`` of the description of ``skill_name``;
    * ``undo`` of the latest note update now and then.
    """
    log = Log(log_path)
    rng = random.Random(seed)
    db = MemoryDB.open(db_path, writable=True, check=False, backup_before_write=False)
    db.ensure_writable_schema()
    log("ready")
    i = 0
    last_note_edit: int | None = None
    while True:
        i += 1
        tag = f"{seed}.{i}"
        kind = rng.randrange(5)
        entry: Any
        log(f"begin {i}")
        if kind == 0:
            change = fact_curation.add(
                KILL_NAMESPACE, f"k{i % 3}", {"tag": tag, "pad": "x" * rng.randrange(2000)}
            )
            entry = change.perform(db, ACTOR)
        elif kind == 1:
            entry = note_curation.add(f"{ADD_PREFIX} {tag}", 0.5).perform(db, ACTOR)
        elif kind == 2:
            note_id = note_ids[i % len(note_ids)]
            entry = note_curation.update(
                note_id, content=f"kill edit {tag} " + "y" * rng.randrange(3000)
            ).perform(db, ACTOR)
            last_note_edit = entry.id
        elif kind == 3:
            skill = SkillStore(db).get_by_name(skill_name)
            assert skill is not None
            entry = skill_curation.update(skill, description=f"kill description {tag}").perform(db, ACTOR)
        elif last_note_edit is not None:
            entry = curation.undo(db, last_note_edit, ACTOR)
            last_note_edit = None
        else:
            continue
        log(f"committed {entry.id}")


def backup_loop(db_path: str, log_path: str, seed: int) -> None:
    """``MemoryDB.backup`` in a loop on a read-only connection, as the app's "Backup now" runs it.

    Backup names go down to the second and a backup waits for a second whose name is free: when the
    current second's name is taken the loop waits for the next second itself, so that ``start`` is
    the moment the copy begins.
    """
    log = Log(log_path)
    db = MemoryDB.open(db_path, check=False)
    folder = backups_dir(db_path)
    log("ready")
    n = 0
    while True:
        n += 1
        if (folder / backup_file_name(db_name=Path(db_path).name)).exists():
            time.sleep(1.002 - time.time() % 1.0)
        log(f"start {n}")
        path = db.backup(retain=1000)
        log(f"done {path.name}")


__all__ = ["ACTOR", "ADD_PREFIX", "KILL_NAMESPACE", "backup_loop", "curation_loop"]
