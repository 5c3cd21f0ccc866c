"""``python -m core``: the ``philont-memory`` command line."""

from core.cli import main

raise SystemExit(main())
