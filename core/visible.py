"""Stored text shown to a person: control characters and direction overrides made visible.

Memory text is written by a model and by whoever else touched the file. Printed raw, an ANSI or OSC
escape sequence recolours a terminal, retitles its window or hides what follows; a carriage return
overwrites the start of a line; a right-to-left override (U+202E) makes ``gnp.exe`` read as ``exe.png``.
:func:`visible` spells every such character as an escape (``\\x1b``, ``\\r``, ``\\u202e``), so what is
shown is what is stored. Plain command-line output and every label and tooltip of the app pass stored
text through it; JSON output and the agent's own texts (tool outputs, the prefix) stay exact.

Made visible: C0 controls (``\\n`` and ``\\t`` kept unless asked), DEL and C1 controls, the
bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069), the line and paragraph
separators U+2028/U+2029 and lone surrogates (a file name or argument that is not UTF-8).
"""

from __future__ import annotations

import re

BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_OTHER = "\x7f-\x9f\u2028\u2029\ud800-\udfff"
_HIDDEN = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHER}{BIDI_CONTROLS}]")
_HIDDEN_ALL = re.compile(f"[\x00-\x1f{_OTHER}{BIDI_CONTROLS}]")
_NAMED = {"\r": "\\r", "\n": "\\n", "\t": "\\t"}


def _spell(m: re.Match[str]) -> str:
    c = m.group(0)
    named = _NAMED.get(c)
    if named is not None:
        return named
    n = ord(c)
    return f"\\x{n:02x}" if n < 0x100 else f"\\u{n:04x}"


def visible(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with every control, direction override and lone surrogate spelled as an escape.

    ``keep_newlines`` keeps ``\\n`` and ``\\t`` as they are (multi-line text stays multi-line); without
    it they are spelled too (one-line labels).
    """
    pattern = _HIDDEN if keep_newlines else _HIDDEN_ALL
    if not pattern.search(text):
        return text
    return pattern.sub(_spell, text)


def visible_with_offsets(text: str, *, keep_newlines: bool = True) -> tuple[str, list[int] | None]:
    """:func:`visible` of ``text`` and where each offset of ``text`` (``0`` to ``len(text)``) lands in
    it (``None`` when nothing is spelled: the offsets are the same), so that a highlighted span of the
    stored text can be drawn on the spelled one."""
    pattern = _HIDDEN if keep_newlines else _HIDDEN_ALL
    if not pattern.search(text):
        return text, None
    parts: list[str] = []
    offsets: list[int] = []
    pos = shift = 0
    for m in pattern.finditer(text):
        start = m.start()
        offsets.extend(range(pos + shift, start + shift + 1))
        spelled = _spell(m)
        parts += (text[pos:start], spelled)
        shift += len(spelled) - 1
        pos = start + 1
    offsets.extend(range(pos + shift, len(text) + shift + 1))
    parts.append(text[pos:])
    return "".join(parts), offsets


def _picture(m: re.Match[str]) -> str:
    n = ord(m.group(0))
    if n < 0x20:
        return chr(0x2400 + n)  # the Control Pictures: ␛ for ESC, ␍ for CR, ...
    if n == 0x7F:
        return "\u2421"  # ␡
    return "\u2370"  # ⍰ for a C1 control, a direction override, a separator, a lone surrogate


def neutral(text: str, *, keep_newlines: bool = True) -> str:
    """Like :func:`visible`, one character for one (so offsets into ``text`` stay valid, for
    highlighted snippets): C0 controls as their Control Pictures (``␛``, ``␍``), DEL as ``␡``, the
    others (C1 controls, direction overrides, separators, lone surrogates) as ``⍰``."""
    pattern = _HIDDEN if keep_newlines else _HIDDEN_ALL
    if not pattern.search(text):
        return text
    return pattern.sub(_picture, text)


def has_hidden(text: str, *, keep_newlines: bool = True) -> bool:
    """Whether :func:`visible` would change ``text``."""
    return bool((_HIDDEN if keep_newlines else _HIDDEN_ALL).search(text))


__all__ = ["BIDI_CONTROLS", "has_hidden", "neutral", "visible", "visible_with_offsets"]
