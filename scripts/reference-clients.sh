#!/usr/bin/env bash
# The field's own clients against delineate-server, from their source trees (none is packaged for
# Debian 12, so none is part of the test suite): MONAI Label's Python client and nnInteractive's
# remote client, the latter on the real c-blosc2 built from its source (after the Blosc2
# cross-check, scripts/blosc2-crosscheck.sh). Needs Debian's python3-requests, python3-httpx,
# python3-numpy and python3-nibabel, and mricron-data. Usage:
#   scripts/reference-clients.sh MONAILABEL_SRC NNINTERACTIVE_SRC C_BLOSC2_SRC [BUILD_DIR]
set -euo pipefail
monai=$(cd "$1" && pwd)
nnia=$(cd "$2" && pwd)
blosc=$(cd "$3" && pwd)
build=$(cd "${4:-build/default}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
server_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
"$here/blosc2-crosscheck.sh" "$blosc" "$work/blosc2"
gcc -shared -fPIC -O2 -I"$blosc/include" "$here/reference-clients/blosc2_shim.c" \
  -L"$work/blosc2/build/blosc" -lblosc2 -Wl,-rpath,"$work/blosc2/build/blosc" \
  -o "$work/libblosc2_shim.so"
t=/usr/share/mricron/templates
"$build/app/server/delineate-server" --port 0 --api-key k3y --datastore "$work/store" \
  --train-command "printf '{\"current_epoch\": 1, \"total_epochs\": 5}' > train_stats.json; echo started; exec sleep 60" \
  >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do
  grep -q "127.0.0.1:[0-9]" "$work/server.log" && break
  sleep 0.2
done
url=http://$(grep -o "127.0.0.1:[0-9]*" "$work/server.log" | head -1)
status=0
/usr/bin/python3 "$here/reference-clients/monai_label_check.py" "$url" "$monai" \
  "$t/ch2.nii.gz" "$t/ch2bet.nii.gz" || status=1
BLOSC2_SHIM="$work/libblosc2_shim.so" /usr/bin/python3 \
  "$here/reference-clients/nninteractive_check.py" "$url" "$nnia" k3y || status=1
exit $status
