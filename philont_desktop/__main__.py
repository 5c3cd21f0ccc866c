"""``python -m philont_desktop``."""

from philont_desktop.app import main

raise SystemExit(main())
