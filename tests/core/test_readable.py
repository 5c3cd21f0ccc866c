"""Stored JSON text in readable form: the structure, strings unescaped, times as dates, the rest as is."""

from __future__ import annotations

import json
from datetime import timedelta, timezone

from core.readable import ITEMS_LIMIT, STRING_LIMIT, readable, readable_value

PLUS8 = timezone(timedelta(hours=8))


def test_a_tool_result_shows_its_structure_with_real_newlines():
    stored = json.dumps({"tool": "shell", "success": True, "result": 'line "one"\nline two'})
    r = readable(stored, PLUS8)
    assert r.is_json and not r.truncated
    assert r.text == 'tool: shell\nsuccess: true\nresult:\n  line "one"\n  line two'
    assert "\\n" not in r.text and '\\"' not in r.text


def test_nested_values_are_indented_two_spaces_a_level():
    r = readable('{"data": {"items": [1, {"a": null}], "empty": [], "none": {}}}', PLUS8)
    assert r.text == "data:\n  items:\n    - 1\n    -\n      a: null\n  empty: []\n  none: {}"


def test_utc_times_and_epoch_milliseconds_are_local_dates():
    stored = json.dumps(
        {
            "result": "Created event 'vet' @ 2026-06-15T02:00:00.000Z",
            "startsAt": "2026-06-15T02:00:30Z",
            "updatedAt": 1781488800000,  # 2026-06-15 02:00 UTC
            "created_at": 1781488800000,
            "count": 1781488800000,  # not a time-like key: the number as it is
        }
    )
    lines = readable(stored, PLUS8).text.split("\n")
    assert lines == [
        "result: Created event 'vet' @ 2026-06-15 10:00",
        "startsAt: 2026-06-15 10:00:30",
        "updatedAt: 2026-06-15 10:00",
        "created_at: 2026-06-15 10:00",
        "count: 1781488800000",
    ]


def test_text_that_is_not_json_is_shown_as_it_is():
    for text in ("plain output\nwith \\n", '{"cut": "in the mid', "NaN", "[NaN]", "", "42 items"):
        r = readable(text)
        assert r == type(r)(text, False)


def test_a_json_string_is_its_text():
    assert readable('"a\\nb \\"c\\""').text == 'a\nb "c"'


def test_big_values_are_cut_and_say_so():
    r = readable(json.dumps({"big": "x" * (STRING_LIMIT + 10)}))
    assert r.truncated and r.text.endswith("…") and len(r.text) < STRING_LIMIT + 20
    r = readable_value(list(range(ITEMS_LIMIT + 5)))
    assert r.truncated and r.text.split("\n")[-1] == "… (+5)"
    assert not readable_value([1, 2]).truncated


def test_controls_and_direction_overrides_stay_visible():
    r = readable(json.dumps({"a\u202eb": "red \x1b[31m photo_\u202egnp.exe\ttab"}))
    assert "\x1b" not in r.text and "\u202e" not in r.text
    assert r.text.startswith("a\\u202eb: red \\x1b[31m photo_\\u202egnp.exe\ttab")


def test_a_value_on_one_line():
    from core.readable import readable_line

    value = {"content": 'My "night"\nrecipe', "tags": ["a", "b"], "at": {"updatedAt": 1781488800000}}
    assert (
        readable_line(value, tz=PLUS8)
        == 'content: My "night" recipe; tags: a, b; at: (updatedAt: 2026-06-15 10:00)'
    )
    assert readable_line({"k": "x" * 100}, limit=10) == "k: xxxxxx…"


def test_deep_nesting_and_impossible_dates_never_raise():
    deep = "[" * 250 + "]" * 250
    r = readable(deep)
    assert r.is_json and r.text.count("\n") < 60
    assert readable('{"at": "2026-02-30T10:00:00Z"}').text == "at: 2026-02-30T10:00:00Z"
