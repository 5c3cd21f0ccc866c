"""``python -m core``: the ``philont-memory`` command line."""

from core.cli.app import main

raise SystemExit(main())
