"""The pages of the Health tab, declared in display order (``"module:Class"``, title), imported when first
shown. A page's title is translated in the context of its class (``QT_TRANSLATE_NOOP``)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from philont_desktop.qt import QT_TRANSLATE_NOOP, QCoreApplication


@dataclass(frozen=True)
class PageEntry:
    name: str
    path: str  # "philont_desktop.health.recall.page:RecallPage"
    title_source: str

    @property
    def class_name(self) -> str:
        return self.path.partition(":")[2]

    def title(self) -> str:
        return QCoreApplication.translate(self.class_name, self.title_source)

    def load(self) -> type:
        module, _, cls = self.path.partition(":")
        return getattr(importlib.import_module(module), cls)


PAGES: list[PageEntry] = []


def register_page(name: str, path: str, title: str) -> None:
    """Declare a page after the ones declared before it."""
    if any(p.name == name for p in PAGES):
        raise ValueError(f"health page {name!r} is declared twice")
    PAGES.append(PageEntry(name, path, title))


# The pages, in display order: the doctor first.
register_page(
    "doctor", "philont_desktop.health.doctor.page:DoctorPage", QT_TRANSLATE_NOOP("DoctorPage", "Doctor")
)
register_page(
    "recall", "philont_desktop.health.recall.page:RecallPage", QT_TRANSLATE_NOOP("RecallPage", "Recall")
)
register_page(
    "privacy", "philont_desktop.health.privacy.page:PrivacyPage", QT_TRANSLATE_NOOP("PrivacyPage", "Privacy")
)
