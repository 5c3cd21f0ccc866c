"""The demo's data files (package data under ``core/demo/data/``), read once per process.

* ``world.toml``: families of things that belong together (a table with its columns and database, a
  city with its airport, time zone and neighbourhood, an error with its cause). A conversation draws one
  record of each family it uses; a list value in a record stands for one record per element.
* ``tools.toml``: tool-call templates (``[call.<name>]``: the tool, its parameters, successful results
  and failures with a reason the reply can give), acknowledgements and status prefixes.
* ``dialogues/*.toml``: conversations in English and Chinese by topic; each turn is a user line, an
  optional tool call, and the reply (``fail`` when the call failed). A conversation may stop after any
  turn, so every prefix of a script reads as a whole conversation.
* ``runs.toml``, ``stories.toml``, ``facts.toml``, ``skills.toml``, ``agenda.toml``: scheduled runs,
  the persona's dated episodes, facts, skills, calendar events, reminders and notes; the modules that use
  them read them through :func:`raw`.

Standard library only (``tomllib``).
"""

from __future__ import annotations

import functools
import itertools
import random
import tomllib
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from core.demo.text import is_computed, placeholders

LANGS = ("en", "zh")


class DataError(ValueError):
    """A data file that does not have the shape the generator reads."""


@functools.cache
def raw(name: str) -> dict[str, Any]:
    """The parsed TOML file ``data/<name>.toml`` (``dialogues/db`` for a file in a folder)."""
    path = resources.files("core.demo").joinpath("data", *f"{name}.toml".split("/"))
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"data/{name}.toml: {exc}") from exc


def data_files() -> list[str]:
    """Every data file's name relative to ``data/`` (``world.toml``, ``dialogues/db.toml``, …)."""
    root = resources.files("core.demo").joinpath("data")
    out: list[str] = []

    def walk(node: Any, prefix: str) -> None:
        for child in node.iterdir():
            if child.is_dir():
                walk(child, f"{prefix}{child.name}/")
            elif child.name.endswith(".toml"):
                out.append(prefix + child.name)

    walk(root, "")
    return sorted(out)


def pick(rng: random.Random, seq: tuple[Any, ...] | list[Any]) -> Any:
    return seq[int(rng.random() * len(seq))]


def weighted(rng: random.Random, cumulative: list[float]) -> int:
    """Index drawn with the weights whose running sums are ``cumulative``."""
    x = rng.random() * cumulative[-1]
    lo, hi = 0, len(cumulative) - 1
    while lo < hi:
        mid = (lo + hi) // 2
        if cumulative[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo


def cumulate(weights: list[float]) -> list[float]:
    return list(itertools.accumulate(weights))


# -- families ----------------------------------------------------------------------------------------


def _expand(record: dict[str, Any]) -> list[dict[str, Any]]:
    lists = [(k, v) for k, v in record.items() if isinstance(v, list)]
    if not lists:
        return [dict(record)]
    out = []
    for combo in itertools.product(*(v for _k, v in lists)):
        r = dict(record)
        r.update(zip((k for k, _v in lists), combo))
        out.append(r)
    return out


@functools.cache
def families() -> dict[str, tuple[dict[str, Any], ...]]:
    """Family name → its records, list values expanded (``world.toml``)."""
    out: dict[str, tuple[dict[str, Any], ...]] = {}
    for name, records in raw("world").items():
        if not isinstance(records, list) or not records:
            raise DataError(f"world.toml: {name} is not a list of records")
        out[name] = tuple(r for rec in records for r in _expand(rec))
    return out


def family_fields(name: str) -> set[str]:
    recs = families().get(name)
    if recs is None:
        raise DataError(f"unknown family {name!r}")
    return set().union(*(r.keys() for r in recs))


# -- numbers -------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Num:
    """A number slot: an integer in ``[lo, hi]``, or a decimal with ``places`` digits."""

    name: str
    lo: float
    hi: float
    places: int = 0

    def draw(self, rng: random.Random) -> int | float:
        if self.places == 0:
            return int(self.lo) + int(rng.random() * (int(self.hi) - int(self.lo) + 1))
        return round(self.lo + rng.random() * (self.hi - self.lo), self.places)


def nums(spec: dict[str, list[float]] | None, where: str) -> tuple[Num, ...]:
    out = []
    for name, r in (spec or {}).items():
        if not isinstance(r, list) or len(r) not in (2, 3):
            raise DataError(f"{where}: nums.{name} must be [lo, hi] or [lo, hi, places]")
        out.append(Num(name, r[0], r[1], int(r[2]) if len(r) == 3 else 0))
    return tuple(out)


def draw_values(rng: random.Random, fams: tuple[str, ...], numbers: tuple[Num, ...]) -> dict[str, Any]:
    """One record of each family (later families win on shared fields) and each number."""
    values: dict[str, Any] = {}
    fam = families()
    for f in fams:
        values.update(pick(rng, fam[f]))
    for n in numbers:
        values[n.name] = n.draw(rng)
    return values


# -- tool calls ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Failure:
    result: str
    why: str
    why_zh: str


@dataclass(frozen=True)
class CallTemplate:
    """``[call.<name>]`` of ``tools.toml``."""

    name: str
    tool: str
    params: tuple[tuple[str, Any], ...]
    ok: tuple[str, ...]
    fail: tuple[Failure, ...]
    ok_rate: float

    def texts(self) -> list[str]:
        out = [v for _k, v in self.params if isinstance(v, str)] + list(self.ok)
        for f in self.fail:
            out += [f.result, f.why, f.why_zh]
        return out


def _call(name: str, spec: dict[str, Any]) -> CallTemplate:
    where = f"tools.toml call.{name}"
    try:
        fails = tuple(
            Failure(f["result"], f.get("why", ""), f.get("why_zh", f.get("why", "")))
            for f in spec.get("fail", ())
        )
        ok = tuple(spec["ok"])
        tmpl = CallTemplate(name, spec["tool"], tuple(spec.get("params", {}).items()), ok, fails,
                            float(spec.get("ok_rate", 1.0 if not fails else 0.9)))  # fmt: skip
    except (KeyError, TypeError) as exc:
        raise DataError(f"{where}: {exc!r}") from exc
    if not tmpl.ok:
        raise DataError(f"{where}: no ok result")
    return tmpl


@functools.cache
def calls() -> dict[str, CallTemplate]:
    return {name: _call(name, spec) for name, spec in raw("tools")["call"].items()}


@functools.cache
def phrases(section: str) -> dict[str, tuple[str, ...]]:
    """``[ack]`` / ``[status]`` of ``tools.toml``: language → lines."""
    return {lang: tuple(raw("tools")[section][lang]) for lang in LANGS}


# -- dialogues -----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Turn:
    user: tuple[str, ...]
    reply: tuple[str, ...]
    call: CallTemplate | None = None
    fail: tuple[str, ...] = ()
    status: bool = False


@dataclass(frozen=True)
class Dialogue:
    """One conversation script (``[[dialogue]]``) in one or both languages."""

    id: str
    topic: str
    weight: float
    fams: tuple[str, ...]
    numbers: tuple[Num, ...]
    turns: dict[str, tuple[Turn, ...]]
    subject: dict[str, str] = field(default_factory=dict)
    summary: dict[str, str] = field(default_factory=dict)
    note: dict[str, str] = field(default_factory=dict)

    def texts(self, lang: str) -> list[str]:
        out = [self.subject.get(lang, ""), self.summary.get(lang, ""), self.note.get(lang, "")]
        for t in self.turns.get(lang, ()):
            out += [*t.user, *t.reply, *t.fail]
            if t.call is not None:
                out += t.call.texts()
        return [x for x in out if x]


def _turn(spec: dict[str, Any], where: str, status: bool = True) -> Turn:
    call = None
    if "call" in spec:
        call = calls().get(spec["call"])
        if call is None:
            raise DataError(f"{where}: unknown call {spec['call']!r}")
    user, reply = tuple(spec.get("user", ())), tuple(spec.get("reply", ()))
    if not user or not reply:
        raise DataError(f"{where}: a turn needs user and reply lines")
    fail = tuple(spec.get("fail", ()))
    if call is not None and call.fail and not fail:
        raise DataError(f"{where}: the call can fail, so the turn needs fail replies")
    # A reply after a call may open like a status update unless the turn (or its topic) says otherwise.
    return Turn(user, reply, call, fail, bool(spec.get("status", status and call is not None)))


def _dialogue(spec: dict[str, Any], topic: str, where: str, status: bool = True) -> Dialogue:
    did = spec.get("id", "?")
    where = f"{where} {did}"
    turns = {
        lang: tuple(_turn(t, f"{where} {lang}[{i}]", status) for i, t in enumerate(spec[lang]))
        for lang in LANGS
        if spec.get(lang)
    }
    if not turns:
        raise DataError(f"{where}: no turns")
    return Dialogue(
        id=did,
        topic=topic,
        weight=float(spec.get("weight", 1.0)),
        fams=tuple(spec.get("families", ())),
        numbers=nums(spec.get("nums"), where),
        turns=turns,
        subject=spec.get("subject", {}),
        summary=spec.get("summary", {}),
        note=spec.get("note", {}),
    )


@dataclass(frozen=True)
class Topic:
    name: str
    weight: float
    dialogues: tuple[Dialogue, ...]
    cumulative: tuple[list[float], ...]  # per language: running weights of the dialogues having it
    by_lang: tuple[tuple[Dialogue, ...], ...]


@functools.cache
def topics() -> tuple[Topic, ...]:
    """The dialogue topics (one file each), with the dialogues of each language."""
    out = []
    for name in data_files():
        if not name.startswith("dialogues/"):
            continue
        doc = raw(name.removesuffix(".toml"))
        topic = doc.get("topic") or name.split("/")[-1].removesuffix(".toml")
        status = bool(doc.get("status", True))  # replies after calls may read as status updates
        ds = tuple(_dialogue(d, topic, name, status) for d in doc.get("dialogue", ()))
        by_lang = tuple(tuple(d for d in ds if lang in d.turns) for lang in LANGS)
        if not all(by_lang):
            raise DataError(f"{name}: needs dialogues in both languages")
        cum = tuple(cumulate([d.weight for d in group]) for group in by_lang)
        out.append(Topic(topic, float(doc.get("weight", 1.0)), ds, cum, by_lang))
    return tuple(out)


def unknown_placeholders(texts: list[str], known: set[str]) -> set[str]:
    """Placeholders of ``texts`` that neither ``known`` nor :class:`~core.demo.text.Slots` provide."""
    used = set().union(*(placeholders(t) for t in texts)) if texts else set()
    return {n for n in used if n not in known and not is_computed(n)}


def check_dialogues() -> list[str]:
    """Every template's placeholders resolve (for the tests; the generator trusts the data)."""
    problems = []
    for topic in topics():
        for d in topic.dialogues:
            known = set().union(*(family_fields(f) for f in d.fams)) if d.fams else set()
            known |= {n.name for n in d.numbers} | {"why", "why_zh"}
            for lang in d.turns:
                bad = unknown_placeholders(d.texts(lang), known)
                if bad:
                    problems.append(f"{topic.name}/{d.id} ({lang}): {sorted(bad)}")
    return problems
