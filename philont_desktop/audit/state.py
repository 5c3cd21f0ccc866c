"""What the Audit tab shows, without Qt: the target-type filter, the entry in the detail pane, the
target types the filter offers and how many entries arrived on top since the user last looked."""

from __future__ import annotations

from dataclasses import dataclass

from core.audit import AuditEntry
from philont_desktop.tabs.state import TabState


@dataclass(eq=False)
class AuditState(TabState):
    target_type: str | None = None  # None: every target
    target_types: tuple[str, ...] = ()
    shown: AuditEntry | None = None
    editing: bool = False
    new_on_top: int = 0  # entries put above the rows in view since the user last scrolled to the top
