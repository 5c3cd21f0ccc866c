"""philont-desktop: a desktop inspector and curation tool for the Philont agent's memory database.

The application is built on :mod:`core` (Qt-free) and imports Qt only through :mod:`philont_desktop.qt`.
"""

from core import __version__

APP_NAME = "philont-desktop"
ORG_NAME = "Philont"

__all__ = ["APP_NAME", "ORG_NAME", "__version__"]
