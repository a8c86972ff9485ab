#!/usr/bin/env bash
# Issue 3 item 9's two ratios as instructions executed (valgrind's callgrind), next to the
# wall-time ratios `cargo bench --bench check` prints. An instruction count repeats exactly for
# the same binary and inputs whatever else the machine runs, where wall time on this project's
# shared 2-core VM moved by 2.6x within an afternoon (session 50's closing note): use it to
# tell whether a change made check do less work. It does not see memory stalls (a cold
# `serde_json::Value` tree costs far more time than instructions), so the goals stay the
# wall-time ratios; report both.
#
# Each workload is the bench's `TOOLWIRE_BENCH_LOOP` mode run once and three times, counting
# only inside its rounds (`one_round`); the difference, halved, is one round after the first
# (which also grows the buffers the others reuse), divided by the number of corpus tools the
# harness loaded. Hash maps are seeded anew in each run, so a count may still move a little
# from run to run of the same binary (check: 16,730 and 16,724 per tool, 2026-12-06).
#
# Usage: benches/instructions.sh [WORKLOAD...]   (default: check meta visit parse read bytes)
# Needs valgrind and the corpora (TOOLWIRE_CORPORA, default ../shared/corpora); about
# 10 minutes for the six workloads on one core, after the bench build.
set -euo pipefail
cd "$(dirname "$0")/.."
export TOOLWIRE_CORPORA="${TOOLWIRE_CORPORA:-$PWD/../shared/corpora}"
command -v valgrind >/dev/null || { echo "valgrind not found" >&2; exit 2; }
bin=$(cargo bench --bench check --no-run 2>&1 | sed -n 's/.*Executable benches\/check.rs (\(.*\))$/\1/p')
[ -x "$bin" ] || { echo "the bench binary was not built" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
if [ "$#" -eq 0 ]; then
  set -- check meta visit parse read bytes
fi
declare -A per_tool
for w in "$@"; do
  counts=()
  for n in 1 3; do
    TOOLWIRE_BENCH_LOOP=$w TOOLWIRE_BENCH_TIMES=$n valgrind --tool=callgrind \
      --toggle-collect='*one_round*' --callgrind-out-file="$work/$w-$n.out" "$bin" --bench >/dev/null 2>"$work/$w-$n.err"
    counts+=("$(sed -n 's/.*Collected : \([0-9]*\)$/\1/p' "$work/$w-$n.err")")
    tools=$(sed -n 's/^tools: \([0-9]*\)$/\1/p' "$work/$w-$n.err")
  done
  per_tool[$w]=$(( (counts[1] - counts[0]) / 2 / tools ))
  printf '%-6s %9d instructions per tool (%d tools)\n' "$w" "${per_tool[$w]}" "$tools"
done
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
if [ -n "${per_tool[check]:-}" ] && [ -n "${per_tool[meta]:-}" ]; then
  echo "parsed: meta iter_errors / check = $(ratio "${per_tool[meta]}" "${per_tool[check]}")x (goal, in time: >= 3x)"
fi
if [ -n "${per_tool[bytes]:-}" ] && [ -n "${per_tool[parse]:-}" ]; then
  echo "bytes: read + check / serde_json parse = $(ratio "${per_tool[bytes]}" "${per_tool[parse]}")x (goal, in time: <= 1.5x)"
fi
