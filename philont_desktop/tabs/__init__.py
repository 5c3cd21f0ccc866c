"""The registry of tabs, in display order.

Each entry is ``"<module>:<class>"``. :func:`available_tabs` returns the classes whose module exists,
so a tab that is not built yet simply does not appear. A module that exists but fails to import is
reported (``errors``) instead of being silently dropped.

The window shows every tab's title at once but imports and builds a tab only when it is needed:
:func:`tab_specs` lists the tabs without importing their modules (:func:`tab_titles` gives their titles),
:func:`load_tab_class` imports one.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from dataclasses import dataclass

from philont_desktop.qt import QCoreApplication

TAB_PATHS: tuple[str, ...] = (
    "philont_desktop.timeline.view:TimelineTab",
    "philont_desktop.actions.view:ActionsTab",
    "philont_desktop.notes.view:NotesTab",
    "philont_desktop.facts.view:FactsTab",
    "philont_desktop.skills.view:SkillsTab",
    # Not "philont_desktop.context": that name is the AppContext module.
    "philont_desktop.context_tab.view:ContextTab",
    "philont_desktop.calendar.view:CalendarTab",
    "philont_desktop.backups.view:BackupsTab",
    "philont_desktop.audit.view:AuditTab",
)


def tab_titles() -> dict[str, str]:
    """Each tab's title in the current language, known before its module is imported: the same text, in
    the translation context of its class, as the class's ``title()`` (a test checks that they agree)."""
    return {
        "timeline": QCoreApplication.translate("TimelineTab", "Timeline"),
        "actions": QCoreApplication.translate("ActionsTab", "Actions"),
        "notes": QCoreApplication.translate("NotesTab", "Notes"),
        "facts": QCoreApplication.translate("FactsTab", "Facts"),
        "skills": QCoreApplication.translate("SkillsTab", "Skills"),
        "context": QCoreApplication.translate("ContextTab", "Context"),
        "calendar": QCoreApplication.translate("CalendarTab", "Calendar"),
        "backups": QCoreApplication.translate("BackupsTab", "Backups"),
        "audit": QCoreApplication.translate("AuditTab", "Audit"),
    }


def _name_of(path: str) -> str:
    return path.split(":", 1)[0].split(".")[1].removesuffix("_tab")


def tab_names() -> list[str]:
    """Registered tab names in display order (``timeline``, ``actions``, ...)."""
    return [_name_of(p) for p in TAB_PATHS]


@dataclass(frozen=True)
class TabSpec:
    """A registered tab whose module exists, known without importing it."""

    name: str
    module: str
    class_name: str

    def title(self) -> str:
        """The tab's title in the current language (:func:`tab_titles`; else the capitalised name)."""
        return tab_titles().get(self.name) or self.name.capitalize()


def tab_specs() -> list[TabSpec]:
    """The registered tabs whose module exists, in display order, without importing the modules."""
    out: list[TabSpec] = []
    for path in TAB_PATHS:
        module_name, class_name = path.split(":", 1)
        if _module_exists(module_name):
            out.append(TabSpec(_name_of(path), module_name, class_name))
    return out


def _module_exists(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except (ModuleNotFoundError, ValueError):
        return False


def available_tabs(errors: list[str] | None = None) -> list[type]:
    """The tab classes whose module exists, in display order.

    A module that exists but cannot be imported (or lacks its class) is skipped and described in
    ``errors`` when a list is given.
    """
    classes: list[type] = []
    for spec in tab_specs():
        cls = load_tab_class(spec, errors)
        if cls is not None:
            classes.append(cls)
    return classes


def load_tab_class(spec: TabSpec, errors: list[str] | None = None) -> type | None:
    """Import ``spec``'s module and return its tab class (``None``, described in ``errors``, if it fails)."""
    from philont_desktop.tabs.base import BaseTab

    module_name, class_name = spec.module, spec.class_name
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # a broken tab must not take the application down
        if errors is not None:
            errors.append(f"{module_name}: cannot be imported: {type(exc).__name__}: {exc}")
        return None
    cls = getattr(module, class_name, None)
    if not (inspect.isclass(cls) and issubclass(cls, BaseTab)):
        cls = next(
            (
                c
                for c in vars(module).values()
                if inspect.isclass(c)
                and issubclass(c, BaseTab)
                and c is not BaseTab
                and c.__module__ == module_name
            ),
            None,
        )
    if cls is None and errors is not None:
        errors.append(f"{module_name}: no BaseTab subclass named {class_name}")
    return cls


def __getattr__(name: str):
    if name == "TAB_CLASSES":
        return available_tabs()
    raise AttributeError(name)
