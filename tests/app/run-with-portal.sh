#!/bin/sh
# Runs GUI tests against a real desktop colour-scheme setting: a private D-Bus session bus on
# which the XDG desktop portal (with its GTK backend, as on GNOME) is started on demand, reading
# org.gnome.desktop.interface color-scheme from a throw-away dconf database, set here to
# prefer-dark before the test starts; the test changes it with gsettings. Xvfb for the window.
# Exits 77 (ctest: skipped) when one of those tools is missing.
#   run-with-portal.sh TEST_BINARY [GTEST ARGS...]
for tool in dbus-run-session gsettings xvfb-run /usr/libexec/xdg-desktop-portal \
            /usr/libexec/xdg-desktop-portal-gtk; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "Theme.DesktopPortal skipped: $tool is not installed"
    exit 77
  fi
done
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
# Set before the bus starts: the services it starts (dconf, the portal) inherit them.
export HOME="$home" XDG_DATA_HOME="$home/.local/share" XDG_CONFIG_HOME="$home/.config"
export XDG_RUNTIME_DIR="$home/run" XDG_CURRENT_DESKTOP=GNOME DELINEATE_TEST_PORTAL=1
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
exec xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" dbus-run-session -- sh -c '
  gsettings set org.gnome.desktop.interface color-scheme prefer-dark
  case "$(gsettings get org.gnome.desktop.interface color-scheme)" in
    *prefer-dark*) ;;
    *) echo "Theme.DesktopPortal skipped: gsettings cannot keep the colour scheme (no dconf)"
       exit 77 ;;
  esac
  exec "$@"' sh "$@"
