"""Languages: every user-visible string translatable, a complete Simplified Chinese catalogue, switching
without a restart (Qt's own dialogs included), and fonts that render Chinese on every platform."""

from __future__ import annotations

import ast
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "philont_desktop"
TS_FILE = ROOT / "resources" / "translations" / "philont_desktop_zh_CN.ts"

# --------------------------------------------------------------------------------------------------
# The source scan: literals shown to the user must go through tr() / QCoreApplication.translate()
# --------------------------------------------------------------------------------------------------

# Calls whose result is a translated string.
TR_METHODS = {"tr", "tr_static", "translate"}
TR_FUNCTIONS = {"tr", "_tr", "_t", "translate", "qsTr"}
# Method calls that show their (positional) string arguments to the user: name -> argument positions.
TEXT_SETTERS: dict[str, tuple[int, ...]] = {
    "setText": (0,),
    "setWindowTitle": (0,),
    "setToolTip": (0,),
    "setStatusTip": (0,),
    "setWhatsThis": (0,),
    "setPlaceholderText": (0,),
    "setTitle": (0,),
    "setLabelText": (0,),
    "setInformativeText": (0,),
    "setDetailedText": (0,),
    "setCancelButtonText": (0,),
    "setButtonText": (1,),
    "setSuffix": (0,),
    "setPrefix": (0,),
    "setSpecialValueText": (0,),
    "setTabText": (1,),
    "setTabToolTip": (1,),
    "setItemText": (1,),
    "setHeaderLabels": (0,),
    "setHorizontalHeaderLabels": (0,),
    "setVerticalHeaderLabels": (0,),
    "setAccessibleName": (0,),
    "setFormat": (0,),
    "showMessage": (0,),
    "addAction": (0, 1),
    "addMenu": (0, 1),
    "addTab": (1, 2),
    "insertTab": (2, 3),
    "addItem": (0,),
    "insertItem": (1,),
    "addItems": (0,),
    "addRow": (0,),
    "addButton": (0,),
    "setLabel": (1,),  # pyqtgraph: setLabel(axis, text)
    "setHtml": (0,),
    "setPlainText": (0,),
    "setMarkdown": (0,),
    "setWindowIconText": (0,),
    "setItemData": (),
    "drawText": (-1,),  # painter.drawText(..., text): the last argument
    "setToolTipText": (0,),
}
# Constructors whose text arguments are shown: class -> positions.
TEXT_CONSTRUCTORS: dict[str, tuple[int, ...]] = {
    "QLabel": (0,),
    "QPushButton": (0, 1),
    "QToolButton": (),
    "QCheckBox": (0,),
    "QRadioButton": (0,),
    "QGroupBox": (0,),
    "QAction": (0, 1),
    "QMenu": (0,),
    "QCommandLinkButton": (0, 1),
    "QProgressDialog": (0, 1),
    "QMessageBox": (1, 2),
    "QListWidgetItem": (0, 1),
    "QTreeWidgetItem": (),
    "QStandardItem": (0, 1),
}
# Static dialogs: function -> positions of title/text/label arguments.
STATIC_DIALOGS: dict[tuple[str, str], tuple[int, ...]] = {
    ("QMessageBox", "information"): (1, 2),
    ("QMessageBox", "warning"): (1, 2),
    ("QMessageBox", "critical"): (1, 2),
    ("QMessageBox", "question"): (1, 2),
    ("QMessageBox", "about"): (1, 2),
    ("QInputDialog", "getText"): (1, 2),
    ("QInputDialog", "getInt"): (1, 2),
    ("QInputDialog", "getDouble"): (1, 2),
    ("QInputDialog", "getItem"): (1, 2),
    ("QInputDialog", "getMultiLineText"): (1, 2),
    ("QFileDialog", "getOpenFileName"): (1, 3),
    ("QFileDialog", "getSaveFileName"): (1, 3),
    ("QFileDialog", "getExistingDirectory"): (1,),
}
# Keyword arguments that carry user-visible text.
TEXT_KEYWORDS = {
    "text",
    "title",
    "toolTip",
    "tooltip",
    "statusTip",
    "placeholderText",
    "label",
    "windowTitle",
}

_TAG = re.compile(r"<[^>]*>|&[a-zA-Z]+;|&#\d+;")
_PLACEHOLDER = re.compile(r"\{[^{}]*\}|%\d|%n|%L\d")
_WORD = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]")
# Literals that are the same in every language: acronyms, units, file patterns, numbers.
_NEUTRAL = re.compile(r"^[\sA-Z0-9_.,:;/\\+\-*#%()\[\]<>=|·…✕×→←↑↓⚠✓✗●○◆★☆•—–'\"!?@]*$")


# Names that every language writes the same way.
PROPER_NAMES = {
    "Linux",
    "Windows",
    "macOS",
    "SQLite",
    "Qt",
    "PySide6",
    "pyqtgraph",
    "Python",
    "JSON",
    "JSONL",
}


def visible_words(text: str) -> bool:
    """Does ``text`` carry words a user reads (after removing HTML tags, entities and placeholders)?"""
    stripped = _PLACEHOLDER.sub(" ", _TAG.sub(" ", text))
    if stripped.strip() in PROPER_NAMES or _NEUTRAL.match(stripped):
        return False
    return bool(_WORD.search(stripped))


def _call_name(func: ast.expr) -> tuple[str | None, str | None]:
    """``(owner, name)`` of a call target: ``self.tr`` -> ("self", "tr"), ``_tr`` -> (None, "_tr")."""
    if isinstance(func, ast.Name):
        return None, func.id
    if isinstance(func, ast.Attribute):
        owner = func.value
        if isinstance(owner, ast.Name):
            return owner.id, func.attr
        if isinstance(owner, ast.Attribute):
            return owner.attr, func.attr
        return "", func.attr
    return None, None


def is_translated(node: ast.expr) -> bool:
    """Is ``node`` a translated string (a tr/translate call, possibly ``.format``-ed or joined)?"""
    if isinstance(node, ast.Call):
        owner, name = _call_name(node.func)
        if owner is None and name in TR_FUNCTIONS:
            return True
        if owner is not None and name in TR_METHODS:
            return True
        if name in ("format", "arg", "replace", "strip", "upper", "lower", "capitalize") and isinstance(
            node.func, ast.Attribute
        ):
            return is_translated(node.func.value)
    return False


def untranslated_literals(node: ast.expr) -> list[str]:
    """The literals with words inside ``node`` that are not inside a translation call."""
    if is_translated(node):
        return []
    out: list[str] = []
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        if visible_words(node.value):
            out.append(node.value)
    elif isinstance(node, ast.JoinedStr):
        static = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
        if visible_words(static):
            out.append(static)
        for v in node.values:
            if isinstance(v, ast.FormattedValue):
                out += untranslated_literals(v.value)
    elif isinstance(node, ast.BinOp):
        out += untranslated_literals(node.left) + untranslated_literals(node.right)
    elif isinstance(node, ast.IfExp):
        out += untranslated_literals(node.body) + untranslated_literals(node.orelse)
    elif isinstance(node, ast.BoolOp):
        for v in node.values:
            out += untranslated_literals(v)
    elif isinstance(node, (ast.List, ast.Tuple)):
        for v in node.elts:
            out += untranslated_literals(v)
    elif isinstance(node, ast.Call):
        _owner, name = _call_name(node.func)
        if name in ("format", "join") and isinstance(node.func, ast.Attribute):
            out += untranslated_literals(node.func.value)
            if name == "format":
                for a in node.args:
                    out += untranslated_literals(a)
            else:
                for a in node.args:
                    out += untranslated_literals(a)
    return out


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    call: str
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.call}({self.text!r}) is not wrapped in tr()"


def _exempt_lines(source: str) -> set[int]:
    """Lines marked ``# i18n: ignore`` (a literal that is the same in every language, e.g. a file name)."""
    return {i for i, line in enumerate(source.splitlines(), 1) if "i18n: ignore" in line}


def scan_source(source: str, path: str = "<string>") -> list[Finding]:
    """Every user-visible literal passed to a Qt text setter, constructor or dialog without tr()."""
    tree = ast.parse(source)
    exempt = _exempt_lines(source)
    findings: list[Finding] = []

    def check(call: ast.Call, label: str, positions: tuple[int, ...], keywords: bool = True) -> None:
        n = len(call.args)
        args = [a for i, a in enumerate(call.args) if i in positions or (i - n) in positions]
        if keywords:
            args += [k.value for k in call.keywords if k.arg in TEXT_KEYWORDS]
        for arg in args:
            for text in untranslated_literals(arg):
                if call.lineno not in exempt and getattr(arg, "lineno", 0) not in exempt:
                    findings.append(Finding(path, getattr(arg, "lineno", call.lineno), label, text))

    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        owner, name = _call_name(node.func)
        if name is None:
            continue
        if (owner, name) in STATIC_DIALOGS:
            check(node, f"{owner}.{name}", STATIC_DIALOGS[(owner, name)])
        elif owner is None and name in TEXT_CONSTRUCTORS:
            check(node, name, TEXT_CONSTRUCTORS[name])
        elif owner is not None and name in TEXT_SETTERS:
            check(node, name, TEXT_SETTERS[name], keywords=False)
    return findings


def gui_sources() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts)


def scan_package() -> list[Finding]:
    findings: list[Finding] = []
    for path in gui_sources():
        findings += scan_source(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))
    return findings


# -- the scanner itself -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("code", "expected"),
    [
        ("w.setText('Hello')", ["Hello"]),
        ("w.setText(self.tr('Hello'))", []),
        ("w.setText(self.tr('Hello {0}').format(x))", []),
        ("w.setToolTip(f'Open {path}')", ["Open "]),
        ("w.setText(f'<b>{self.tr(\"Recent\")}</b>')", []),
        ("w.setText('✕')", []),
        ("w.setText('JSON')", []),
        ("w.setText('')", []),
        ("QLabel('Name:')", ["Name:"]),
        ("QPushButton(icon, 'Open')", ["Open"]),
        ("QPushButton(icon, self.tr('Open'))", []),
        ("QMessageBox.warning(self, 'Oops', self.tr('Broken'))", ["Oops"]),
        ("menu.addAction('Copy')", ["Copy"]),
        ("menu.addAction(icon, 'Copy')", ["Copy"]),
        ("tabs.addTab(w, _tr('Overview'))", []),
        ("tabs.addTab(w, 'Overview')", ["Overview"]),
        ("bar.showMessage('Saved ' + name)", ["Saved "]),
        ("w.setText(self.tr('a') if x else 'no data')", ["no data"]),
        ("w.setText(QCoreApplication.translate('Ctx', 'Hello'))", []),
        ("w.setText('Hello')  # i18n: ignore", []),
        ("QAction(text='Quit', parent=self)", ["Quit"]),
        ("w.setText('12 ms')", ["12 ms"]),
        ("w.setText('中文')", ["中文"]),
        ("combo.addItem('macOS', 'darwin')", []),
        ("plot.setLabel('left', 'score')", ["score"]),
        ("plot.setLabel('left', self.tr('score'))", []),
        ("painter.drawText(rect, flags, 'No data')", ["No data"]),
        ("painter.drawText(rect, flags, self.tr('No data'))", []),
        ("view.setHtml(f'<p>{html.escape(text)}</p>')", []),
        ("view.setHtml('<p>Nothing here</p>')", ["<p>Nothing here</p>"]),
    ],
)
def test_scanner_finds_unwrapped_literals(code: str, expected: list[str]) -> None:
    assert [f.text for f in scan_source(code)] == expected


def test_every_user_visible_literal_is_translatable() -> None:
    findings = scan_package()
    assert not findings, "untranslatable user-visible strings:\n" + "\n".join(map(str, findings))


def test_every_tr_call_has_a_literal_text() -> None:
    """lupdate only sees literals: ``tr(variable)`` would never reach the catalogue."""
    helpers = re.compile(r"return QCoreApplication\.translate\(\"\w+\", text(, None, n)?\)")
    problems = []
    for path in gui_sources():
        if path.name == "i18n.py":  # the translation machinery itself passes texts through
            continue
        source = path.read_text(encoding="utf-8")
        if path.relative_to(PACKAGE).as_posix() == "tabs/__init__.py":
            # The tab registry translates the titles it was given: each one a QT_TRANSLATE_NOOP.
            registrations = re.findall(r"^register\((.*)\)$", source, flags=re.MULTILINE)
            assert registrations and all("QT_TRANSLATE_NOOP(" in r for r in registrations)
            continue
        if path.relative_to(PACKAGE).as_posix() == "health/pages.py":
            # The Health tab's pages: each title a QT_TRANSLATE_NOOP, translated by the page registry.
            pages = re.findall(r"^register_page\((.*?)\)$", source, flags=re.MULTILINE | re.DOTALL)
            assert pages and all("QT_TRANSLATE_NOOP(" in p for p in pages)
            continue
        noop_names = set(re.findall(r"^(\w+) = QT_TRANSLATE_NOOP\(", source, flags=re.MULTILINE))
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            owner, name = _call_name(node.func)
            if name in ("tr", "_tr", "tr_static"):
                arg = node.args[0]
            elif name == "translate" and owner is not None and len(node.args) >= 2:
                arg = node.args[1]
            else:
                continue
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                continue
            if isinstance(arg, ast.Name) and (arg.id in noop_names or arg.id == "text"):
                line = source.splitlines()[node.lineno - 1]
                if arg.id in noop_names or helpers.search(line):
                    continue
            problems.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(node)}")
    assert not problems, "tr() of a non-literal (use a literal or QT_TRANSLATE_NOOP):\n" + "\n".join(problems)


# --------------------------------------------------------------------------------------------------
# The Simplified Chinese catalogue
# --------------------------------------------------------------------------------------------------

_PLACEHOLDERS = re.compile(r"\{\d*\}|%L?\d|%n")
_TAGS = re.compile(r"</?([a-zA-Z]+)[^>]*>")
_MNEMONIC = re.compile(r"&(?!&)[^\s&;]")
# Sources that read the same in Chinese (file patterns, technical names).
SAME_IN_CHINESE = {
    "quick_check",
    "UTC {0}",
    "→ {0}",
    "v{0}",
    "JSON (*.json)",
    "CSV (*.csv)",
    "JSON Lines (*.jsonl)",
    "Telegram",
    "{0} — {1}",
    "%1 / %2",
    "{0} · {1}",
}


def _messages() -> list[tuple[str, ET.Element]]:
    root = ET.parse(TS_FILE).getroot()
    return [(c.findtext("name") or "", m) for c in root.iter("context") for m in c.iter("message")]


def test_catalogue_is_a_zh_cn_linguist_file() -> None:
    root = ET.parse(TS_FILE).getroot()
    assert root.tag == "TS"
    assert root.get("language") == "zh_CN"
    assert root.get("sourcelanguage") == "en"
    assert len(_messages()) > 900


def test_catalogue_is_complete() -> None:
    problems = []
    for ctx, m in _messages():
        source = m.findtext("source") or ""
        tr = m.find("translation")
        kind = tr.get("type") if tr is not None else "missing"
        text = "".join(tr.itertext()) if tr is not None else ""
        if kind is not None:
            problems.append(f"[{ctx}] {source!r}: {kind}")
        elif not text.strip():
            problems.append(f"[{ctx}] {source!r}: empty translation")
    assert not problems, "run `python -m philont_desktop.i18n update` and translate:\n" + "\n".join(problems)


def test_translations_keep_placeholders_tags_and_mnemonics() -> None:
    problems = []
    for ctx, m in _messages():
        source = m.findtext("source") or ""
        text = "".join(m.find("translation").itertext())
        if sorted(_PLACEHOLDERS.findall(source)) != sorted(_PLACEHOLDERS.findall(text)):
            problems.append(f"[{ctx}] placeholders differ: {source!r} -> {text!r}")
        if sorted(_TAGS.findall(source)) != sorted(_TAGS.findall(text)):
            problems.append(f"[{ctx}] HTML tags differ: {source!r} -> {text!r}")
        if bool(_MNEMONIC.search(source)) != bool(_MNEMONIC.search(text)):
            problems.append(f"[{ctx}] mnemonic lost or added: {source!r} -> {text!r}")
        if source.count("\n") != text.count("\n") and "\n\n" in source:
            problems.append(f"[{ctx}] paragraphs differ: {source!r} -> {text!r}")
    assert not problems, "\n".join(problems)


def test_translations_are_chinese() -> None:
    """Every message with words is translated (not left as its English source) and mostly into Chinese."""
    han = re.compile(r"[\u4e00-\u9fff]")
    untranslated, chinese, worded = [], 0, 0
    for ctx, m in _messages():
        source = m.findtext("source") or ""
        text = "".join(m.find("translation").itertext())
        if source in SAME_IN_CHINESE or not visible_words(source):
            continue
        worded += 1
        chinese += bool(han.search(text))
        if text == source:
            untranslated.append(f"[{ctx}] {source!r} -> {text!r}")
    assert chinese / worded > 0.98
    assert not untranslated, "\n".join(untranslated)


def test_catalogue_covers_every_translatable_literal_in_the_sources() -> None:
    """What the sources translate is in the catalogue, also where lupdate's Python reader does not look
    (f-strings, after nested functions): in the caller's context or the global one Qt falls back to."""
    from philont_desktop.i18n_tools import extract_messages

    active = set()
    for ctx, m in _messages():
        active.add((ctx, m.findtext("source") or ""))
    missing = [
        f"{msg.path}:{msg.line}: [{msg.context}] {msg.source!r}"
        for msg in extract_messages()
        if (msg.context, msg.source) not in active and ("", msg.source) not in active
    ]
    assert not missing, "run `python -m philont_desktop.i18n update` and translate:\n" + "\n".join(missing)


def test_no_compiled_catalogue_is_committed() -> None:
    import subprocess

    tracked = subprocess.run(
        ["git", "ls-files", "*.qm"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split()
    assert tracked == []


# --------------------------------------------------------------------------------------------------
# Choosing and switching the language at run time
# --------------------------------------------------------------------------------------------------


def _has_lrelease() -> bool:
    from philont_desktop.i18n import find_lrelease

    return find_lrelease() is not None


needs_lrelease = pytest.mark.skipif(not _has_lrelease(), reason="no lrelease (PySide6-Essentials ships one)")


@pytest.fixture
def lang(qapp):
    """Switch languages in a test; English and the original font come back afterwards."""
    from philont_desktop import fonts, i18n

    font = qapp.font()
    yield i18n.install
    i18n.uninstall()
    qapp.setFont(font)
    fonts._fonts_applied = False


@pytest.mark.parametrize(
    ("asked", "expected"),
    [
        ("en", "en"),
        ("en_US", "en"),
        ("zh_CN", "zh_CN"),
        ("zh-Hans-CN", "zh_CN"),
        ("zh_TW", "zh_CN"),
        ("zh", "zh_CN"),
        ("fr_FR", "en"),
        ("xx", "en"),
    ],
)
def test_resolve_language(asked: str, expected: str) -> None:
    from philont_desktop.i18n import resolve_language

    assert resolve_language(asked) == expected


def test_empty_language_means_the_systems(monkeypatch) -> None:
    from philont_desktop import i18n

    monkeypatch.setattr(i18n, "system_language", lambda: "zh_CN")
    assert i18n.resolve_language("") == "zh_CN"
    assert i18n.resolve_language(None) == "zh_CN"
    assert i18n.resolve_language("system") == "zh_CN"


@needs_lrelease
def test_switching_translates_widgets_and_qts_own_dialogs_without_restart(lang, qtbot) -> None:
    from philont_desktop import i18n
    from philont_desktop.qt import (
        QAction,
        QCoreApplication,
        QDialogButtonBox,
        QLabel,
        QUndoCommand,
        QUndoStack,
        QVBoxLayout,
        QWidget,
    )
    from philont_desktop.retranslate import Retranslatable

    class Window(Retranslatable, QWidget):
        def __init__(self):
            super().__init__()
            self.retranslated = 0
            self.label = QLabel(QCoreApplication.translate("TimelineTab", "Timeline"))
            self.dynamic = QLabel()
            self.action = QAction(QCoreApplication.translate("WindowMenus", "&Refresh"), self)
            self.buttons = QDialogButtonBox(
                QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
            )
            layout = QVBoxLayout(self)
            for w in (self.label, self.dynamic, self.buttons):
                layout.addWidget(w)
            self.retranslate()

        def retranslate(self):
            self.retranslated += 1
            self.dynamic.setText(QCoreApplication.translate("SkillsFilterBar", "%n skill(s)", None, 3))

    loaded = lang("en")
    assert loaded == []
    w = Window()
    qtbot.addWidget(w)
    assert (w.label.text(), w.dynamic.text(), w.action.text()) == ("Timeline", "3 skills", "&Refresh")
    assert [b.text() for b in w.buttons.buttons()] == ["OK", "Cancel"]

    loaded = lang("zh_CN")
    assert any(p.endswith("qtbase_zh_CN.qm") for p in loaded)
    assert any("philont_desktop_zh_CN" in p for p in loaded)
    assert i18n.current_language() == "zh_CN"
    assert w.label.text() == "时间线"  # static text: switched automatically
    assert w.dynamic.text() == "3 个技能"  # run-time text: rebuilt by retranslate()
    assert w.action.text() == "刷新(&R)"
    assert [b.text() for b in w.buttons.buttons()] == ["确定", "取消"]  # Qt's own catalogue
    stack = QUndoStack()
    undo = stack.createUndoAction(w)
    assert undo.text() == "撤销"  # QUndoStack's texts come from Qt's catalogue
    stack.push(QUndoCommand("Pin fact"))
    assert undo.text().startswith("撤") and undo.text().endswith("Pin fact")
    assert w.retranslated >= 2

    lang("en")
    assert (w.label.text(), w.dynamic.text(), w.action.text()) == ("Timeline", "3 skills", "&Refresh")
    assert [b.text() for b in w.buttons.buttons()] == ["OK", "Cancel"]


@needs_lrelease
def test_same_chinese_text_goes_back_to_the_right_english_source(lang, qtbot) -> None:
    from philont_desktop.qt import QLabel, QVBoxLayout, QWidget

    class FactsModel(QWidget):  # "Score" and "score" are both 得分 in Chinese (named as their contexts)
        def __init__(self):
            super().__init__()
            self.header = QLabel(self.tr("Score"), self)

    class DecayCurvePlot(QWidget):
        def __init__(self):
            super().__init__()
            self.axis = QLabel(self.tr("score"), self)

    lang("zh_CN")
    root = QWidget()
    qtbot.addWidget(root)
    a, b = FactsModel(), DecayCurvePlot()
    layout = QVBoxLayout(root)
    layout.addWidget(a)
    layout.addWidget(b)
    assert a.header.text() == b.axis.text() == "得分"
    lang("en")
    assert (a.header.text(), b.axis.text()) == ("Score", "score")


@needs_lrelease
def test_main_window_switches_language_with_a_database_open(lang, qtbot, demo_db_path, tmp_path, monkeypatch):
    from philont_desktop.main_window import MainWindow
    from philont_desktop.settings import Settings
    from philont_desktop.theme import Theme
    from philont_desktop.workers import spin_until

    monkeypatch.setenv("PHILONT_DESKTOP_SETTINGS_DIR", str(tmp_path / "settings"))
    lang("en")
    w = MainWindow(Settings(), Theme("light"), read_only=True, interactive=False)
    qtbot.addWidget(w)
    w.show()
    w.open_database(demo_db_path)
    assert spin_until(lambda: w.ctx is not None, 20_000), w.open_error
    for name in ("timeline", "facts", "skills"):
        tab = w.show_tab(name)
        tab.ensure_activated()
        assert tab.wait_idle(20_000)
    titles = [w.tab_widget.tabText(i) for i in range(w.tab_widget.count())]
    assert titles[:3] == ["Timeline", "Actions", "Notes"]
    menus = [a.text() for a in w.menuBar().actions()]
    assert menus == ["&File", "&Edit", "&View", "&Help"]

    w.set_language("zh_CN")
    titles = [w.tab_widget.tabText(i) for i in range(w.tab_widget.count())]
    assert titles[:9] == ["时间线", "操作", "笔记", "事实", "技能", "上下文", "日历", "备份", "审计"]
    assert [a.text() for a in w.menuBar().actions()] == ["文件(&F)", "编辑(&E)", "视图(&V)", "帮助(&H)"]
    assert w.mode_label.text() == "只读"
    assert "[只读]" in w.windowTitle()
    assert w.language_actions["zh_CN"].isChecked()
    skills = w.tabs_by_name["skills"]
    assert skills.wait_idle(20_000)
    facts = w.tabs_by_name["facts"]
    assert facts.wait_idle(20_000)
    assert facts.time_label.text() == "现在"

    w.set_language("en")
    assert [w.tab_widget.tabText(i) for i in range(3)] == ["Timeline", "Actions", "Notes"]
    assert w.mode_label.text() == "read-only"
    assert facts.time_label.text() == "now"


def test_lang_option_is_accepted() -> None:
    from philont_desktop.app import build_parser

    assert build_parser().parse_args(["--lang", "zh_CN"]).lang == "zh_CN"
    assert build_parser().parse_args(["--lang", "en", "--theme", "dark"]).theme == "dark"


# --------------------------------------------------------------------------------------------------
# Catalogues compiled at run time in a source checkout
# --------------------------------------------------------------------------------------------------


def _fake_checkout(tmp_path: Path, monkeypatch, qm: bool = False) -> Path:
    from philont_desktop import i18n

    folder = tmp_path / "translations"
    folder.mkdir()
    ts = folder / "philont_desktop_zh_CN.ts"
    ts.write_text(TS_FILE.read_text(encoding="utf-8"), encoding="utf-8")
    if qm:
        (folder / "philont_desktop_zh_CN.qm").write_bytes(b"stale")
    monkeypatch.setattr(i18n, "translation_dirs", lambda: [folder])
    monkeypatch.setattr(i18n, "cache_dir", lambda: tmp_path / "cache")
    return ts


@needs_lrelease
def test_missing_qm_is_compiled_into_the_cache(tmp_path, monkeypatch) -> None:
    from philont_desktop import i18n

    _fake_checkout(tmp_path, monkeypatch)
    qm = i18n.catalogue_file("zh_CN")
    assert qm is not None and qm.parent == tmp_path / "cache"
    assert qm.stat().st_size > 10_000
    assert i18n.catalogue_file("zh_CN") == qm  # reused, not compiled again


@needs_lrelease
def test_qm_older_than_its_ts_is_not_used(tmp_path, monkeypatch) -> None:
    import os

    from philont_desktop import i18n

    ts = _fake_checkout(tmp_path, monkeypatch, qm=True)
    stale = ts.with_suffix(".qm")
    os.utime(stale, (ts.stat().st_mtime - 100, ts.stat().st_mtime - 100))
    qm = i18n.catalogue_file("zh_CN")
    assert qm is not None and qm != stale and qm.parent == tmp_path / "cache"
    os.utime(stale, (ts.stat().st_mtime + 100, ts.stat().st_mtime + 100))
    assert i18n.catalogue_file("zh_CN") == stale  # a built .qm newer than the source is used as is


def test_without_lrelease_the_interface_stays_english(lang, tmp_path, monkeypatch, caplog) -> None:
    from philont_desktop import i18n
    from philont_desktop.qt import QCoreApplication

    _fake_checkout(tmp_path, monkeypatch)
    monkeypatch.setattr(i18n, "find_lrelease", lambda: None)
    with caplog.at_level("WARNING", logger="philont_desktop.i18n"):
        loaded = lang("zh_CN")
    assert not any("philont_desktop" in p for p in loaded)
    assert "no lrelease tool found" in caplog.text
    assert QCoreApplication.translate("MainWindow", "&File") == "&File"


# --------------------------------------------------------------------------------------------------
# Fonts that render Chinese
# --------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("platform", "system", "first", "cjk"),
    [
        ("win32", "Segoe UI", "Segoe UI", "Microsoft YaHei UI"),
        ("darwin", ".AppleSystemUIFont", ".AppleSystemUIFont", "PingFang SC"),
        ("linux", "Cantarell", "Cantarell", "Noto Sans CJK SC"),
        ("linux", "Sans Serif", "Noto Sans", "WenQuanYi Micro Hei"),
        ("freebsd13", None, "Noto Sans", "Noto Sans CJK SC"),
    ],
)
def test_ui_font_families_start_with_the_system_font_and_cover_chinese(platform, system, first, cjk) -> None:
    from philont_desktop.fonts import has_cjk, ui_font_families

    families = ui_font_families(platform, system)
    assert families[0] == first
    assert cjk in families
    assert has_cjk(families, platform)
    assert len(families) == len(set(families))


@pytest.mark.parametrize(
    ("platform", "system", "cjk"),
    [
        ("win32", "Consolas", "Microsoft YaHei UI"),
        ("darwin", "Menlo", "PingFang SC"),
        ("linux", "DejaVu Sans Mono", "Noto Sans Mono CJK SC"),
        ("linux", "monospace", "WenQuanYi Micro Hei Mono"),
    ],
)
def test_monospace_families_cover_chinese(platform, system, cjk) -> None:
    from philont_desktop.fonts import has_cjk, monospace_families

    families = monospace_families(platform, system)
    assert families[0] == (system if system != "monospace" else families[0])
    assert cjk in families
    assert has_cjk(families, platform)


@needs_lrelease
def test_application_font_renders_chinese(lang, qapp) -> None:
    from philont_desktop.fonts import monospace_font
    from philont_desktop.qt import QFontDatabase, QTextLayout

    if not QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese):
        pytest.skip("no font with Chinese glyphs is installed on this machine")
    lang("zh_CN")
    families = qapp.font().families()
    assert "WenQuanYi Micro Hei" in families
    for font in (qapp.font(), monospace_font()):
        layout = QTextLayout("记忆 memory", font)
        layout.beginLayout()
        layout.createLine()
        layout.endLayout()
        runs = layout.glyphRuns()
        cjk = [r for r in runs if r.rawFont().supportsCharacter(ord("记"))]
        assert cjk, [r.rawFont().familyName() for r in runs]
        assert all(i != 0 for r in cjk for i in r.glyphIndexes())  # glyph 0 is the "missing" box
