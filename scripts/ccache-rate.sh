#!/usr/bin/env bash
# Prints the ccache hit rate since the last `ccache -z` as one line:
#   ccache PRESET: H hits of C cacheable compiles (P %)
# Usage: scripts/ccache-rate.sh LABEL [MIN_PERCENT]; with MIN_PERCENT, exits 1 below it.
set -euo pipefail
label=${1:-build}
min=${2:-}
stats=$(ccache --print-stats)
get() { awk -v k="$1" -F'\t' '$1 == k {print $2}' <<<"$stats"; }
hits=$(( $(get direct_cache_hit) + $(get preprocessed_cache_hit) ))
misses=$(get cache_miss)
total=$((hits + misses))
pct=100
[ "$total" -gt 0 ] && pct=$((100 * hits / total))
echo "ccache $label: $hits hits of $total cacheable compiles ($pct %)"
if [ -n "$min" ] && [ "$pct" -lt "$min" ]; then
  echo "ccache $label: below $min %" >&2
  exit 1
fi
