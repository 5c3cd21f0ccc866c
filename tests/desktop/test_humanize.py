"""Human form of times, durations, scores, sizes and JSON values (philont_desktop.humanize)."""

from __future__ import annotations

import math

import pytest

from philont_desktop import humanize as hz
from philont_desktop.humanize import DAY_MS, HOUR_MS, MINUTE_MS, YEAR_MS
from philont_desktop.qt import QDateTime, QPalette, QTextDocument
from tests.support import FIXED_NOW as NOW


@pytest.mark.parametrize(
    ("delta", "text"),
    [
        (0, "just now"),
        (-59_000, "just now"),
        (-MINUTE_MS, "1 min ago"),
        (-5 * MINUTE_MS, "5 min ago"),
        (3 * HOUR_MS, "in 3 h"),
        (-DAY_MS, "1 day ago"),
        (-2 * DAY_MS, "2 days ago"),
        (DAY_MS, "in 1 day"),
        (-59 * DAY_MS, "59 days ago"),
        (-61 * DAY_MS, "2 months ago"),
        (-400 * DAY_MS, "13 months ago"),
        (-3 * YEAR_MS, "3 years ago"),
        (YEAR_MS * 2, "in 2 years"),
    ],
)
def test_relative_times_in_english_with_plurals(english, delta: int, text: str) -> None:
    assert hz.rel_time(NOW + delta, NOW) == text


@pytest.mark.parametrize(
    ("delta", "text"),
    [(-DAY_MS, "1 天前"), (-2 * DAY_MS, "2 天前"), (3 * HOUR_MS, "3 小时后"), (0, "刚刚")],
)
def test_relative_times_in_chinese_have_one_form(chinese, delta: int, text: str) -> None:
    assert hz.rel_time(NOW + delta, NOW) == text


def test_when_is_relative_and_absolute(english) -> None:
    ms = NOW - 2 * DAY_MS
    local = QDateTime.fromMSecsSinceEpoch(ms).toLocalTime().toString("yyyy-MM-dd HH:mm")
    assert hz.when(ms, NOW) == f"2 days ago · {local}"
    assert hz.when(None, NOW) == ""


def test_days_ago_counts_the_dates_shown_beside_them(english) -> None:
    """Around "9 days ago"/"10 days ago": the count agrees with the absolute date beside it and never
    goes back as the time moves further into the past (it counted whole 24 h spans before, so a time
    on the 21st read "9 days ago" on the 1st at noon but "10 days ago" at 14:00)."""
    today = QDateTime.fromMSecsSinceEpoch(NOW).toLocalTime().date()
    seen = []
    for hours in range(8 * 24, 12 * 24):
        ms = NOW - hours * HOUR_MS
        n = int(hz.rel_time(ms, NOW).split()[0])
        text = hz.when(ms, NOW)
        shown = QDateTime.fromMSecsSinceEpoch(ms).toLocalTime().date()
        assert n == shown.daysTo(today), text
        assert text.startswith(f"{n} days ago · {shown.toString('yyyy-MM-dd')}")
        seen.append(n)
    assert seen == sorted(seen) and {9, 10} <= set(seen)
    later = NOW + 9 * DAY_MS + 23 * HOUR_MS
    days_to = today.daysTo(QDateTime.fromMSecsSinceEpoch(later).toLocalTime().date())
    assert hz.rel_time(later, NOW) == f"in {days_to} days"


@pytest.mark.parametrize("bad", ["yesterday", b"\x01\x02", math.nan, math.inf, 10**20, -(10**18)])
def test_a_damaged_time_is_marked_not_raised(english, bad) -> None:
    assert hz.abs_time(bad) == hz.UNREADABLE
    assert hz.rel_time(bad, NOW) == hz.UNREADABLE
    assert hz.when(bad, NOW) == hz.UNREADABLE


def test_absolute_time_formats(english) -> None:
    assert hz.abs_time(None) == ""
    ms = NOW
    dt = QDateTime.fromMSecsSinceEpoch(ms).toLocalTime()
    assert hz.abs_time(ms) == dt.toString("yyyy-MM-dd HH:mm")
    assert hz.abs_time(ms, seconds=True) == dt.toString("yyyy-MM-dd HH:mm:ss")
    assert hz.abs_time(ms, date_only=True) == dt.toString("yyyy-MM-dd")


@pytest.mark.parametrize(
    ("ms", "text"),
    [
        (30_000, "30 s"),
        (40 * MINUTE_MS, "40 min"),
        (5 * HOUR_MS, "5 h"),
        (12 * DAY_MS, "12 days"),
        (YEAR_MS, "1 year"),
        (int(1.5 * YEAR_MS), "1.5 years"),
        (-3 * HOUR_MS, "3 h"),
        (math.inf, "∞"),
        (math.nan, hz.UNREADABLE),
    ],
)
def test_durations(english, ms, text: str) -> None:
    assert hz.duration(ms) == text


@pytest.mark.parametrize(
    ("tau", "text"), [(1, "1 day"), (60, "60 days"), (0.5, "0.5 days"), (math.inf, "∞"), ("x", hz.UNREADABLE)]
)
def test_days(english, tau, text: str) -> None:
    assert hz.days(tau) == text


@pytest.mark.parametrize(
    ("score", "text"),
    [
        (1.0, "100 %"),
        (0.8731, "87 %"),
        (0.042, "4.2 %"),
        (0.0031, "0.31 %"),
        (0.0005, "0.05 %"),
        (0.000499, "≈ 0"),
        (2.3e-167, "≈ 0"),
        (0.0, "≈ 0"),
        (math.nan, hz.UNREADABLE),
        ("high", hz.UNREADABLE),
    ],
)
def test_scores_never_show_scientific_notation(english, score, text: str) -> None:
    assert hz.score_text(score) == text
    assert "e-" not in hz.score_text(score)


def test_exact_numbers_keep_every_digit() -> None:
    assert hz.exact_number(2.3e-167) == "2.3e-167"
    assert hz.exact_number(0.873123456789) == "0.873123456789"
    assert hz.exact_number(math.nan) == "NaN"
    assert hz.exact_number(-math.inf) == "-Infinity"
    assert hz.exact_number(None) == ""
    assert hz.exact_number("abc") == "'abc'"


def test_score_bar_fraction_is_clamped() -> None:
    assert hz.score_fraction(0.25) == 0.25
    assert hz.score_fraction(3) == 1.0
    assert hz.score_fraction(-1) == 0.0
    assert hz.score_fraction(math.nan) == 0.0
    assert hz.score_fraction(None) == 0.0


@pytest.mark.parametrize(
    ("n", "text"),
    [(0, "0 B"), (512, "512 B"), (3482, "3.4 KiB"), (12 * 1024**2, "12 MiB"), (1.5 * 1024**3, "1.5 GiB")],
)
def test_sizes(english, n, text: str) -> None:
    assert hz.size_text(n) == text


def test_json_on_one_line_and_pretty() -> None:
    value = {"city": "北京", "since": 2024, "tags": ["a", "b"], "ok": True, "none": None}
    assert (
        hz.json_line(value) == '{"city": "北京", "since": 2024, "tags": ["a", "b"], "ok": true, "none": null}'
    )
    assert hz.json_line("plain\ntext") == "plain text"
    assert hz.json_line(list(range(1000)), limit=20).endswith("…")
    assert len(hz.json_line(list(range(1000)), limit=20)) == 20
    assert hz.json_pretty({"a": [1]}) == '{\n  "a": [\n    1\n  ]\n}'
    assert hz.json_text_pretty('{"a":1}') == '{\n  "a": 1\n}'
    assert hz.json_text_pretty("{not json") == "{not json"
    assert hz.json_line(math.nan) == "NaN"


def test_json_highlighter_colours_keys_strings_numbers_and_literals(qapp) -> None:
    doc = QTextDocument()
    doc.setPlainText('{"key": "value", "n": -1.5e3, "t": true}')
    light = QPalette()
    light.setColor(QPalette.ColorRole.Base, "#ffffff")
    hl = hz.JsonHighlighter(doc, light)
    layout = doc.firstBlock().layout()
    ranges = {(r.start, r.length): r.format.foreground().color().name() for r in layout.formats()}
    assert ranges[(1, 5)] == "#1a5fb4"  # "key"
    assert ranges[(8, 7)] == "#26762b"  # "value"
    assert ranges[(22, 6)] == "#a8540c"  # -1.5e3
    assert ranges[(35, 4)] == "#8e24aa"  # true
    dark = QPalette()
    dark.setColor(QPalette.ColorRole.Base, "#202020")
    hl.set_palette(dark)
    ranges = {(r.start, r.length): r.format.foreground().color().name() for r in layout.formats()}
    assert ranges[(1, 5)] == "#8ab4f8"


def test_json_html_colours_tokens_and_escapes_everything_else() -> None:
    from philont_desktop.humanize import json_colours, json_html

    text = '{\n  "step": "<img src=x>",\n  "n": 2,\n  "ok": true\n}'
    out = json_html(text)
    assert "<img" not in out and "&lt;img src=x&gt;" in out
    assert f'<span style="color:{json_colours(False)["key"]}">"step"</span>' in out
    assert f'<span style="color:{json_colours(False)["number"]}">2</span>' in out
    assert f'<span style="color:{json_colours(True)["literal"]}">true</span>' in json_html(text, dark=True)
    assert json_html("not <json>") == "not &lt;json&gt;"


def test_a_backup_named_for_a_later_date_is_in_the_future_not_just_now(english) -> None:
    from philont_desktop.backups.model import fmt_age

    assert fmt_age(-30_000) == "just now"  # a clock a little ahead
    assert fmt_age(-MINUTE_MS) == "in the future"
    assert fmt_age(-73 * YEAR_MS) == "in the future"
    assert fmt_age(5 * MINUTE_MS) == "5 min ago"
