"""The About dialog: versions of the application, Qt, PySide6, pyqtgraph, Python and SQLite, and the open
database's path, schema version, journal mode and integrity, with a button that copies it all as text
(for bug reports)."""

from __future__ import annotations

import html
import platform
import sys
from importlib import metadata
from pathlib import Path
from typing import Any

from core import MAX_KNOWN_SCHEMA_VERSION, MIN_KNOWN_SCHEMA_VERSION
from core.db import OpenReport
from core.engine import ENGINE, SQLITE_VERSION
from philont_desktop import APP_NAME, __version__, messages
from philont_desktop.qt import (
    PYSIDE_VERSION,
    QT_VERSION,
    QApplication,
    QCoreApplication,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    Qt,
    QVBoxLayout,
    QWidget,
)


def pyqtgraph_version() -> str:
    """The installed pyqtgraph's version, read from its metadata (pyqtgraph itself is not imported here)."""
    try:
        return metadata.version("pyqtgraph")
    except metadata.PackageNotFoundError:
        try:
            from philont_desktop.widgets.plots import pg

            return str(getattr(pg, "__version__", "?"))
        except Exception:  # no plots in this build
            return QCoreApplication.translate("AboutDialog", "not installed")


def about_rows(
    report: OpenReport | None, db_path: str | Path | None = None, editing: bool = False
) -> list[tuple[str, str]]:
    """``(label, value)`` pairs shown by the dialog (and copied as text)."""
    rows = [
        (APP_NAME, __version__),
        ("Qt", f"{QT_VERSION} (PySide6 {PYSIDE_VERSION})"),
        ("pyqtgraph", pyqtgraph_version()),
        ("Python", f"{platform.python_version()} ({sys.implementation.name}, {platform.machine()})"),
        ("SQLite", f"{SQLITE_VERSION} ({ENGINE})"),
        (
            QCoreApplication.translate("AboutDialog", "Schema understood"),
            f"{MIN_KNOWN_SCHEMA_VERSION}–{MAX_KNOWN_SCHEMA_VERSION}",
        ),
        (QCoreApplication.translate("AboutDialog", "System"), platform.platform(terse=True)),
    ]
    if report is None:
        rows.append(
            (
                QCoreApplication.translate("AboutDialog", "Database"),
                QCoreApplication.translate("AboutDialog", "none open"),
            )
        )
        return rows
    path = str(db_path) if db_path is not None else report.path
    v = report.schema_version
    schema = "—" if v is None else str(v)
    if report.schema_status == "newer":
        schema += " " + QCoreApplication.translate(
            "AboutDialog", "(newer than this version understands: read-only)"
        )
    rows += [
        (QCoreApplication.translate("AboutDialog", "Database"), path),
        (QCoreApplication.translate("AboutDialog", "Schema of this database"), schema),
        (QCoreApplication.translate("AboutDialog", "Journal mode"), report.journal_mode or "?"),
        (
            QCoreApplication.translate("AboutDialog", "Quick integrity check"),
            (report.quick_check or QCoreApplication.translate("AboutDialog", "not checked yet")).splitlines()[
                0
            ],
        ),
        (QCoreApplication.translate("AboutDialog", "Access"), _access(report, editing)),
    ]
    return rows


def _access(report: OpenReport, editing: bool) -> str:
    if editing:
        return QCoreApplication.translate("AboutDialog", "editing mode: changes are written and audited")
    if report.read_only_reason:
        return QCoreApplication.translate("AboutDialog", "read-only: {0}").format(
            messages.read_only_reason(report.read_only_notice())
        )
    return QCoreApplication.translate("AboutDialog", "read-only until editing mode is turned on")


def about_html(report: OpenReport | None, db_path: str | Path | None = None, editing: bool = False) -> str:
    """The dialog's rich text: a heading, a sentence and the table of :func:`about_rows`."""
    rows = about_rows(report, db_path, editing)
    body = "".join(f"<tr><td>{html.escape(k)}</td><td>{html.escape(v)}</td></tr>" for k, v in rows)
    blurb = QCoreApplication.translate(
        "AboutDialog", "An inspector and curation tool for the memory of a Philont agent."
    )
    return (
        f"<h3>{html.escape(APP_NAME)} {html.escape(__version__)}</h3>"
        f"<p>{html.escape(blurb)}</p>"
        f"<table cellspacing='0' cellpadding='3'>{body}</table>"
    )


def about_text(report: OpenReport | None, db_path: str | Path | None = None, editing: bool = False) -> str:
    """Plain text for the clipboard."""
    rows = about_rows(report, db_path, editing)
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)


class AboutDialog(QDialog):
    """Versions and the open database; "Copy" puts them on the clipboard as text."""

    def __init__(
        self,
        report: OpenReport | None,
        db_path: str | Path | None = None,
        parent: QWidget | None = None,
        *,
        editing: bool = False,
        ctx: Any = None,
    ):
        super().__init__(parent)
        self.setObjectName("aboutDialog")
        self.setWindowTitle(self.tr("About {0}").format(APP_NAME))
        self.report = report
        self.db_path = db_path
        self.editing = editing
        icon = QLabel()
        icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        if parent is not None and not parent.windowIcon().isNull():
            icon.setPixmap(parent.windowIcon().pixmap(64, 64))
        else:
            try:
                from philont_desktop.resources import app_icon

                icon.setPixmap(app_icon().pixmap(64, 64))
            except Exception:  # an install without icons still shows the text
                pass
        self.text_label = QLabel(about_html(report, db_path, editing))
        self.text_label.setTextFormat(Qt.TextFormat.RichText)
        self.text_label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text_label.setWordWrap(True)
        self.text_label.setMinimumWidth(460)
        top = QHBoxLayout()
        top.addWidget(icon)
        top.addWidget(self.text_label, 1)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton(self.tr("Copy"))
        self.copy_button.setToolTip(self.tr("Copy the versions as text (for a bug report)"))
        self.copy_button.clicked.connect(self.copy)
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        self.tables = None
        if ctx is not None:  # every table of the open file, grouped, counted in a worker
            from philont_desktop.database_tables import DatabaseTables

            self.tables = DatabaseTables(ctx, self)
            self.tables.setMinimumHeight(220)
            layout.addWidget(QLabel(self.tr("Tables in this database")))
            layout.addWidget(self.tables, 1)
        layout.addWidget(buttons)

    def copy(self) -> None:
        text = about_text(self.report, self.db_path, self.editing)
        if self.tables is not None:
            text += "\n\n" + self.tables.text()
        QApplication.clipboard().setText(text)


def show_about(window: Any) -> AboutDialog:
    """Open the About dialog for ``window`` (its open database, if any) without blocking."""
    ctx = getattr(window, "ctx", None)
    dlg = AboutDialog(
        ctx.report if ctx else None,
        ctx.db_path if ctx else None,
        window,
        editing=bool(ctx and ctx.editing),
        ctx=ctx,
    )
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dlg.open()
    return dlg
