#!/usr/bin/env bash
# Install the desktop integration of a philont-desktop bundle for the current user (no root needed):
# the .desktop entry (pointing at the bundle's executable), the icons of the hicolor theme and the
# AppStream metainfo, all under ${XDG_DATA_HOME:-~/.local/share}.
#
#   bash packaging/install-linux.sh                 # the bundle in dist/philont-desktop of this checkout
#   bash packaging/install-linux.sh /opt/philont-desktop
#   /opt/philont-desktop/install-linux.sh           # the copy that build.py puts inside the bundle
#   bash packaging/install-linux.sh --uninstall
#
# The bundle is used where it is: move it first, then run this script (again).
set -euo pipefail

APP=philont-desktop
APP_ID=io.philont.Desktop
SIZES="16 24 32 48 64 128 256 512"
DATA="${XDG_DATA_HOME:-$HOME/.local/share}"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

die() { echo "install-linux.sh: $*" >&2; exit 1; }

refresh_caches() {
  command -v update-desktop-database >/dev/null 2>&1 && update-desktop-database -q "$DATA/applications" 2>/dev/null || true
  command -v gtk-update-icon-cache >/dev/null 2>&1 && gtk-update-icon-cache -q -t "$DATA/icons/hicolor" 2>/dev/null || true
}

if [ "${1:-}" = "--uninstall" ]; then
  rm -f "$DATA/applications/$APP_ID.desktop" "$DATA/metainfo/$APP_ID.metainfo.xml" \
        "$DATA/icons/hicolor/scalable/apps/$APP_ID.svg"
  for s in $SIZES; do rm -f "$DATA/icons/hicolor/${s}x${s}/apps/$APP_ID.png"; done
  refresh_caches
  echo "removed the desktop entry and icons of $APP_ID from $DATA"
  exit 0
fi
case "${1:-}" in -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac

# The bundle: an argument, or the folder of this script when it lies inside one, or dist/ of a checkout.
if [ -n "${1:-}" ]; then
  bundle="$1"
elif [ -x "$here/$APP" ]; then
  bundle="$here"
else
  bundle="$here/../dist/$APP"
fi
[ -d "$bundle" ] || die "no bundle at $bundle (build one with: python packaging/build.py)"
bundle="$(cd "$bundle" && pwd)"
exe="$bundle/$APP"
[ -x "$exe" ] || die "no executable at $exe (build one with: python packaging/build.py)"

# The files to install: from inside the bundle, else from the checkout this script belongs to.
first_dir() { for d in "$@"; do [ -d "$d" ] && { echo "$d"; return 0; }; done; return 1; }
icons="$(first_dir "$bundle/_internal/resources/icons" "$here/../resources/icons")" || die "no icons found"
linux="$(first_dir "$bundle/_internal/linux" "$here/linux")" || die "no desktop file found"
[ -f "$linux/$APP_ID.desktop" ] || die "missing $linux/$APP_ID.desktop"

install -d -m 0755 "$DATA/applications" "$DATA/metainfo" "$DATA/icons/hicolor/scalable/apps"

# Exec and TryExec name the bundle's executable by its absolute path (quoted when it has spaces).
exec_value="$exe"
case "$exe" in *[[:space:]]*) exec_value="\"$exe\"" ;; esac
escaped="$(printf '%s' "$exec_value" | sed -e 's/[\\&|]/\\&/g')"
escaped_try="$(printf '%s' "$exe" | sed -e 's/[\\&|]/\\&/g')"
sed -e "s|^Exec=.*|Exec=$escaped|" -e "s|^TryExec=.*|TryExec=$escaped_try|" \
  "$linux/$APP_ID.desktop" > "$DATA/applications/$APP_ID.desktop.tmp"
chmod 0644 "$DATA/applications/$APP_ID.desktop.tmp"
mv -f "$DATA/applications/$APP_ID.desktop.tmp" "$DATA/applications/$APP_ID.desktop"

[ -f "$linux/$APP_ID.metainfo.xml" ] && install -m 0644 "$linux/$APP_ID.metainfo.xml" "$DATA/metainfo/$APP_ID.metainfo.xml"
install -m 0644 "$icons/$APP.svg" "$DATA/icons/hicolor/scalable/apps/$APP_ID.svg"
for s in $SIZES; do
  if [ -f "$icons/$APP-$s.png" ]; then
    install -d -m 0755 "$DATA/icons/hicolor/${s}x${s}/apps"
    install -m 0644 "$icons/$APP-$s.png" "$DATA/icons/hicolor/${s}x${s}/apps/$APP_ID.png"
  fi
done

refresh_caches
echo "installed $APP_ID for $exe into $DATA"
