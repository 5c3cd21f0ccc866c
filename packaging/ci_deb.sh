#!/usr/bin/env bash
# CI: pack the bundle into the .deb, check it with lintian, install it with apt, run the installed
# commands, then purge it and check that none of its files is left. Runs as root on Debian/Ubuntu:
#   bash packaging/ci_deb.sh
# After packaging/ci_smoke.sh the bundle in dist/philont-desktop is packed as it is; without one it is
# built first. PHILONT_DEB_LINTIAN=0 skips lintian (the slowest step).
set -euo pipefail
cd "$(dirname "$0")/.."
export PIP_DISABLE_PIP_VERSION_CHECK=1 DEBIAN_FRONTEND=noninteractive
started=$(date +%s)
APP_ID=io.philont.Desktop
# The installed package is checked with the system's PATH only: the commands of a pip install of this
# checkout (in the Python's bin folder) must not stand in for those of the package.
SYS_PATH=/usr/sbin:/usr/bin:/sbin:/bin

say() { echo "ci_deb: $*"; }
fail() { echo "ci_deb: FAILED: $*" >&2; exit 1; }

if ! command -v dpkg-deb >/dev/null || ! command -v lintian >/dev/null; then
  apt-get update -qq && apt-get install -y -qq dpkg-dev lintian >/dev/null
fi
if [ -x dist/philont-desktop/philont-desktop ] && [ -x dist/philont-desktop/philont-memory ]; then
  python packaging/build.py --deb --skip-bundle
else
  python packaging/build.py --deb
fi
version=$(python -c 'import sys; sys.path.insert(0, "packaging"); import deb; print(deb.debian_version(deb.project()["version"]))')
deb="dist/philont-desktop_${version}_$(dpkg --print-architecture).deb"
[ -f "$deb" ] || fail "$deb was not built"

if [ "${PHILONT_DEB_LINTIAN:-1}" != 0 ]; then
  lintian --fail-on error,warning --tag-display-limit 0 "$deb" || fail "lintian reports tags (see above)"
  say "ok: lintian (overrides explained in packaging/debian/lintian-overrides)"
fi

# -- install -----------------------------------------------------------------------------------------
apt-get install -y -qq "./$deb" >/dev/null || fail "apt-get install ./$deb"
dpkg -L philont-desktop | sort > /tmp/philont-deb-files.txt
for cmd in philont-desktop philont-memory; do
  found=$(PATH=$SYS_PATH command -v "$cmd") || fail "$cmd is not on the PATH after the install"
  [ "$(readlink -f "$found")" = "/opt/philont-desktop/$cmd" ] || fail "$found is not the package's $cmd"
done
say "ok: installed; philont-desktop and philont-memory are on the PATH"
desktop=/usr/share/applications/$APP_ID.desktop
[ -f "$desktop" ] || fail "no $desktop"
if command -v gtk-update-icon-cache >/dev/null; then
  [ -f /usr/share/icons/hicolor/icon-theme.cache ] || fail "the icon cache was not refreshed"
fi

tmp=$(mktemp -d /tmp/philont-deb.XXXXXX)
cleanup() {  # after a failed check too: the machine is left without the package
  rm -rf "$tmp"
  if dpkg-query -W philont-desktop >/dev/null 2>&1; then apt-get purge -y -qq philont-desktop >/dev/null || true; fi
}
trap cleanup EXIT
mkdir -m 0700 "$tmp/home"
run_as_user() {  # a private HOME, the system PATH, nothing of this checkout's environment
  env -i PATH="$SYS_PATH" HOME="$tmp/home" LANG=C.UTF-8 PHILONT_DESKTOP_SETTINGS_DIR="$tmp/home/settings" "$@"
}

# -- the core's command line --------------------------------------------------------------------------
out=$(run_as_user philont-memory --version) || fail "philont-memory --version"
case "$out" in "philont-memory ${version%-*}"*) ;; *) fail "philont-memory --version printed: $out" ;; esac
run_as_user philont-memory demo --out "$tmp/memory.sqlite" --messages 2000 >/dev/null || fail "philont-memory demo"
run_as_user philont-memory --db "$tmp/memory.sqlite" info | grep -q '^quick_check *ok' \
  || fail "philont-memory info does not report quick_check ok"
say "ok: $out; demo and info on a demo database"

# -- the desktop entry's command, offscreen ----------------------------------------------------------
exec_line=$(sed -n 's/^Exec=//p' "$desktop" | head -n 1)
# Field codes (%f, %U, ...) stand for files the launcher passes; none is passed here.
read -r -a exec_cmd <<< "$(printf '%s' "$exec_line" | sed -e 's/%[fFuUdDnNickvm]//g')"
[ "${#exec_cmd[@]}" -gt 0 ] || fail "no Exec= in $desktop"
run_as_user QT_QPA_PLATFORM=offscreen timeout 300 "${exec_cmd[@]}" --self-test --db "$tmp/memory.sqlite" \
  || fail "the desktop entry's command (${exec_cmd[*]}) --self-test failed"
say "ok: the desktop entry's command '${exec_cmd[*]}' passed --self-test (offscreen)"

# -- the accessibility-tree walk, when the checkout has it ------------------------------------------
if [ -f tests/a11y/atspi_walk.py ]; then
  say "running the AT-SPI walk (tests/a11y/atspi_walk.py) against the installed build"
  code=0
  env PATH="$SYS_PATH" HOME="$tmp/home" PHILONT_DESKTOP_SETTINGS_DIR="$tmp/home/settings" \
    /usr/bin/python3 tests/a11y/atspi_walk.py -- "${exec_cmd[@]}" --db "$tmp/memory.sqlite" || code=$?
  case $code in
    0) say "ok: AT-SPI walk of the installed build" ;;
    77) say "NOT RUN: the AT-SPI walk cannot run on this machine (its reason is above)" ;;
    *) fail "the AT-SPI walk of the installed build failed (exit $code)" ;;
  esac
else
  say "skipped: the AT-SPI walk (tests/a11y/atspi_walk.py is not in this checkout)"
fi

# -- removal -------------------------------------------------------------------------------------------
apt-get purge -y -qq philont-desktop >/dev/null || fail "apt-get purge philont-desktop"
left=()
while IFS= read -r path; do
  [ -e "$path" ] || [ -L "$path" ] || continue
  # A folder that holds other files, or that another package also owns (/usr/share/icons/hicolor/...), stays.
  if [ -d "$path" ] && [ ! -L "$path" ]; then
    if [ -n "$(ls -A "$path")" ] || dpkg-query -S "$path" >/dev/null 2>&1; then continue; fi
  fi
  left+=("$path")
done < /tmp/philont-deb-files.txt
[ "${#left[@]}" -eq 0 ] || fail "left behind after purge: ${left[*]:0:20}"
[ ! -e /opt/philont-desktop ] || fail "/opt/philont-desktop is still there"
say "ok: purged; none of its $(wc -l < /tmp/philont-deb-files.txt) paths is left"
rm -f /tmp/philont-deb-files.txt
say "package checks took $(( $(date +%s) - started )) s"
