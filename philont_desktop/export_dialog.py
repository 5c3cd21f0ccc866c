"""File › Export…: the current view or a whole layer as JSON, JSONL or CSV, with progress and cancel.

The writing is :mod:`core.export` (streaming, 0600 files renamed into place, nothing left behind on
cancel), run in a worker. "The current view" is what the current tab shows:

* a tab may describe it with ``export_view()`` returning a dict with either ``layer`` (plus optional
  ``filters``/``since``/``until``: streamed from the database) or ``columns`` and ``rows`` (already
  loaded rows), and ``name`` / ``description``;
* otherwise the rows loaded in the tab's main table (the focused one, else the largest visible) are
  exported as they are displayed.
"""

from __future__ import annotations

import contextlib
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from core.paths import expand_user
from philont_desktop.qt import (
    QAbstractItemView,
    QAction,
    QApplication,
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QCoreApplication,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QKeySequence,
    QLabel,
    QLineEdit,
    QMenu,
    QModelIndex,
    QProgressBar,
    QPushButton,
    QRadioButton,
    QStandardPaths,
    Qt,
    QVBoxLayout,
    QWidget,
)
from philont_desktop.settings import Key

if TYPE_CHECKING:
    from core.export import ExportResult


def _export():
    """:mod:`core.export`, imported when an export is asked for: the File menu is made before the
    window's first paint, the writers (csv, json, their row readers) are not needed for it."""
    from core import export

    return export


EXPORT_DIRECTORY: Key[str] = Key("export/directory", str, "")
EXPORT_FORMAT: Key[str] = Key("export/format", str, "jsonl", ("json", "jsonl", "csv"))
MAX_VIEW_ROWS = 1_000_000


def layer_titles() -> dict[str, str]:
    return {
        "messages": QCoreApplication.translate("ExportDialog", "Messages (timeline)"),
        "actions": QCoreApplication.translate("ExportDialog", "Actions (tool calls)"),
        "notes": QCoreApplication.translate("ExportDialog", "Notes"),
        "facts": QCoreApplication.translate("ExportDialog", "Facts (every version)"),
        "skills": QCoreApplication.translate("ExportDialog", "Skills"),
        "calendar": QCoreApplication.translate("ExportDialog", "Calendar events"),
        "schedules": QCoreApplication.translate("ExportDialog", "Scheduled tasks"),
    }


def format_titles() -> dict[str, str]:
    return {
        "jsonl": QCoreApplication.translate("ExportDialog", "JSON Lines (.jsonl): one object per line"),
        "json": QCoreApplication.translate("ExportDialog", "JSON (.json): one array"),
        "csv": QCoreApplication.translate("ExportDialog", "CSV (.csv): a header line, JSON as text"),
    }


# --------------------------------------------------------------------------------------------------
# What "the current view" is
# --------------------------------------------------------------------------------------------------


def _main_item_view(tab: QWidget) -> QAbstractItemView | None:
    views = [v for v in tab.findChildren(QAbstractItemView) if v.isVisible() and v.model() is not None]
    if not views:
        return None
    focus = QApplication.focusWidget()
    for v in views:
        if focus is not None and (focus is v or v.isAncestorOf(focus)):
            return v
    return max(views, key=lambda v: (v.model().rowCount() > 0, v.width() * v.height()))


def table_snapshot(view: QAbstractItemView, limit: int = MAX_VIEW_ROWS) -> dict[str, Any] | None:
    """The displayed text of the top-level rows a view has loaded (header texts as column names)."""
    model = view.model()
    if model is None:
        return None
    cols = model.columnCount(QModelIndex())
    header = getattr(view, "horizontalHeader", None)
    hidden = set()
    if callable(header) and header() is not None:
        hidden = {c for c in range(cols) if header().isSectionHidden(c)}
    names: list[str] = []
    for c in range(cols):
        if c in hidden:
            continue
        name = model.headerData(c, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
        name = str(name) if name not in (None, "") else f"column{c + 1}"
        while name in names:
            name += "_"
        names.append(name)
    visible = [c for c in range(cols) if c not in hidden]
    rows = []
    for r in range(min(model.rowCount(QModelIndex()), limit)):
        rec = {}
        for name, c in zip(names, visible, strict=True):
            v = model.data(model.index(r, c), Qt.ItemDataRole.DisplayRole)
            rec[name] = "" if v is None else str(v) if not isinstance(v, int | float) else v
        rows.append(rec)
    return {"columns": names, "rows": rows}


def current_view_spec(tab: QWidget | None) -> dict[str, Any] | None:
    """What "the current view" of ``tab`` exports (see the module docstring), or ``None``."""
    if tab is None:
        return None
    title = tab.title() if hasattr(tab, "title") else ""
    fn = getattr(tab, "export_view", None)
    if callable(fn):
        with contextlib.suppress(Exception):
            spec = fn()
            if spec:
                spec = dict(spec)
                spec.setdefault("name", getattr(tab, "name", "") or "view")
                spec.setdefault("description", title)
                return spec
    view = _main_item_view(tab)
    if view is None:
        return None
    snap = table_snapshot(view)
    if not snap or not snap["columns"]:
        return None
    snap["name"] = getattr(tab, "name", "") or "view"
    snap["description"] = QCoreApplication.translate(
        "ExportDialog", "the table shown in {0} ({1} rows loaded)"
    ).format(title, len(snap["rows"]))
    return snap


# --------------------------------------------------------------------------------------------------
# Worker functions
# --------------------------------------------------------------------------------------------------


def _export_layer_job(
    db: Any, layer: str, path: str, fmt: str, options: dict[str, Any], job: Any
) -> ExportResult:
    return _export().export_layer(
        db, layer, path, fmt, progress=job.progress, cancel=lambda: job.cancelled, **options
    )


def _export_rows_job(
    db: Any, rows: list[dict[str, Any]], path: str, fmt: str, options: dict[str, Any], job: Any
) -> ExportResult:
    return _export().export_rows(
        rows, path, fmt, total=len(rows), progress=job.progress, cancel=lambda: job.cancelled, **options
    )


# --------------------------------------------------------------------------------------------------
# The dialog
# --------------------------------------------------------------------------------------------------


class ExportDialog(QDialog):
    """Choose what (the current view or a layer), the format and the file; export with progress."""

    def __init__(self, ctx: Any, tab: QWidget | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("exportDialog")
        self.setWindowTitle(self.tr("Export"))
        self.ctx = ctx
        self.tab = tab
        self.job: Any = None
        self.result: ExportResult | None = None
        self.error: BaseException | None = None
        self.view_spec = current_view_spec(tab)
        if ctx is not None:
            ctx.workers.jobProgress.connect(self._on_job_progress)
            ctx.workers.jobDone.connect(self._on_done)
        self._suggested: str | None = None
        layer_row = self._build_source(tab)
        self._build_format(ctx)
        path_row = self._build_path()
        self._build_progress()
        self._lay_out(layer_row, path_row)

        self.source_group.buttonToggled.connect(lambda *_: self._update())
        self.layer_combo.currentIndexChanged.connect(lambda *_: self._update())
        self.format_combo.currentIndexChanged.connect(lambda *_: self._update())
        self.resize(620, self.sizeHint().height())
        self._update()

    # -- building -------------------------------------------------------------------------------------
    def _build_source(self, tab: QWidget | None) -> QHBoxLayout:
        """What to export: the current view, or a whole layer (the tab's own layer first)."""
        self.view_radio = QRadioButton()
        self.layer_radio = QRadioButton(self.tr("A whole layer:"))
        self.source_group = QButtonGroup(self)
        self.source_group.addButton(self.view_radio)
        self.source_group.addButton(self.layer_radio)
        self.layer_combo = QComboBox()
        for key, text in layer_titles().items():
            self.layer_combo.addItem(text, key)
        if self.view_spec is not None:
            self.view_radio.setText(
                self.tr("The current view: {0}").format(self.view_spec.get("description", ""))
            )
            self.view_radio.setChecked(True)
        else:
            self.view_radio.setText(self.tr("The current view (this tab has nothing to export)"))
            self.view_radio.setEnabled(False)
            self.layer_radio.setChecked(True)
        tab_layer = getattr(tab, "name", None)
        aliases = {"timeline": "messages", "calendar": "calendar"}
        tab_layer = aliases.get(tab_layer, tab_layer)
        if tab_layer in _export().LAYERS:
            self.layer_combo.setCurrentIndex(list(_export().LAYERS).index(tab_layer))
        layer_row = QHBoxLayout()
        layer_row.addWidget(self.layer_radio)
        layer_row.addWidget(self.layer_combo, 1)
        return layer_row

    def _build_format(self, ctx: Any) -> None:
        """How: the format (the last one used first) and its options."""
        self.format_combo = QComboBox()
        for key, text in format_titles().items():
            self.format_combo.addItem(text, key)
        saved = ctx.settings.get(EXPORT_FORMAT) if ctx is not None else "jsonl"
        self.format_combo.setCurrentIndex(max(0, self.format_combo.findData(saved)))
        self.bom_check = QCheckBox(self.tr("Add a byte-order mark (Excel then reads the file as UTF-8)"))
        self.parse_check = QCheckBox(self.tr("Write JSON columns as JSON values (else as their text)"))
        self.parse_check.setChecked(True)

    def _build_path(self) -> QHBoxLayout:
        """Where: the file, with a button to choose it."""
        self.path_edit = QLineEdit()
        self.path_edit.setObjectName("exportPath")
        self.browse_button = QPushButton(self.tr("Choose…"))
        self.browse_button.clicked.connect(self._browse)
        path_row = QHBoxLayout()
        path_row.addWidget(self.path_edit, 1)
        path_row.addWidget(self.browse_button)
        self.note = QLabel(
            self.tr("The file is readable only by you (0600). It appears when the export is complete.")
        )
        self.note.setWordWrap(True)
        return path_row

    def _build_progress(self) -> None:
        """The progress bar, the status line and the buttons."""
        self.progress = QProgressBar()
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.buttons = QDialogButtonBox()
        self.export_button = self.buttons.addButton(self.tr("Export"), QDialogButtonBox.ButtonRole.AcceptRole)
        self.cancel_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Cancel)
        self.close_button = self.buttons.addButton(QDialogButtonBox.StandardButton.Close)
        self.export_button.setDefault(True)
        self.export_button.clicked.connect(self.start)
        self.cancel_button.clicked.connect(self.cancel)
        self.close_button.clicked.connect(self.reject)

    def _lay_out(self, layer_row: QHBoxLayout, path_row: QHBoxLayout) -> None:
        form = QFormLayout()
        what = QVBoxLayout()
        what.addWidget(self.view_radio)
        what.addLayout(layer_row)
        form.addRow(self.tr("What"), what)
        form.addRow(self.tr("Format"), self.format_combo)
        opts = QVBoxLayout()
        opts.addWidget(self.parse_check)
        opts.addWidget(self.bom_check)
        form.addRow("", opts)
        form.addRow(self.tr("File"), path_row)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.note)
        layout.addWidget(self.progress)
        layout.addWidget(self.status)
        layout.addWidget(self.buttons)

    # -- state ----------------------------------------------------------------------------------------
    @property
    def fmt(self) -> str:
        return str(self.format_combo.currentData())

    @property
    def from_view(self) -> bool:
        return self.view_radio.isChecked() and self.view_spec is not None

    @property
    def running(self) -> bool:
        return self.job is not None and not self.job.is_done

    def export_name(self) -> str:
        if self.from_view:
            return str(self.view_spec.get("name") or "view")
        return str(self.layer_combo.currentData())

    def _default_dir(self) -> Path:
        saved = self.ctx.settings.get(EXPORT_DIRECTORY) if self.ctx is not None else ""
        if saved and Path(saved).is_dir():
            return Path(saved)
        docs = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.DocumentsLocation)
        return Path(docs) if docs and Path(docs).is_dir() else Path.home()

    def _update(self) -> None:
        fmt = self.fmt
        self.bom_check.setEnabled(fmt == "csv")
        self.parse_check.setEnabled(fmt != "csv")
        self.layer_combo.setEnabled(self.layer_radio.isChecked())
        stamp = datetime.now().strftime("%Y%m%d-%H%M")
        suggestion = str(self._default_dir() / _export().default_file_name(self.export_name(), fmt, stamp))
        current = self.path_edit.text().strip()
        if not current or current == self._suggested:
            self.path_edit.setText(suggestion)
            self._suggested = suggestion
        elif (
            Path(current).suffix.lower() in _export().EXTENSIONS.values()
            and Path(current).suffix != _export().EXTENSIONS[fmt]
        ):
            self.path_edit.setText(str(Path(current).with_suffix(_export().EXTENSIONS[fmt])))
        running = self.running
        for w in (self.view_radio, self.layer_radio, self.format_combo, self.path_edit, self.browse_button):
            w.setEnabled(not running and (w is not self.view_radio or self.view_spec is not None))
        self.layer_combo.setEnabled(not running and self.layer_radio.isChecked())
        self.export_button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
        self.close_button.setEnabled(not running)

    def _browse(self) -> None:
        fmt = self.fmt
        filters = {
            "jsonl": self.tr("JSON Lines (*.jsonl)"),
            "json": self.tr("JSON (*.json)"),
            "csv": self.tr("CSV (*.csv)"),
        }
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export to"), self.path_edit.text(), filters[fmt])
        if path:
            self.path_edit.setText(path)

    # -- running --------------------------------------------------------------------------------------
    def start(self) -> Any:
        """Start the export in a worker; returns the job (``None`` when the input is not usable)."""
        if self.running or self.ctx is None:
            return None
        text = self.path_edit.text().strip()
        if not text:
            self.status.setText(self.tr("Choose a file to export to."))
            return None
        path = expand_user(text)  # never raises (~user of an unknown user stays as written)
        if not path.parent.is_dir():
            self.status.setText(self.tr("The folder {0} does not exist.").format(path.parent))
            return None
        fmt = self.fmt
        self.result = None
        self.error = None
        job = self._submit(path, fmt)
        self.job = job
        self.ctx.settings.set(EXPORT_DIRECTORY, str(path.parent))
        self.ctx.settings.set(EXPORT_FORMAT, fmt)
        self.progress.setRange(0, 0)
        self.status.setText(self.tr("Exporting to {0}…").format(path))
        self._update()
        return job

    def _submit(self, path: Path, fmt: str) -> Any:
        """Run the export job of what is chosen (the view's rows or query, or a layer) to ``path``."""
        options: dict[str, Any] = {}
        if fmt == "csv":
            options["bom"] = self.bom_check.isChecked()
        else:
            options["parse_json"] = self.parse_check.isChecked()
        spec = self.view_spec if self.from_view else None
        if spec is not None and "layer" in spec:
            options.update(
                {k: spec[k] for k in ("filters", "since", "until", "columns") if spec.get(k) is not None}
            )
            job_fn, what = _export_layer_job, spec["layer"]
        elif spec is not None:
            options["columns"] = list(spec["columns"])
            if spec.get("json_columns"):
                options["json_columns"] = list(spec["json_columns"])
            job_fn, what = _export_rows_job, list(spec["rows"])
        else:
            job_fn, what = _export_layer_job, str(self.layer_combo.currentData())
        return self.ctx.run(job_fn, what, str(path), fmt, options, progress=True, label=self.tr("Exporting"))

    def cancel(self) -> None:
        if self.running:
            self.job.cancel()
            self.status.setText(self.tr("Cancelling…"))

    def _on_job_progress(self, job: Any, done: int, total: int) -> None:
        if job is self.job and total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(min(done, total))
            self.status.setText(self.tr("{0} of about {1} rows…").format(f"{done:,}", f"{total:,}"))

    def _on_done(self, job: Any) -> None:
        if job is not self.job:
            return
        # A cancel that comes after the file was put in place cannot take it back: the job ends without
        # an error and with its result, and the file is there; say so rather than "no file was written".
        too_late = job.state == "cancelled" and job.error is None and job.result is not None
        if job.state == "finished" or too_late:
            r: ExportResult = job.result
            self.result = r
            self.progress.setRange(0, 1)
            self.progress.setValue(1)
            done = self.tr("Exported {0} rows to {1} ({2} bytes).").format(
                f"{r.rows:,}", r.path, f"{r.bytes:,}"
            )
            if too_late:
                done = self.tr("The export had finished before it could be cancelled.") + " " + done
            self.status.setText(done)
        elif job.state == "cancelled":
            self.progress.setRange(0, 1)
            self.progress.setValue(0)
            self.status.setText(self.tr("Cancelled: no file was written."))
        else:
            self.error = job.error
            self.progress.setRange(0, 1)
            self.progress.setValue(0)
            from philont_desktop.widgets.error_dialog import readable_message

            self.status.setText(self.tr("The export failed: {0}").format(readable_message(job.error)))
        self._update()

    def reject(self) -> None:
        if self.running:
            self.cancel()
            return
        super().reject()

    def closeEvent(self, event) -> None:
        if self.running:
            self.job.cancel()
        super().closeEvent(event)


def show_export_dialog(window: Any) -> ExportDialog | None:
    """Open the export dialog for the current tab of ``window`` (non-modal)."""
    if window.ctx is None:
        return None
    tab = window.tab_widget.currentWidget()
    dlg = ExportDialog(window.ctx, tab, window)
    dlg.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dlg.open()
    return dlg


def install(window: Any, file_menu: QMenu) -> QAction:
    """Add File › Export… (Ctrl+Shift+E) before "Close database"; enabled while a database is open."""
    action = QAction(QCoreApplication.translate("ExportDialog", "&Export…"), window)
    with contextlib.suppress(Exception):
        from philont_desktop.resources import icon

        action.setIcon(icon("export"))
    action.setShortcut(QKeySequence("Ctrl+Shift+E"))
    action.triggered.connect(lambda: show_export_dialog(window))
    file_menu.insertAction(window.action_close_db, action)
    window.action_export = action

    def _update(*_: Any) -> None:
        action.setEnabled(window.ctx is not None)

    window.databaseOpened.connect(_update)
    window.databaseClosed.connect(_update)
    _update()
    return action
