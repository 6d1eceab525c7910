# Sourced by the real-anatomy benchmark scripts that build an image first.
# real_anatomy_setup NAME FILE [BUILD_DIR] sets $build (default build/default), $t (Debian's
# mricron-data templates) and $work (a temporary folder removed on exit); stops with a message
# naming NAME when the template FILE is not installed.
real_anatomy_setup() {
  build=${3:-}
  build=${build:-build/default}
  t=/usr/share/mricron/templates
  if [ ! -f "$t/$2" ]; then
    echo "$1: Debian's mricron-data is not installed ($t)" >&2
    exit 1
  fi
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
}
