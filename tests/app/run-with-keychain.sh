#!/bin/sh
# Runs GUI tests against a real system keychain: a private D-Bus session bus with gnome-keyring's
# Secret Service, its login keyring created and unlocked in a throw-away HOME, and Xvfb. (With an
# empty password gnome-keyring creates no keyring and would prompt on a display instead.) Exits 77
# (ctest: skipped) when one of those tools is missing.
#   run-with-keychain.sh TEST_BINARY [GTEST ARGS...]
for tool in dbus-run-session gnome-keyring-daemon xvfb-run; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SignIn.RealKeychain skipped: $tool is not installed"
    exit 77
  fi
done
home=$(mktemp -d)
trap 'rm -rf "$home"' EXIT
export HOME="$home" XDG_DATA_HOME="$home/.local/share" XDG_CONFIG_HOME="$home/.config"
export XDG_RUNTIME_DIR="$home/run" DELINEATE_TEST_REAL_KEYCHAIN=1
mkdir -p "$XDG_RUNTIME_DIR" && chmod 700 "$XDG_RUNTIME_DIR"
exec dbus-run-session -- sh -c '
  if ! printf "delineate-test" | gnome-keyring-daemon --unlock --components=secrets >/dev/null; then
    echo "SignIn.RealKeychain skipped: gnome-keyring-daemon did not start"
    exit 77
  fi
  exec xvfb-run -a -s "-screen 0 1280x1024x24 -noreset" "$@"' sh "$@"
