"""The allow-list a person keeps ("not a secret"), outside the database, keyed to the database's file.

One small JSON file in the app's per-user data directory (beside the review marks,
:mod:`core.changes.marks`), ``$PHILONT_PRIVACY_ALLOW`` naming another::

    {"version": 1, "key": "<random hex>", "databases": {"/home/u/.philont/memory/memory.sqlite":
        {"ids": {"pf-…": 1781525100000}, "values": {"<hmac hex>": 1781525100000}}}}

A finding is allowed by its id (that span of that row) or by its value: the value is kept only as an
HMAC-SHA256 under the file's random ``key`` together with the finding's kind, never as text, so the same
value allowed once is allowed wherever it appears (other rows, backups). The key is no protection against
someone who reads the file and guesses short values (a phone number): the file is private (0600) like the
review marks. Written atomically; a file that cannot be read is set aside and reported
(:mod:`core.sidefiles`), never silently overwritten.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core import sidefiles
from core.changes.marks import database_key, default_marks_path
from core.jsutil import now_ms

__all__ = ["ENV_VAR", "AllowList", "Allowed", "default_allow_path"]

ENV_VAR = "PHILONT_PRIVACY_ALLOW"
FILE_NAME = "privacy-allow.json"
_LOCK = threading.Lock()


def default_allow_path() -> Path:
    """``$PHILONT_PRIVACY_ALLOW``, else ``privacy-allow.json`` beside the review marks."""
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    return default_marks_path().with_name(FILE_NAME)


@dataclass
class Allowed:
    """What one database's allow-list holds: finding ids and value digests (each with when it was added),
    and the key the digests are made with."""

    key: bytes = b""
    ids: dict[str, int] = field(default_factory=dict)
    values: dict[str, int] = field(default_factory=dict)

    def digest(self, kind: str, value: str) -> str:
        """The digest a value of ``kind`` is allowed by (never the value itself)."""
        return hmac.new(
            self.key, f"{kind}\0{value}".encode("utf-8", "surrogatepass"), hashlib.sha256
        ).hexdigest()

    def allows(self, finding_id: str, kind: str, value: str) -> bool:
        if finding_id in self.ids:
            return True
        return bool(self.values) and self.digest(kind, value) in self.values


def _databases(data: dict[str, Any]) -> dict[str, Any]:
    dbs = data.get("databases")
    return dbs if isinstance(dbs, dict) else {}


def _times(data: Any) -> dict[str, int]:
    if not isinstance(data, dict):
        return {}
    return {str(k): v for k, v in data.items() if type(v) is int}


class AllowList:
    """The allow-list file (:func:`default_allow_path` unless ``path`` is given)."""

    def __init__(self, path: str | os.PathLike[str] | None = None):
        self.path = Path(path) if path is not None else default_allow_path()

    def _load(self) -> dict[str, Any]:
        data, problem = sidefiles.read_json(self.path)
        if (
            problem is None
            and data is not None
            and not (isinstance(data, dict) and isinstance(data.get("databases"), dict))
        ):
            problem = sidefiles.SideFileProblem("wrong_shape", {"error": "no databases member"})
        if problem is not None:
            sidefiles.set_aside(self.path, problem)
            return {}
        return data if isinstance(data, dict) else {}

    @staticmethod
    def _key(data: dict[str, Any]) -> bytes:
        with contextlib.suppress(TypeError, ValueError):
            key = bytes.fromhex(str(data.get("key", "")))
            if len(key) >= 16:
                return key
        return b""

    def get(self, db_path: str | os.PathLike[str]) -> Allowed:
        """What is allowed for the database at ``db_path`` (nothing when the file does not exist)."""
        data = self._load()
        entry = _databases(data).get(database_key(db_path))
        entry = entry if isinstance(entry, dict) else {}
        return Allowed(self._key(data), _times(entry.get("ids")), _times(entry.get("values")))

    def allow(
        self,
        db_path: str | os.PathLike[str],
        *,
        ids: Iterable[str] = (),
        values: Iterable[tuple[str, str]] = (),
        now: int | None = None,
    ) -> Allowed:
        """Allow findings by id and values by ``(kind, value)`` (stored as digests); returns the new state."""
        t = now_ms() if now is None else int(now)
        with _LOCK:
            data = self._load()
            key = self._key(data) or secrets.token_bytes(32)
            dbs = _databases(data)
            db_key = database_key(db_path)
            entry = dbs.get(db_key)
            entry = entry if isinstance(entry, dict) else {}
            allowed = Allowed(key, _times(entry.get("ids")), _times(entry.get("values")))
            allowed.ids.update(dict.fromkeys((str(i) for i in ids), t))
            allowed.values.update(dict.fromkeys((allowed.digest(k, v) for k, v in values), t))
            dbs[db_key] = {"ids": allowed.ids, "values": allowed.values}
            self._write({"version": 1, "key": key.hex(), "databases": dbs})
            return allowed

    def disallow(self, db_path: str | os.PathLike[str], ids: Iterable[str]) -> Allowed:
        """Report these findings again (their ids removed; values allowed stay allowed)."""
        with _LOCK:
            data = self._load()
            dbs = _databases(data)
            entry = dbs.get(database_key(db_path))
            allowed = self.get(db_path)
            if isinstance(entry, dict):
                for i in ids:
                    allowed.ids.pop(str(i), None)
                dbs[database_key(db_path)] = {"ids": allowed.ids, "values": allowed.values}
                self._write({"version": 1, "key": allowed.key.hex(), "databases": dbs})
            return allowed

    def _write(self, data: dict[str, Any]) -> None:
        sidefiles.write_json(self.path, data, indent=1)
