#!/usr/bin/env bash
# Checks that a fresh clone in another folder reuses the compiler cache that this checkout's
# build of PRESET filled (docs/ci.md): copies the tree to a temporary folder, configures PRESET
# there, and compiles a sample of its objects (plain, moc, precompiled header, test and fuzz
# sources) with ccache read-only. Fails when fewer than MIN_PERCENT (default 95) of them hit, or
# when the debug info of an object built there does not name its sources relative to the root.
# Run after `scripts/build.sh PRESET`; scripts/test.sh runs it after each build.
# Usage: scripts/check-ccache-reuse.sh PRESET [MIN_PERCENT]
set -euo pipefail
cd "$(dirname "$0")/.."
preset=${1:?preset}
min=${2:-95}
command -v ccache >/dev/null || { echo "ccache reuse $preset: no ccache, nothing to check"; exit 0; }
[ -f "build/$preset/build.ninja" ] || { echo "ccache reuse $preset: build/$preset is not built" >&2; exit 1; }
src=$(pwd)
tmp=$(mktemp -d /tmp/delineate-ccache-reuse.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
copy=$tmp/elsewhere
mkdir -p "$copy"
git ls-files -z --cached --others --exclude-standard |
  tar --null --ignore-failed-read -T - -cf - 2>/dev/null | tar -C "$copy" -xf -
cd "$copy"
source scripts/ccache-env.sh
export CCACHE_READONLY=1 CCACHE_STATSLOG=$tmp/stats.log
cmake --preset "$preset" >"$tmp/configure.log" 2>&1 || { cat "$tmp/configure.log"; exit 1; }
# Up to three objects of each kind, by name, so that the sample follows the tree.
targets=$(ninja -C "build/$preset" -t targets all | cut -d: -f1)
if [ "$preset" = fuzz ]; then  # scripts/fuzz-smoke.sh builds the harnesses and what they link
  patterns=('^tests/fuzz/CMakeFiles/delineate_core_fuzz\.dir/.*\.cpp\.o$'
    '^tests/fuzz/CMakeFiles/[A-Za-z]*Fuzzer\.dir/.*\.cpp\.o$')
else
  patterns=('^core/CMakeFiles/delineate_core\.dir/.*\.cpp\.o$'
    '^app/gui/CMakeFiles/[^/]*\.dir/[^/]*_autogen/mocs_compilation\.cpp\.o$'
    '^app/gui/CMakeFiles/[^/]*\.dir/cmake_pch\.hxx\.gch$'
    '^viewers/CMakeFiles/[^/]*\.dir/.*\.cpp\.o$'
    '^tests/CMakeFiles/delineate_core_tests\.dir/.*\.cpp\.o$')
fi
sample=()
for pattern in "${patterns[@]}"; do
  while IFS= read -r t; do sample+=("$t"); done < <(grep -E "$pattern" <<<"$targets" | sort | head -3)
done
[ ${#sample[@]} -gt 0 ] || { echo "ccache reuse $preset: no objects found to sample" >&2; exit 1; }
ninja -C "build/$preset" "${sample[@]}" >"$tmp/build.log" 2>&1 || { tail -30 "$tmp/build.log"; exit 1; }
# The stats log has one line per result: direct_cache_hit, preprocessed_cache_hit, cache_miss...
hits=$(grep -cE '^(direct|preprocessed)_cache_hit$' "$tmp/stats.log" || true)
misses=$(grep -cE '^cache_miss$' "$tmp/stats.log" || true)
total=$((hits + misses))
pct=0
[ "$total" -gt 0 ] && pct=$((100 * hits / total))
echo "ccache reuse $preset: $hits of $total sampled compiles hit in a copy at another path ($pct %)"
if [ "$pct" -lt "$min" ]; then
  awk '/^#/ {file = $0} /^cache_miss$/ {print "  missed: " file}' "$tmp/stats.log" >&2
  echo "ccache reuse $preset: below $min % (docs/ci.md: what keeps the cache keys path-free)" >&2
  exit 1
fi
# Debug info: the compile folder relative to the root, so a debugger started in the clone that
# was built finds that clone's sources.
# (Each pipeline reads all of its input: with pipefail, a reader stopping early would fail it.)
obj=$(printf '%s\n' "${sample[@]}" | awk '/\.cpp\.o$/ && !found {print; found = 1}')
first() {  # first DWARF attribute $1 of the object's debug info
  objdump --dwarf=info "build/$preset/$obj" 2>/dev/null |
    awk -v key="$1" '$0 ~ key && !found {sub(/.*: /, ""); gsub(/[[:space:]]/, ""); print; found = 1}'
}
comp_dir=$(first DW_AT_comp_dir)
name=$(first DW_AT_name)
if [ "$comp_dir" != "./build/$preset" ] || [ ! -f "$comp_dir/$name" ]; then
  echo "ccache reuse $preset: debug info of $obj names '$comp_dir' / '$name', not a source" \
    "relative to the clone's root" >&2
  exit 1
fi
echo "ccache reuse $preset: debug info names $comp_dir/$name, found from the clone's root"
