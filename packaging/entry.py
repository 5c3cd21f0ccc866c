"""Start script of the PyInstaller bundle (the installed ``philont-desktop`` command is the same call)."""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()
    from philont_desktop.app import main

    sys.exit(main())
