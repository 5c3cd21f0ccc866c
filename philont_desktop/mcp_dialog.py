"""Help › Use with AI clients (MCP): the command line of ``philont-memory mcp`` for the open database and
a client configuration snippet, both plain text to copy.

The texts come from :mod:`core.mcp_server` (``command_line``, ``client_config``), so what the dialog
shows is what the server accepts. The dialog does no database work.
"""

from __future__ import annotations

import math
import os
import shlex
import subprocess
from pathlib import Path
from typing import Any

from core.mcp_server import INSTALL_HINT, client_config, command_line
from philont_desktop.qt import (
    QApplication,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QFontDatabase,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    Qt,
    QTextOption,
    QVBoxLayout,
    QWidget,
)

#: The command box grows with its wrapped lines up to this many.
COMMAND_LINES_MAX = 8


def shell_command(args: list[str]) -> str:
    """``args`` as one line for this system's shell (POSIX quoting, or Windows' rules)."""
    return subprocess.list2cmdline(args) if os.name == "nt" else shlex.join(args)


def _label(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


def _code_box(lines: int, *, wrap: bool = False) -> QPlainTextEdit:
    """A read-only monospace box ``lines`` tall; ``wrap``: long lines break anywhere (a command line with
    a deep database path is seen whole, not behind a horizontal scroll bar)."""
    box = QPlainTextEdit()
    box.setReadOnly(True)
    if wrap:
        box.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        box.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
    else:
        box.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
    box.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    height = box.fontMetrics().lineSpacing() * lines + 2 * box.frameWidth() + 12
    box.setFixedHeight(height)
    return box


class McpDialog(QDialog):
    """The command line and a client configuration for the database open in the window (or the default)."""

    def __init__(self, db_path: str | Path | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("mcpDialog")
        self.setWindowTitle(self.tr("Use with AI clients (MCP)"))
        self.db_path = None if db_path is None else str(db_path)
        intro = _label(
            self.tr(
                "Other AI applications can use this memory through the Model Context Protocol (MCP): the "
                "agent's eleven memory tools with their exact answers, a preview of the context the agent "
                "would be given, and the memory prefix, facts, skills and recent messages as resources."
            )
        )
        self.write_box = QCheckBox(self.tr("Allow writing tools (--write)"))
        self.write_box.setToolTip(
            self.tr(
                "store_fact, calendar events and reminders are then written after a backup, audited, and "
                "can be undone here. Without it the server only reads."
            )
        )
        self.write_box.toggled.connect(self._fill)
        self.command_edit = _code_box(1, wrap=True)
        self.config_edit = _code_box(14)
        self.copy_command = QPushButton(self.tr("Copy command"))
        self.copy_command.clicked.connect(lambda: QApplication.clipboard().setText(self.command_text()))
        self.copy_config = QPushButton(self.tr("Copy configuration"))
        self.copy_config.clicked.connect(lambda: QApplication.clipboard().setText(self.config_text()))
        where = (
            self.tr("Database: {0}").format(self.db_path)
            if self.db_path
            else self.tr(
                "No database is open: the server uses $MEMORY_DB_PATH or ~/.philont/memory/memory.sqlite."
            )
        )
        self._lay_out(intro, where)

    def _lay_out(self, intro: QLabel, where: str) -> None:
        notes = _label(
            self.tr(
                "The server needs the mcp package ({0}). It speaks over stdio, as desktop clients start it; "
                "add --http 127.0.0.1:8765 to serve streamable HTTP on this computer instead."
            ).format(INSTALL_HINT)
        )
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addWidget(_label(where))
        layout.addWidget(self.write_box)
        layout.addWidget(_label(self.tr("Command line")))
        row = QHBoxLayout()
        row.addWidget(self.command_edit, 1)
        row.addWidget(self.copy_command)
        layout.addLayout(row)
        layout.addWidget(
            _label(self.tr('Client configuration (the "mcpServers" entry of the client\'s settings file)'))
        )
        row = QHBoxLayout()
        row.addWidget(self.config_edit, 1)
        row.addWidget(self.copy_config, 0, Qt.AlignmentFlag.AlignTop)
        layout.addLayout(row)
        layout.addWidget(notes)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)
        self._fill()
        self.resize(680, layout.totalHeightForWidth(680))

    def command_text(self) -> str:
        return shell_command(command_line(self.db_path, write=self.write_box.isChecked()))

    def config_text(self) -> str:
        return client_config(self.db_path, write=self.write_box.isChecked())

    def _fill(self, *_: Any) -> None:
        self.command_edit.setPlainText(self.command_text())
        self.config_edit.setPlainText(self.config_text())
        self._fit_command()

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._fit_command()

    def _fit_command(self) -> None:
        """The command box as tall as its wrapped lines (a line more when words break early), at most
        :data:`COMMAND_LINES_MAX`."""
        box = self.command_edit
        fm = box.fontMetrics()
        width = max(1.0, box.viewport().width() - 2 * box.document().documentMargin())
        lines = max(1, math.ceil(fm.horizontalAdvance(box.toPlainText()) / width))
        lines = min(COMMAND_LINES_MAX, lines + 1 if lines > 1 else lines)
        frame = max(2 * box.frameWidth(), box.height() - box.viewport().height())  # known once laid out
        margin = 2 * box.document().documentMargin()
        box.setFixedHeight(math.ceil(fm.lineSpacing() * lines + margin) + frame + 2)


def show_mcp_help(window: Any) -> McpDialog:
    """Open the dialog for ``window``'s open database (if any) without blocking."""
    ctx = getattr(window, "ctx", None)
    dlg = McpDialog(ctx.db_path if ctx is not None else None, window)
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dlg.open()
    return dlg


__all__ = ["McpDialog", "shell_command", "show_mcp_help"]
