"""The tabs of the window: their shape, and the registry that declares them in display order.

**The shape of a tab.** Each tab lives in a folder of its own (``philont_desktop/notes/``)::

    state.py       NotesState(TabState): Qt-free; filters, time, selection, what is loaded;
                   announces changes through plain callbacks (``state.changed``)
    controller.py  NotesController(TabController): runs read ops (``ReadOp``) and curation
                   (``core.curation.Change``) through the AppContext; updates the state; no widgets
    view.py        NotesTab(BaseTab): composes the widgets and wires them to state and controller
    widgets/       the widgets, when there are several (one per file); model.py: its table model
                   (a :class:`~philont_desktop.widgets.rows_model.PagedRowsModel`)

Shared pieces: :mod:`.base` (``BaseTab``, the view and the hooks the window calls), :mod:`.state`,
:mod:`.controller`, :mod:`.navigation` (targets, so that tabs never import each other),
:mod:`philont_desktop.ops` (``ReadOp``), :mod:`philont_desktop.widgets.table` (``setup_table``) and
:mod:`philont_desktop.widgets.rows_model` (``PagedRowsModel``).

**The registry.** Every tab is declared once, by :func:`register` below: its name, where its view class
is (``"module:Class"``), its title (``QT_TRANSLATE_NOOP`` in the class's translation context) and its
text modules that register message templates (``messages=``, see :mod:`philont_desktop.messages`). The
window shows every title at once and imports a tab's module only when the tab is first needed. A bad
declaration raises :class:`TabRegistrationError` when it is made (a name used twice, a malformed path,
no title) or when the tab is loaded (a module that cannot be imported, a class that is missing, is not a
``BaseTab`` or carries another ``name``); the window then shows what went wrong in the tab's place.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from philont_desktop.qt import QT_TRANSLATE_NOOP, QCoreApplication


class TabRegistrationError(Exception):
    """A tab's declaration is wrong, or its module/class does not match it."""


@dataclass(frozen=True)
class TabEntry:
    """One registered tab, known without importing its module."""

    name: str  # "notes": settings keys, navigation targets, object names
    module: str  # "philont_desktop.notes.view"
    class_name: str  # "NotesTab": also the translation context of the title
    title_source: str  # the English title, translated in the context of class_name
    home: bool = False  # the tab a newly opened database shows first (when none is remembered)
    # Qt-free test of a database path: when true, this tab is the one the database opens on
    home_when: Callable[[Path], bool] | None = None
    # Modules the tab imports after it is built (its charts): imported in the background with its own,
    # never on the GUI thread beside a background import (see philont_desktop.preload)
    preload: tuple[str, ...] = ()
    # The tab's text modules that register message templates of the core's codes when imported
    # (philont_desktop.messages.register_templates): imported when such a code is first shown
    messages: tuple[str, ...] = ()

    def title(self) -> str:
        """The title in the current language."""
        return QCoreApplication.translate(self.class_name, self.title_source)

    @property
    def path(self) -> str:
        return f"{self.module}:{self.class_name}"


class TabRegistry:
    """The declared tabs in display order."""

    def __init__(self) -> None:
        self._entries: dict[str, TabEntry] = {}

    def register(
        self,
        name: str,
        path: str,
        title: str,
        *,
        home: bool = False,
        home_when: Callable[[Path], bool] | None = None,
        preload: tuple[str, ...] = (),
        messages: tuple[str, ...] = (),
    ) -> TabEntry:
        """Declare a tab; raises :class:`TabRegistrationError` for a bad declaration."""
        if not isinstance(name, str) or not name.isidentifier():
            raise TabRegistrationError(f"tab name {name!r} is not an identifier")
        if name in self._entries:
            raise TabRegistrationError(f"tab {name!r} is registered twice")
        module, sep, class_name = path.partition(":") if isinstance(path, str) else ("", "", "")
        if not sep or not class_name.isidentifier() or not all(p.isidentifier() for p in module.split(".")):
            raise TabRegistrationError(f"tab {name!r}: {path!r} is not 'package.module:Class'")
        if not isinstance(title, str) or not title.strip():
            raise TabRegistrationError(f"tab {name!r} has no title")
        if home and any(e.home for e in self._entries.values()):
            raise TabRegistrationError(f"tab {name!r}: another tab is already the home tab")
        for modules in (preload, messages):
            if not all(isinstance(m, str) and all(p.isidentifier() for p in m.split(".")) for m in modules):
                raise TabRegistrationError(f"tab {name!r}: {modules!r} are not module names")
        entry = TabEntry(name, module, class_name, title, home, home_when, tuple(preload), tuple(messages))
        self._entries[name] = entry
        return entry

    def unregister(self, name: str) -> None:
        self._entries.pop(name, None)

    def get(self, name: str) -> TabEntry | None:
        return self._entries.get(name)

    def entries(self) -> list[TabEntry]:
        return list(self._entries.values())

    def names(self) -> list[str]:
        return list(self._entries)

    def home(self) -> TabEntry | None:
        """The home tab (the first one when none is marked)."""
        entries = self.entries()
        return next((e for e in entries if e.home), entries[0] if entries else None)

    def home_for(self, db_path: Path) -> TabEntry | None:
        """The tab that asks to be shown first for this database (``home_when``), if any."""
        for entry in self.entries():
            if entry.home_when is not None:
                try:
                    if entry.home_when(Path(db_path)):
                        return entry
                except Exception:  # a failing test never stops a database from opening
                    continue
        return None

    def __iter__(self) -> Iterator[TabEntry]:
        return iter(self.entries())

    def __len__(self) -> int:
        return len(self._entries)

    def load_class(self, entry: TabEntry) -> type:
        """Import ``entry``'s module and return its view class; raises :class:`TabRegistrationError`."""
        from philont_desktop.tabs.base import BaseTab

        try:
            module = importlib.import_module(entry.module)
        except Exception as exc:
            raise TabRegistrationError(
                f"{entry.module}: cannot be imported: {type(exc).__name__}: {exc}"
            ) from exc
        cls = getattr(module, entry.class_name, None)
        if cls is None:
            raise TabRegistrationError(f"{entry.module}: has no class {entry.class_name}")
        if not (inspect.isclass(cls) and issubclass(cls, BaseTab)):
            raise TabRegistrationError(f"{entry.path} is not a BaseTab")
        if cls.name != entry.name:
            raise TabRegistrationError(f"{entry.path} is named {cls.name!r}, registered as {entry.name!r}")
        return cls


_REGISTRY = TabRegistry()


def registry() -> TabRegistry:
    """The registry of the application's tabs."""
    return _REGISTRY


def register(
    name: str,
    path: str,
    title: str,
    *,
    home: bool = False,
    home_when: Callable[[Path], bool] | None = None,
    preload: tuple[str, ...] = (),
    messages: tuple[str, ...] = (),
) -> TabEntry:
    """Declare a tab in :func:`registry` (after the ones declared before it)."""
    return _REGISTRY.register(
        name, path, title, home=home, home_when=home_when, preload=preload, messages=messages
    )


def _reviewed_before(db_path: Path) -> bool:
    """The database has a review mark (the Review tab is then its home)."""
    from core.changes.marks import ReviewMarks

    return ReviewMarks().get(db_path).at is not None


# The tabs of the window, in display order. Not "philont_desktop.context": that name is the AppContext.
register(
    "timeline",
    "philont_desktop.timeline.view:TimelineTab",
    QT_TRANSLATE_NOOP("TimelineTab", "Timeline"),
    preload=("philont_desktop.timeline.widgets.chart",),
)
register(
    "actions",
    "philont_desktop.actions.view:ActionsTab",
    QT_TRANSLATE_NOOP("ActionsTab", "Actions"),
    preload=("philont_desktop.actions.chart",),
)
register("notes", "philont_desktop.notes.view:NotesTab", QT_TRANSLATE_NOOP("NotesTab", "Notes"))
register(
    "facts",
    "philont_desktop.facts.view:FactsTab",
    QT_TRANSLATE_NOOP("FactsTab", "Facts"),
    preload=tuple(f"philont_desktop.facts.widgets.{m}" for m in ("decay_plot", "overview", "what_if")),
)
register("skills", "philont_desktop.skills.view:SkillsTab", QT_TRANSLATE_NOOP("SkillsTab", "Skills"))
register(
    "context",
    "philont_desktop.context_tab.view:ContextTab",
    QT_TRANSLATE_NOOP("ContextTab", "Context"),
    messages=("philont_desktop.context_tab.recall_text", "philont_desktop.context_tab.row_notes"),
)
register(
    "calendar", "philont_desktop.calendar.view:CalendarTab", QT_TRANSLATE_NOOP("CalendarTab", "Calendar")
)
register("backups", "philont_desktop.backups.view:BackupsTab", QT_TRANSLATE_NOOP("BackupsTab", "Backups"))
register("audit", "philont_desktop.audit.view:AuditTab", QT_TRANSLATE_NOOP("AuditTab", "Audit"))
# The home of a database reviewed before (see _reviewed_before).
register(
    "review",
    "philont_desktop.review.view:ReviewTab",
    QT_TRANSLATE_NOOP("ReviewTab", "Review"),
    home_when=_reviewed_before,
    messages=("philont_desktop.review.texts",),
)
register(
    "health",
    "philont_desktop.health.view:HealthTab",
    QT_TRANSLATE_NOOP("HealthTab", "Health"),
    messages=("philont_desktop.health.doctor.texts", "philont_desktop.health.privacy.texts"),
    # its pages, built when first shown: their modules imported beforehand, not in the turn that shows one
    preload=tuple(f"philont_desktop.health.{p}.page" for p in ("doctor", "recall", "privacy")),
)


def tab_names() -> list[str]:
    """Registered tab names in display order."""
    return _REGISTRY.names()


def tab_titles() -> dict[str, str]:
    """Each registered tab's title in the current language."""
    return {e.name: e.title() for e in _REGISTRY}
