#!/usr/bin/env bash
# The Debian package installed the way a hospital's IT installs it on a new PC: into a fresh
# Debian 12 root made by debootstrap, with `apt-get install ./delineate_<version>_amd64.deb`, so
# that apt pulls exactly the runtime libraries the package declares and nothing of this build
# machine helps. Inside that root it then prints the versions, lists the plugins found, writes the
# sample data and takes a screenshot of the sample brain MR under Xvfb, and checks that no -dev
# package came in. Needs root, the Debian mirror and ~2 GB of disk; it downloads ~400 MB, so it is
# not part of the test suite (ctest's Package.* tests check the same package from an extracted
# root). Run it before a release:
#   sudo bash scripts/install-test.sh [PACKAGE.deb] [ROOT]
# The screenshot is left in build/install-test.png.
set -euo pipefail
cd "$(dirname "$0")/.."
deb=${1:-$(ls -1 build/default/package/delineate_*_amd64.deb 2>/dev/null | tail -n 1)}
root=${2:-build/install-root}
if [ -z "$deb" ] || [ ! -f "$deb" ]; then
  echo "install-test: no package; build one with scripts/package.sh" >&2
  exit 2
fi
[ "$(id -u)" -eq 0 ] || { echo "install-test: needs root (debootstrap, chroot)" >&2; exit 2; }
command -v debootstrap >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap
mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
mirror=${mirror:-http://deb.debian.org/debian}

rm -rf "$root"
echo "== debootstrap bookworm into $root from $mirror"
debootstrap --variant=minbase bookworm "$root" "$mirror" >"$root.log" 2>&1 ||
  { tail -20 "$root.log"; exit 1; }
mount --bind /proc "$root/proc"
mount --bind /dev "$root/dev"
trap 'umount "$root/proc" "$root/dev" 2>/dev/null || true' EXIT
cp "$deb" "$root/tmp/delineate.deb"
in_root() { chroot "$root" env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8 "$@"; }

echo "== apt-get install ./delineate.deb"
in_root apt-get update -qq
before=$(in_root dpkg-query -W -f '${Package}\n' | wc -l)
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  /tmp/delineate.deb >"$root.apt.log" 2>&1 || { tail -30 "$root.apt.log"; exit 1; }
after=$(in_root dpkg-query -W -f '${Package}\n' | wc -l)
echo "installed $((after - before)) packages, $(du -sh --exclude=proc --exclude=dev "$root" | cut -f1) in all"
dev=$(in_root dpkg-query -W -f '${Package}\n' | grep -- '-dev$' || true)
[ -z "$dev" ] || { echo "install-test: development packages came in: $dev" >&2; exit 1; }

echo "== the installed programs"
in_root delineate --version
in_root delineate-cli --version
in_root delineate-server --version
in_root delineate --plugins
# Xvfb is the test's display, not something the package needs.
in_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  xvfb xauth >>"$root.apt.log" 2>&1
in_root delineate-cli sample /tmp/sample >/dev/null
in_root xvfb-run -a -s "-screen 0 1280x1024x24" delineate --screenshot /tmp/shot.png \
  --size 1024x768 /tmp/sample/brain-mr/brain-mr.nii.gz
cp "$root/tmp/shot.png" build/install-test.png
echo "install-test: the package installs into a fresh Debian 12 and runs; screenshot in" \
  "build/install-test.png"
