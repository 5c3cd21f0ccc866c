"""Developer commands for the catalogues: ``python -m philont_desktop.i18n update|check|compile``.

``update`` runs ``pyside6-lupdate`` over every GUI source, then adds what lupdate's Python reader misses
(calls inside f-strings, after nested functions), found by :func:`extract_messages` with ``ast``;
``check`` lists what is unfinished; ``compile`` writes the ``.qm`` files beside the ``.ts``.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from philont_desktop.i18n import (
    APP_CATALOGUE,
    LANGUAGES,
    SOURCE_LANGUAGE,
    TR_ALIASES,
    catalogue_source,
    compile_catalogue,
    find_lupdate,
)


def gui_sources(root: Path | None = None) -> list[Path]:
    """Every Python source of the GUI package (what lupdate reads)."""
    base = root or Path(__file__).resolve().parent
    return sorted(p for p in base.rglob("*.py") if "__pycache__" not in p.parts)


@dataclass(frozen=True)
class SourceMessage:
    """A literal passed to ``tr()``/``translate()`` in the GUI sources, with the context Qt looks up."""

    context: str
    source: str
    path: str
    line: int


_TR_NAMES = {"tr", "_tr", "_t", *TR_ALIASES}


def extract_messages(paths: Iterable[Path] | None = None) -> list[SourceMessage]:
    """Every translatable literal in ``paths`` (default: the GUI sources), found with ``ast``.

    lupdate's Python reader misses calls inside f-strings and loses the class after a nested function;
    this extractor is the reference the catalogue is checked and completed against. The context is the
    enclosing class for ``self.tr``/``cls.tr`` (PySide looks up the object's classes), the first argument
    of ``translate(context, text)``, and the global context ``""`` for helpers and aliases (the
    translator falls back to it).
    """
    import ast

    out: list[SourceMessage] = []
    package = Path(__file__).resolve().parent
    for path in list(paths) if paths is not None else gui_sources(package):
        try:
            rel = str(path.resolve().relative_to(package.parent))
        except ValueError:
            rel = str(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))

        def literal(node: ast.AST) -> str | None:
            return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None

        def visit(node: ast.AST, cls: str, rel: str = rel) -> None:
            if isinstance(node, ast.ClassDef):
                cls = node.name
            if isinstance(node, ast.Call):
                func = node.func
                name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
                args = node.args
                if name in ("translate", "QT_TRANSLATE_NOOP") and len(args) >= 2:
                    ctx, text = literal(args[0]), literal(args[1])
                    if ctx is not None and text:
                        out.append(SourceMessage(ctx, text, rel, node.lineno))
                elif name in _TR_NAMES and args and literal(args[0]):
                    owner = func.value if isinstance(func, ast.Attribute) else None
                    own = isinstance(owner, ast.Name) and owner.id in ("self", "cls") and name == "tr"
                    out.append(SourceMessage(cls if own else "", literal(args[0]) or "", rel, node.lineno))
                elif name == "QT_TR_NOOP" and args and literal(args[0]):
                    out.append(SourceMessage(cls, literal(args[0]) or "", rel, node.lineno))
            for child in ast.iter_child_nodes(node):
                visit(child, cls)

        visit(tree, "")
    return out


def _state(m: Any) -> str:
    t = m.find("translation")
    return (t.get("type") if t is not None else None) or "finished"


def _index(
    contexts: dict[str, Any],
) -> tuple[set[tuple[str, str]], dict[tuple[str, str], Any], dict[str, str]]:
    """``(active, retired, anywhere)``: the (context, source) pairs in use, the vanished or obsolete
    messages by pair, and a finished translation of each source in any context."""
    active: set[tuple[str, str]] = set()
    retired: dict[tuple[str, str], Any] = {}
    anywhere: dict[str, str] = {}
    for name, c in contexts.items():
        for m in c.findall("message"):
            src = m.findtext("source") or ""
            t = m.find("translation")
            if _state(m) in ("vanished", "obsolete"):
                retired[(name, src)] = m
            else:
                active.add((name, src))
            if t is not None and (t.text or "").strip() and _state(m) != "unfinished":
                anywhere.setdefault(src, t.text or "")
    return active, retired, anywhere


def _revive(old: Any) -> None:
    """A retired message in use again: finished if it has a translation, else unfinished."""
    t = old.find("translation")
    if t is not None:
        t.attrib.pop("type", None)
        if not (t.text or "").strip():
            t.set("type", "unfinished")


def _add_message(root: Any, contexts: dict[str, Any], msg: SourceMessage, ts: Path, text: str) -> None:
    import xml.etree.ElementTree as ET

    c = contexts.get(msg.context)
    if c is None:
        c = ET.SubElement(root, "context")
        ET.SubElement(c, "name").text = msg.context
        contexts[msg.context] = c
    m = ET.SubElement(c, "message")
    loc = ET.SubElement(m, "location")
    loc.set("filename", os.path.relpath(Path(__file__).resolve().parent.parent / msg.path, ts.parent))
    loc.set("line", str(msg.line))
    ET.SubElement(m, "source").text = msg.source
    t = ET.SubElement(m, "translation", {"type": "unfinished"})
    t.text = text


def _drop_obsolete(root: Any) -> None:
    for c in list(root.iter("context")):
        for m in c.findall("message"):
            if _state(m) in ("vanished", "obsolete"):
                c.remove(m)
        if not c.findall("message"):
            root.remove(c)


def _complete_catalogue(ts: Path, messages: list[SourceMessage], *, keep_obsolete: bool) -> int:
    """Add to ``ts`` the messages lupdate did not see (reviving their old translations); returns how many.

    Unless ``keep_obsolete``, messages that are in no source any more are dropped afterwards.
    """
    import xml.etree.ElementTree as ET

    tree = ET.parse(ts)
    root = tree.getroot()
    contexts = {c.findtext("name") or "": c for c in root.iter("context")}
    active, retired, anywhere = _index(contexts)
    added = 0
    for msg in messages:
        if (msg.context, msg.source) in active or ("", msg.source) in active:
            continue
        key = (msg.context, msg.source)
        old = retired.pop(key, None) or retired.pop(("", msg.source), None)
        if old is not None:
            _revive(old)
        else:
            _add_message(root, contexts, msg, ts, anywhere.get(msg.source, ""))
            added += 1
        active.add(key)
    if not keep_obsolete:
        _drop_obsolete(root)
    _write_ts(root, ts)
    return added


def _xml_escape(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


def _write_ts(root, path: Path) -> None:
    """Write a TS tree the way lupdate does, so that the next lupdate run changes nothing by itself."""

    def attrs(el) -> str:
        return "".join(f' {k}="{_xml_escape(v)}"' for k, v in el.attrib.items())

    def element(el, indent: str) -> list[str]:
        children = list(el)
        if not children:
            if el.tag == "location" or (el.text is None and el.tag not in ("translation", "name")):
                return [f"{indent}<{el.tag}{attrs(el)}/>"]
            return [f"{indent}<{el.tag}{attrs(el)}>{_xml_escape(el.text or '')}</{el.tag}>"]
        lines = [f"{indent}<{el.tag}{attrs(el)}>"]
        for child in children:
            lines += element(child, indent + "    ")
        lines.append(f"{indent}</{el.tag}>")
        return lines

    out = ['<?xml version="1.0" encoding="utf-8"?>', "<!DOCTYPE TS>", f"<TS{attrs(root)}>"]
    for context in root.findall("context"):
        out.append("<context>")
        for child in context:
            out += element(child, "    ")
        out.append("</context>")
    out.append("</TS>")
    path.write_text("\n".join(out) + "\n", encoding="utf-8")


def update_catalogues(langs: Iterable[str] = ("zh_CN",), *, keep_obsolete: bool = False) -> list[Path]:
    """Run lupdate over the GUI sources into ``resources/translations/philont_desktop_<lang>.ts``, then
    add what lupdate's Python reader missed (see :func:`extract_messages`). Translations are kept."""
    tool = find_lupdate()
    if tool is None:
        raise RuntimeError("pyside6-lupdate was not found (it comes with PySide6-Essentials)")
    out_dir = Path(__file__).resolve().parent.parent / "resources" / "translations"
    out_dir.mkdir(parents=True, exist_ok=True)
    package = Path(__file__).resolve().parent
    sources = [str(p.relative_to(package.parent)) for p in gui_sources(package)]
    aliases = ",".join(f"tr+={a}" for a in TR_ALIASES)
    messages = extract_messages()
    made = []
    for lang in langs:
        ts = out_dir / f"{APP_CATALOGUE}_{lang}.ts"
        cmd = [
            *tool,
            "-locations",
            "relative",
            "-tr-function-alias",
            aliases,
            "-source-language",
            "en",
            "-target-language",
            lang,
            *sources,
            "-ts",
            str(ts),
        ]
        proc = subprocess.run(cmd, cwd=package.parent, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"lupdate failed:\n{proc.stdout}{proc.stderr}")
        print((proc.stdout + proc.stderr).strip())
        added = _complete_catalogue(ts, messages, keep_obsolete=keep_obsolete)
        if added:
            print(f"    Added {added} source text(s) that lupdate did not find (f-strings, nested functions)")
        made.append(ts)
    return made


def unfinished(ts: Path) -> list[tuple[str, str]]:
    """``(context, source)`` of every message of ``ts`` without a finished translation."""
    import xml.etree.ElementTree as ET

    out = []
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for m in context.iter("message"):
            tr = m.find("translation")
            kind = tr.get("type") if tr is not None else "unfinished"
            if kind in ("vanished", "obsolete"):
                continue
            text = "".join(tr.itertext()).strip() if tr is not None else ""
            if kind == "unfinished" or not text:
                out.append((name, m.findtext("source") or ""))
    return out


def main(argv: list[str]) -> int:
    import argparse

    p = argparse.ArgumentParser(
        prog="python -m philont_desktop.i18n", description="Update, check or compile the catalogues."
    )
    p.add_argument("command", choices=("update", "check", "compile"))
    p.add_argument("--lang", action="append", help="language code (default: every catalogue)")
    args = p.parse_args(argv)
    langs = args.lang or [lang for lang in LANGUAGES if lang != SOURCE_LANGUAGE]
    if args.command == "update":
        update_catalogues(langs)
        args.command = "check"
    if args.command == "check":
        missing = 0
        for lang in langs:
            ts = catalogue_source(lang)
            if ts is None:
                print(f"{lang}: no catalogue")
                missing += 1
                continue
            todo = unfinished(ts)
            missing += len(todo)
            for ctx, src in todo:
                print(f"{lang}: unfinished [{ctx}] {src!r}")
            print(f"{lang}: {len(todo)} unfinished")
        return 1 if missing else 0
    for lang in langs:  # compile
        ts = catalogue_source(lang)
        if ts is None or not compile_catalogue(ts, ts.with_suffix(".qm")):
            return 1
        print(ts.with_suffix(".qm"))
    return 0
