"""The registry of tabs, in display order.

Each entry is ``"<module>:<class>"``. :func:`available_tabs` returns the classes whose module exists,
so a tab that is not built yet simply does not appear. A module that exists but fails to import is
reported (``errors``) instead of being silently dropped.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect

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


def tab_names() -> list[str]:
    """Registered tab names in display order (``timeline``, ``actions``, ...)."""
    return [p.split(":", 1)[0].split(".")[1].removesuffix("_tab") for p in TAB_PATHS]


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
    from philont_desktop.tabs.base import BaseTab

    classes: list[type] = []
    for path in TAB_PATHS:
        module_name, class_name = path.split(":", 1)
        if not _module_exists(module_name):
            continue
        try:
            module = importlib.import_module(module_name)
        except Exception as exc:  # a broken tab must not take the application down
            if errors is not None:
                errors.append(f"{module_name}: cannot be imported: {type(exc).__name__}: {exc}")
            continue
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
        if cls is None:
            if errors is not None:
                errors.append(f"{module_name}: no BaseTab subclass named {class_name}")
            continue
        classes.append(cls)
    return classes


def __getattr__(name: str):
    if name == "TAB_CLASSES":
        return available_tabs()
    raise AttributeError(name)
