"""Restoring and browsing backups belong to the window (:mod:`philont_desktop.recovery`), the texts of
their codes to :mod:`philont_desktop.backup_texts`; their names stay importable from here."""

from __future__ import annotations

from philont_desktop.backup_texts import check_text, code_text, codes, error_text, kind_text, problem_text
from philont_desktop.recovery import (
    BROWSING_PROPERTY,
    ask_and_restore,
    backup_offer,
    browsing_backup_of,
    offer_backup,
    open_backup_window,
    restore_confirmation,
    restore_in_window,
    restore_message,
    restore_over_start_problem,
)

__all__ = [
    "BROWSING_PROPERTY",
    "ask_and_restore",
    "backup_offer",
    "browsing_backup_of",
    "check_text",
    "code_text",
    "codes",
    "error_text",
    "kind_text",
    "offer_backup",
    "open_backup_window",
    "problem_text",
    "restore_confirmation",
    "restore_in_window",
    "restore_message",
    "restore_over_start_problem",
]
