"""What the search reads its rows through: :class:`RowReader`, the part of :class:`core.timeline.RawStore`
the search and the day counts use (so they depend on no class of the timeline)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from core.models import Message
from core.search.sql import Where

if TYPE_CHECKING:
    from core.db import MemoryDB


class RowReader(Protocol):
    """Reads the rows of the raw timeline of :attr:`db` (:class:`core.timeline.RawStore`)."""

    db: MemoryDB

    def has_origin(self) -> bool:
        """Whether the messages have ``origin_session_id``."""
        ...

    def has_origin_index(self) -> bool:
        """Whether the agent's origin index exists."""
        ...

    def get_messages(self, ids: Sequence[int]) -> list[Message]:
        """The messages with these ids, in the order given."""
        ...

    def select(self, sql: str, args: Sequence[Any] = ()) -> list[Message]:
        """The messages of a ``SELECT m.* FROM memory_raw_messages AS m ...`` query, in its order."""
        ...

    def select_ordered(
        self,
        rng: Where,
        rest: Where,
        session_ids: Sequence[str] | None,
        limit: Any,
        order: str = "desc",
    ) -> list[Message]:
        """The messages matching ``rng`` and ``rest`` in some sessions, by ``(timestamp, id)``."""
        ...

    def session_ids_with_messages(self) -> list[str]:
        """The distinct session ids of the messages."""
        ...
