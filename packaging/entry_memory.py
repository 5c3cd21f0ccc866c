"""Start script of the bundle's second executable, ``philont-memory`` (the core's command line).

A console program of its own (the desktop executable has no console on Windows and macOS), in the same
folder as ``philont-desktop`` and sharing its ``_internal`` libraries.
"""

import sys

if __name__ == "__main__":
    from core.cli import main

    sys.exit(main())
