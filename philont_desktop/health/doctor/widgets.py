"""The doctor page's parts: one line per layer (ok / n warnings / n failures) and the detail of the finding
selected (its message, its measurement as a picture and as numbers, and what can be done about it)."""

from __future__ import annotations

from typing import Any

from core.health.finding import LAYERS, Finding
from core.health.fixes import alternatives
from philont_desktop.health.doctor.measure import MeasurePlot, measure_lines
from philont_desktop.health.doctor.model import finding_text, layer_counts, severity_role
from philont_desktop.health.doctor.texts import fix_summary, fix_title, layer_name, severity_name
from philont_desktop.qt import (
    QGridLayout,
    QLabel,
    QMenu,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
    Signal,
)
from philont_desktop.widgets import plain

__all__ = ["FindingDetail", "LayerSummary"]


class LayerSummary(QWidget):
    """A line per layer: its name, a coloured mark and ``ok`` or its counts of failures and warnings."""

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("doctorSummary")
        self.theme = theme
        grid = QGridLayout(self)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setHorizontalSpacing(12)
        self.names: dict[str, QLabel] = {}
        self.states: dict[str, QLabel] = {}
        for i, layer in enumerate(LAYERS):
            name, state = QLabel(self), QLabel(self)
            name.setObjectName(f"doctorLayerName_{layer}")
            state.setObjectName(f"doctorLayer_{layer}")
            self.names[layer], self.states[layer] = name, state
            row, col = divmod(i, 2)  # two layers a line: stays narrow at large text sizes
            grid.addWidget(name, row, col * 2)
            grid.addWidget(state, row, col * 2 + 1)
        grid.setColumnStretch(3, 1)
        self.counts: dict[str, dict[str, int]] = {}
        self.known = False

    def show_findings(self, findings: list[Finding] | None) -> None:
        """The counts of ``findings`` (``None``: not checked yet)."""
        self.known = findings is not None
        self.counts = layer_counts(findings or [])
        self.retranslate()

    def line(self, layer: str) -> str:
        """The state of ``layer`` in words (what its label shows)."""
        if not self.known:
            return self.tr("not checked yet")
        c = self.counts.get(layer, {})
        parts = []
        if c.get("fail"):
            parts.append(self.tr("%n failure(s)", None, c["fail"]))
        if c.get("warn"):
            parts.append(self.tr("%n warning(s)", None, c["warn"]))
        if not parts:
            return self.tr("ok") if not c.get("info") else self.tr("ok, %n note(s)", None, c["info"])
        return ", ".join(parts)

    def status(self, layer: str) -> str:
        c = self.counts.get(layer, {})
        return "fail" if c.get("fail") else "warn" if c.get("warn") else "ok"

    def retranslate(self) -> None:
        for layer in LAYERS:
            self.names[layer].setText(layer_name(layer) + ":")
            label = self.states[layer]
            label.setText("● " + self.line(layer))
            color = self.theme.status_color(severity_role(self.status(layer)) if self.known else "paused")
            css = f"color: {color.name()};"
            if label.styleSheet() != css:  # set again, a style sheet re-styles the label
                label.setStyleSheet(css)
            label.setAccessibleName(f"{layer_name(layer)}: {self.line(layer)}")


class FindingDetail(QWidget):
    """The finding selected: its message and severity, the picture and the numbers measured, and the
    buttons to show its rows, fix it or say that its rows are no duplicates. ``fixChosen(fix)``: the fix
    the person chose (the finding's own, or one of the other answers to it from the button's menu)."""

    fixChosen = Signal(object)

    def __init__(self, theme: Any, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("doctorDetail")
        self.finding: Finding | None = None
        lay = QVBoxLayout(self)
        lay.setContentsMargins(0, 0, 0, 0)
        self.message = QLabel(self)
        self.message.setObjectName("doctorMessage")
        self.message.setWordWrap(True)
        lay.addWidget(self.message)
        self.plot = MeasurePlot(theme, self)
        self.plot.setMinimumHeight(140)
        lay.addWidget(self.plot, 2)
        self.numbers = QPlainTextEdit(self)
        self.numbers.setObjectName("doctorMeasure")
        self.numbers.setReadOnly(True)
        lay.addWidget(self.numbers, 1)
        self.fix_text = QLabel(self)
        self.fix_text.setObjectName("doctorFixText")
        self.fix_text.setWordWrap(True)
        lay.addWidget(self.fix_text)
        buttons = QGridLayout()  # two rows of buttons: the pane stays narrow at large text sizes
        self.show_rows = QPushButton(self)
        self.show_rows.setObjectName("doctorShowRows")
        self.fix = QPushButton(self)
        self.fix.setObjectName("doctorFix")
        self.fix.clicked.connect(self._fix_clicked)
        self.dismiss = QPushButton(self)
        self.dismiss.setObjectName("doctorDismiss")
        buttons.addWidget(self.show_rows, 0, 0)
        buttons.addWidget(self.fix, 0, 1)
        buttons.addWidget(self.dismiss, 1, 0, 1, 2)
        buttons.setColumnStretch(2, 1)
        lay.addLayout(buttons)
        self.editing = False
        self.can_show = False
        self.retranslate()
        self.show_finding(None)

    def retranslate(self) -> None:
        self.show_rows.setText(self.tr("Show the rows"))
        self.show_rows.setToolTip(self.tr("Show the rows of this finding in their tab"))
        self.fix.setText(self.tr("Fix…"))
        self.dismiss.setText(self.tr("Never merge these"))
        self.dismiss.setToolTip(
            self.tr("They are not duplicates: remember it (outside the database) and stop reporting them")
        )
        self.show_finding(self.finding)

    def show_finding(self, f: Finding | None, *, can_show: bool = False) -> None:
        self.finding, self.can_show = f, can_show
        if f is None:
            plain.set_plain(self.message, self.tr("Select a finding to see what was measured."))
            self.numbers.setPlainText("")
            self.plot.show_measure(None)
            self.fix_text.setText("")
        else:
            plain.set_plain(self.message, f"{severity_name(f.severity)}: {finding_text(f)}")
            self.numbers.setPlainText("\n".join(measure_lines(f.measure)))
            self.plot.show_measure(f.measure, f.severity)
            plain.set_plain(self.fix_text, self._fix_line(f))
        self._fix_menu()
        self._enable()

    def _fix_line(self, f: Finding) -> str:
        if f.fix is None:
            return self.tr("No one-step fix: the numbers are for you to judge.")
        layer = str(f.fix.params.get("layer") or f.layer)
        line = f"{fix_title(f.fix.code)}: {fix_summary(f.fix.code, layer)}"
        if not self.editing:
            line += " " + self.tr("(Turn on editing to fix it.)")
        return line

    def _fix_clicked(self) -> None:
        if self.finding is not None and self.finding.fix is not None and self.fix.menu() is None:
            self.fixChosen.emit(self.finding.fix)

    def _fix_menu(self) -> None:
        """A menu of the other answers where a finding has more than one fix."""
        old = self.fix.menu()
        fixes = alternatives(self.finding) if self.finding is not None else []
        if len(fixes) < 2:
            self.fix.setMenu(None)  # type: ignore[arg-type]
        else:
            menu = QMenu(self.fix)
            menu.setObjectName("doctorFixMenu")
            for fx in fixes:
                action = menu.addAction(fix_title(fx.code) + "…")
                action.triggered.connect(lambda _checked=False, fx=fx: self.fixChosen.emit(fx))
            self.fix.setMenu(menu)
        if old is not None:
            old.deleteLater()

    def set_editing(self, on: bool) -> None:
        self.editing = bool(on)
        self.show_finding(self.finding, can_show=self.can_show)

    def _enable(self) -> None:
        f = self.finding
        self.show_rows.setEnabled(f is not None and self.can_show)
        self.fix.setEnabled(f is not None and f.fix is not None and self.editing)
        is_merge = f is not None and f.fix is not None and f.fix.code == "health.fix.merge_duplicates"
        self.dismiss.setVisible(is_merge)
