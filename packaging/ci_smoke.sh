#!/usr/bin/env bash
# CI: build the PyInstaller bundle and smoke-test it (Linux). Run from anywhere:
#   bash packaging/ci_smoke.sh
# Installs PyInstaller (the `package` extra) when it is missing, then runs the documented build command
# and the smoke test; exits non-zero when either fails.
set -euo pipefail
cd "$(dirname "$0")/.."
export QT_QPA_PLATFORM=offscreen
export PIP_DISABLE_PIP_VERSION_CHECK=1
started=$(date +%s)

if ! python -c "import PyInstaller, PySide6, pyqtgraph" >/dev/null 2>&1; then
  python -m pip install -q -e '.[package]'
fi

python packaging/build.py
python packaging/smoke.py --timeout "${PHILONT_SMOKE_TIMEOUT:-240}"
echo "ci_smoke: build and smoke test took $(( $(date +%s) - started )) s"
