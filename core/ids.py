"""Row ids: UUID4 strings, as the reference writes them, reproducible on request.

Stores draw every new id from :func:`new_id`. The demo generator wraps a run in :func:`seeded` so that
the same seed gives the same ids; the override is per thread, so nothing else running at the same time
(a GUI worker, another test) is affected.
"""

from __future__ import annotations

import contextlib
import random
import threading
import uuid
from collections.abc import Iterator

_local = threading.local()


def new_id() -> str:
    """A new UUID4 string (from the current thread's seeded stream inside :func:`seeded`)."""
    rng: random.Random | None = getattr(_local, "rng", None)
    if rng is None:
        return str(uuid.uuid4())
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


@contextlib.contextmanager
def seeded(rng: random.Random) -> Iterator[None]:
    """Within the block, ids made on this thread come from ``rng``."""
    previous = getattr(_local, "rng", None)
    _local.rng = rng
    try:
        yield
    finally:
        _local.rng = previous
