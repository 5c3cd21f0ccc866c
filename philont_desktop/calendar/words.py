"""A repetition (:class:`core.repeats.Repeat`) in words of the interface's language, with Qt's plural
forms: "every day, 200 times", "weekly on Monday until 1 March", "每天，共 200 次", "每星期一，直到 3月1日".

The choice of phrase and its parameters come from :mod:`core.repeats` (tested without Qt); this module
only holds the words.
"""

from __future__ import annotations

from core.repeats import Repeat, event_repeat, task_repeat, zone_of
from philont_desktop.i18n import english_plural
from philont_desktop.qt import QCoreApplication, QDate, QDateTime, QLocale, QTimeZone
from philont_desktop.task_words import action_words


def _tr(text: str) -> str:
    return QCoreApplication.translate("RepeatWords", text)


def _n(text: str, n: int) -> str:
    """A ``%n`` text already translated: its English form when no catalogue is installed."""
    return english_plural(text, n)


def _step(unit: str, n: int) -> str:
    if n == 1:
        return {
            "week": _tr("every week"),
            "day": _tr("every day"),
            "hour": _tr("every hour"),
            "minute": _tr("every minute"),
            "second": _tr("every second"),
            "millisecond": _tr("every millisecond"),
        }[unit]
    return {
        "week": _n(QCoreApplication.translate("RepeatWords", "every %n week(s)", None, n), n),
        "day": _n(QCoreApplication.translate("RepeatWords", "every %n day(s)", None, n), n),
        "hour": _n(QCoreApplication.translate("RepeatWords", "every %n hour(s)", None, n), n),
        "minute": _n(QCoreApplication.translate("RepeatWords", "every %n minute(s)", None, n), n),
        "second": _n(QCoreApplication.translate("RepeatWords", "every %n second(s)", None, n), n),
        "millisecond": _n(QCoreApplication.translate("RepeatWords", "every %n millisecond(s)", None, n), n),
    }[unit]


def weekday_name(iso_day: int) -> str:
    """``Monday`` … ``Sunday`` (``星期一`` …) in the interface's language."""
    return QLocale().dayName(iso_day, QLocale.FormatType.LongFormat)


def day_text(ms: int, now: int, *, utc: bool = False) -> str:
    """A day as people write it: ``1 March`` (``3月1日``), with the year when it is not this year's."""
    dt = (
        QDateTime.fromMSecsSinceEpoch(int(ms), QTimeZone.utc())
        if utc
        else QDateTime.fromMSecsSinceEpoch(int(ms))
    )
    date: QDate = dt.date()
    this_year = QDateTime.fromMSecsSinceEpoch(int(now)).date().year()
    fmt = _tr("d MMMM") if date.year() == this_year else _tr("d MMMM yyyy")
    return QLocale().toString(date, fmt)


def repeat_words(r: Repeat, now: int) -> str:
    """``once``, ``every 2 weeks on Monday, 10 times until 1 March 2027``, ``once (rule not understood: …)``."""
    if r.code == "once":
        return _tr("once")
    if r.code == "unparsed":
        return _tr("once (rule not understood: {0})").format(r.text or "")  # what the agent does with it
    unit = r.unit or "day"
    if unit == "week" and r.weekday is not None:
        day = weekday_name(r.weekday)
        text = (
            _tr("weekly on {0}").format(day)
            if r.n == 1
            else _n(
                QCoreApplication.translate("RepeatWords", "every %n week(s) on {0}", None, r.n), r.n
            ).format(day)
        )
    else:
        text = _step(unit, r.n)
    if r.count is not None:
        text = _n(
            QCoreApplication.translate("RepeatWords", "{0}, %n time(s)", None, r.count), r.count
        ).format(text)
    if r.until is not None:
        text = _tr("{0} until {1}").format(text, day_text(r.until, now, utc=r.until_date_only))
    return text


def event_words(rrule: str | None, starts_at: int, zone: str | None, now: int) -> str:
    """An event's ``rrule`` in words; the weekday of a weekly event is the one in the event's own zone."""
    return repeat_words(event_repeat(rrule, starts_at, zone_of(zone)), now)


def task_words(cron_expr: str | None, now: int = 0) -> str:
    """A task's ``cron_expr`` in words."""
    return repeat_words(task_repeat(cron_expr), now)


__all__ = ["action_words", "day_text", "event_words", "repeat_words", "task_words", "weekday_name"]


def created_by_words(created_by: str | None) -> str:
    """Who created a task in words (``llm_external`` → "the agent"); other values as stored."""
    if created_by == "llm_external":
        return _tr("the agent")
    return created_by or ""


def stored_as(words: str, stored: str | None) -> str | None:
    """The tooltip that keeps the raw value next to its words (``None`` when they are the same)."""
    if not stored or words == stored:
        return None
    return _tr("Stored as: {0}").format(stored)
