"""Human form of times, durations, scores, sizes and JSON values: the one place every tab formats with.

Times are shown relative and absolute (``3 days ago · 2026-11-28 14:05``), never as raw epoch
milliseconds; scores as a percentage, ``≈ 0`` below :data:`SCORE_FLOOR`, with the exact value for the
tooltip (:func:`exact_number`); JSON on one line in cells (:func:`json_line`) and pretty-printed in
detail views (:func:`json_pretty`, coloured by :class:`JsonHighlighter`). Counts use Qt's plural forms:
``self.tr("%n version(s)", None, n)`` — the English ``(s)`` is resolved by the application's translator
(:func:`philont_desktop.i18n.english_plural`), Chinese has one form.

A value that cannot be shown as what it should be (a time column holding text, a NaN score) gives
:data:`UNREADABLE` rather than raising, so one damaged value never breaks a view.
"""

from __future__ import annotations

import html
import json
import math
import re
from typing import Any

from core.damage import unreadable_time
from philont_desktop.qt import (
    QColor,
    QCoreApplication,
    QDateTime,
    QPalette,
    QSyntaxHighlighter,
    QTextCharFormat,
    QTextDocument,
)

MINUTE_MS = 60_000
HOUR_MS = 60 * MINUTE_MS
DAY_MS = 24 * HOUR_MS
MONTH_MS = round(30.436875 * DAY_MS)
YEAR_MS = round(365.2425 * DAY_MS)
# Scores below this show as "≈ 0" (0.05 %); the exact value stays in the tooltip and in exports.
SCORE_FLOOR = 0.0005
# Times outside what the calendar can show (SQLite integers reach ±2^63 ms).
_MIN_MS, _MAX_MS = -62_135_596_800_000, 253_402_300_799_999  # 0001-01-01 .. 9999-12-31 UTC


def unreadable() -> str:
    """The marker of a value that is stored but cannot be read as what its column should hold."""
    return QCoreApplication.translate("Humanize", "⚠ unreadable")


UNREADABLE = "⚠ unreadable"  # the English marker, for tests and logs


def _valid_ms(ms: Any) -> int | None:
    if isinstance(ms, bool) or not isinstance(ms, int | float) or unreadable_time(ms):
        return None
    if isinstance(ms, float) and not math.isfinite(ms):
        return None
    if not _MIN_MS <= ms <= _MAX_MS:
        return None
    return int(ms)


# --------------------------------------------------------------------------------------------------
# Times
# --------------------------------------------------------------------------------------------------


def abs_time(ms: Any, *, seconds: bool = False, date_only: bool = False) -> str:
    """Local ``2026-11-28 14:05`` (``:SS`` with ``seconds``, the date alone with ``date_only``);
    empty for ``None``; the unreadable marker for anything that is not a time."""
    if ms is None:
        return ""
    v = _valid_ms(ms)
    if v is None:
        return unreadable()
    fmt = "yyyy-MM-dd" if date_only else ("yyyy-MM-dd HH:mm:ss" if seconds else "yyyy-MM-dd HH:mm")
    return QDateTime.fromMSecsSinceEpoch(v).toLocalTime().toString(fmt)


def _calendar_days(ms: int, now: int) -> int:
    """Local calendar days between two times: what the absolute date beside a relative one shows
    (a time 9½ days back on the 21st reads "10 days ago" on the 1st, as its date does)."""
    local = QDateTime.fromMSecsSinceEpoch
    return abs(local(ms).toLocalTime().date().daysTo(local(now).toLocalTime().date()))


def rel_time(ms: Any, now: int) -> str:
    """``just now``, ``5 min ago``, ``in 3 h``, ``2 days ago``, ``4 months ago``, ``in 1 year``."""
    v = _valid_ms(ms)
    if v is None:
        return "" if ms is None else unreadable()
    delta = v - int(now)
    d = abs(delta)
    future = delta > 0
    if d < MINUTE_MS:
        return QCoreApplication.translate("Humanize", "just now")
    if d < HOUR_MS:
        n = d // MINUTE_MS
        return (
            QCoreApplication.translate("Humanize", "in %n min", None, n)
            if future
            else QCoreApplication.translate("Humanize", "%n min ago", None, n)
        )
    if d < DAY_MS:
        n = d // HOUR_MS
        return (
            QCoreApplication.translate("Humanize", "in %n h", None, n)
            if future
            else QCoreApplication.translate("Humanize", "%n h ago", None, n)
        )
    if d < 60 * DAY_MS:
        n = max(1, _calendar_days(v, int(now)))
        return (
            QCoreApplication.translate("Humanize", "in %n day(s)", None, n)
            if future
            else QCoreApplication.translate("Humanize", "%n day(s) ago", None, n)
        )
    if d < 2 * YEAR_MS:
        n = d // MONTH_MS
        return (
            QCoreApplication.translate("Humanize", "in %n month(s)", None, n)
            if future
            else QCoreApplication.translate("Humanize", "%n month(s) ago", None, n)
        )
    n = d // YEAR_MS
    return (
        QCoreApplication.translate("Humanize", "in %n year(s)", None, n)
        if future
        else QCoreApplication.translate("Humanize", "%n year(s) ago", None, n)
    )


def when(ms: Any, now: int, *, seconds: bool = False) -> str:
    """Relative and absolute: ``3 days ago · 2026-11-28 14:05``; empty for ``None``."""
    if ms is None:
        return ""
    if _valid_ms(ms) is None:
        return unreadable()
    return QCoreApplication.translate("Humanize", "{0} · {1}").format(
        rel_time(ms, now), abs_time(ms, seconds=seconds)
    )


def duration(ms: Any) -> str:
    """A length of time in its largest sensible unit: ``40 min``, ``5 h``, ``12 days``, ``1.5 years``."""
    if isinstance(ms, bool) or not isinstance(ms, int | float) or math.isnan(ms):
        return unreadable()
    if math.isinf(ms):
        return "∞"
    d = abs(ms)
    if d >= YEAR_MS:
        years = d / YEAR_MS
        text = f"{years:.1f}".rstrip("0").rstrip(".")
        return (
            QCoreApplication.translate("Humanize", "{0} years").format(text)
            if text != "1"
            else QCoreApplication.translate("Humanize", "1 year")
        )
    if d >= 2 * DAY_MS:
        return QCoreApplication.translate("Humanize", "%n day(s)", None, round(d / DAY_MS))
    if d >= 2 * HOUR_MS:
        return QCoreApplication.translate("Humanize", "%n h", None, round(d / HOUR_MS))
    if d >= MINUTE_MS:
        return QCoreApplication.translate("Humanize", "%n min", None, round(d / MINUTE_MS))
    return QCoreApplication.translate("Humanize", "%n s", None, round(d / 1000))


def days(value: Any) -> str:
    """A number of days (a decay constant τ): ``60 days``, ``∞`` for never, ``0.5 days``."""
    if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
        return unreadable()
    if math.isinf(value):
        return "∞"
    if float(value).is_integer():
        return QCoreApplication.translate("Humanize", "%n day(s)", None, int(value))
    return QCoreApplication.translate("Humanize", "{0} days").format(short_decimal(value))


def tau_help() -> str:
    """What τ (tau) means, in words, for tooltips wherever it is shown."""
    return QCoreApplication.translate(
        "Humanize",
        "τ (tau) is how fast a fact fades while it is not read: its score is confidence × e^(−age / τ), so "
        "τ days after it was last read it is down to 37 % of its confidence. ∞: never fades; pinned: "
        "never fades and is never forgotten.",
    )


# --------------------------------------------------------------------------------------------------
# Numbers
# --------------------------------------------------------------------------------------------------


def short_decimal(x: float, digits: int = 2) -> str:
    """``0.87``, ``12``, ``0.5`` (trailing zeros dropped, never scientific notation)."""
    text = f"{float(x):.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def exact_number(x: Any) -> str:
    """The stored number in full (``0.873123456789``, ``2.3e-167``, ``NaN``) for tooltips and exports."""
    if x is None:
        return ""
    if isinstance(x, bool) or not isinstance(x, int | float):
        return repr(x)
    if isinstance(x, float):
        if math.isnan(x):
            return "NaN"
        if math.isinf(x):
            return "Infinity" if x > 0 else "-Infinity"
        return repr(x)
    return str(x)


def value_text(value: Any, limit: int = 40) -> str:
    """A stored value inside a sentence: ``empty`` for NULL, text quoted on one line (cut at ``limit``),
    numbers in full."""
    if value is None:
        return QCoreApplication.translate("Humanize", "empty")
    if isinstance(value, str):
        text = " ".join(value.split())
        text = text if len(text) <= limit else text[: limit - 1] + "…"
        return QCoreApplication.translate("Humanize", "“{0}”").format(text)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return exact_number(value)
    return json_line(value, limit)


def score_text(score: Any) -> str:
    """A decay score (0..1) for a cell: ``87 %``, ``4.2 %``, ``0.31 %``, ``≈ 0`` below the display floor;
    the unreadable marker for NaN or a non-number."""
    if isinstance(score, bool) or not isinstance(score, int | float) or math.isnan(score):
        return unreadable()
    if math.isinf(score):
        return "∞" if score > 0 else "-∞"
    if abs(score) < SCORE_FLOOR:
        return "≈ 0"
    pct = score * 100
    if abs(pct) >= 10:
        return f"{pct:.0f} %"
    if abs(pct) >= 1:
        return f"{pct:.1f} %"
    return f"{pct:.2f} %"


def score_fraction(score: Any) -> float:
    """The width of a score bar in 0..1 (0 for NaN and non-numbers)."""
    if isinstance(score, bool) or not isinstance(score, int | float) or math.isnan(score):
        return 0.0
    return min(1.0, max(0.0, float(score)))


def size_text(n_bytes: Any) -> str:
    """``512 B``, ``3.4 KiB``, ``12 MiB``, ``1.2 GiB``."""
    if isinstance(n_bytes, bool) or not isinstance(n_bytes, int | float) or math.isnan(n_bytes):
        return unreadable()
    n = float(n_bytes)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if abs(n) < 1024 or unit == "GiB":
            return (
                f"{int(n)} {unit}" if unit == "B" else f"{short_decimal(n, 1 if abs(n) < 100 else 0)} {unit}"
            )
        n /= 1024
    return f"{short_decimal(n, 1)} TiB"  # pragma: no cover - the loop returns at GiB


def count_text(n: int) -> str:
    """A count with the locale's digit grouping (``12,345``)."""
    return f"{n:,}"


# --------------------------------------------------------------------------------------------------
# JSON values
# --------------------------------------------------------------------------------------------------


def _default(obj: Any) -> Any:
    return repr(obj)


def json_line(value: Any, limit: int = 500) -> str:
    """A JSON value on one line for a cell (``{"city": "北京", "since": 2024}``), cut at ``limit``
    characters with ``…``. Strings show as themselves, without quotes."""
    if isinstance(value, str):
        text = value
    else:
        try:
            text = json.dumps(value, ensure_ascii=False, separators=(", ", ": "), default=_default)
        except (ValueError, RecursionError):
            text = repr(value)
    text = " ".join(text.split("\n"))
    return text if len(text) <= limit else text[: limit - 1] + "…"


def json_pretty(value: Any) -> str:
    """A JSON value indented for a detail view (two spaces, non-ASCII kept)."""
    try:
        return json.dumps(value, ensure_ascii=False, indent=2, default=_default)
    except (ValueError, RecursionError):
        return repr(value)


def json_text_pretty(text: str) -> str:
    """Stored JSON text re-indented; the text as it is when it is not JSON."""
    try:
        return json_pretty(json.loads(text))
    except (ValueError, TypeError, RecursionError):
        return text


_TOKEN = re.compile(
    r'(?P<key>"(?:[^"\\]|\\.)*"(?=\s*:))|(?P<string>"(?:[^"\\]|\\.)*")'
    r"|(?P<number>-?\b\d+(?:\.\d+)?(?:[eE][+-]?\d+)?\b|\bNaN\b|-?\bInfinity\b)"
    r"|(?P<literal>\btrue\b|\bfalse\b|\bnull\b)"
)


def json_colours(dark: bool) -> dict[str, str]:
    """The colours of JSON keys, strings, numbers and literals on a light or dark background."""
    if dark:
        return {"key": "#8ab4f8", "string": "#a5d6a7", "number": "#ffcc80", "literal": "#ce93d8"}
    return {"key": "#1a5fb4", "string": "#26762b", "number": "#a8540c", "literal": "#8e24aa"}


def json_html(text: str, dark: bool = False) -> str:
    """JSON text as escaped HTML with the colours of :class:`JsonHighlighter` (for a piece of a rich-text
    view; wrap it in ``<pre>`` to keep the indentation). Any text is safe: what is not a token is escaped."""
    colours = json_colours(dark)
    out: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind is None:
            continue
        out.append(html.escape(text[pos : m.start()], quote=False))
        out.append(f'<span style="color:{colours[kind]}">{html.escape(m.group(), quote=False)}</span>')
        pos = m.end()
    out.append(html.escape(text[pos:], quote=False))
    return "".join(out)


class JsonHighlighter(QSyntaxHighlighter):
    """Colours keys, strings, numbers and literals of JSON text in a ``QTextDocument``, in colours that
    read on the document's palette (light or dark)."""

    def __init__(self, document: QTextDocument, palette: QPalette | None = None):
        super().__init__(document)
        self._formats: dict[str, QTextCharFormat] = {}
        self.set_palette(palette or QPalette())

    def set_palette(self, palette: QPalette) -> None:
        colours = json_colours(palette.color(QPalette.ColorRole.Base).lightness() < 128)
        self._formats = {}
        for name, colour in colours.items():
            f = QTextCharFormat()
            f.setForeground(QColor(colour))
            self._formats[name] = f
        self.rehighlight()

    def highlightBlock(self, text: str) -> None:
        for m in _TOKEN.finditer(text):
            kind = m.lastgroup
            if kind is not None:
                self.setFormat(m.start(), m.end() - m.start(), self._formats[kind])
