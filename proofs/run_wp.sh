#!/usr/bin/env bash
# run_wp.sh SOURCE_ROOT — prove the ACSL contracts of the scalar kernels
# (core/fl_scalar.h, core/fl_scalar.c) and the lemma functions
# (proofs/acsl/fl_scalar_lemmas.c) with Frama-C/WP in its real-number model
# and z3.  frama-c exits 0 even when goals fail, so this script reads
# "Proved goals: N / M" and fails unless N = M > 0.  Missing tools are a
# failure, not a skip (doc/testing.md).
#
# z3 is run through both of why3's z3 drivers: the default one ('z3')
# removes the axioms of real.Square (sqrt), so the disc-projection goals
# need 'z3-nobv' (same z3 binary, driver that keeps them).
#
# -wp-timeout 60: the slowest goal takes about 1 s (970 ms, fresh-clone CI
# run of 2026-11-27); the limit only ends an attempt that would fail anyway,
# and 10 s left too little room on a loaded 2-core machine running the other
# tests beside it.
#
# -wp-rte adds the run-time-error goals: pointer validity (meaningful) and
# "not NaN or infinite" for each float operation, which the real model
# proves trivially (no infinities in R); rounding and overflow are left to
# the floating-point tests (proofs/README.md).
set -u
root="${1:-$(cd "$(dirname "$0")/.." && pwd)}"

for tool in frama-c why3 z3; do
    if ! command -v "$tool" >/dev/null 2>&1; then
        echo "FAIL: $tool not found (install frama-c-base why3 z3: see setup.sh)"
        exit 1
    fi
done
if [ ! -f "$HOME/.why3.conf" ]; then
    why3 config detect >/dev/null 2>&1 || true
fi
if ! frama-c -wp-detect 2>/dev/null | grep -q "z3-nobv"; then
    echo "FAIL: why3 does not list z3 (run 'why3 config detect')"
    exit 1
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
start=$(date +%s)
( cd "$root" && frama-c -cpp-extra-args="-I$root/core" \
    -wp -wp-rte -wp-model real -wp-prover z3,z3-nobv -wp-timeout 60 -wp-par 2 \
    core/fl_scalar.c proofs/acsl/fl_scalar_lemmas.c ) >"$log" 2>&1
rc=$?
end=$(date +%s)

# Failed / unproved goals, then the WP summary.
grep -E "^\[wp\] \[(Failed|Timeout|Unknown)|: (Failed|Timeout|Unknown)" "$log"
sed -n '/Proved goals/,$p' "$log" | grep -v "^\[wp\] .*Warning" | head -12
echo "wall time: $((end - start)) s"

if [ $rc -ne 0 ]; then
    echo "FAIL: frama-c exited with status $rc"
    tail -20 "$log"
    exit 1
fi
line=$(grep -E "Proved goals: *[0-9]+ */ *[0-9]+" "$log" | tail -1)
proved=$(echo "$line" | sed -E 's/.*Proved goals: *([0-9]+) *\/ *([0-9]+).*/\1/')
total=$(echo "$line" | sed -E 's/.*Proved goals: *([0-9]+) *\/ *([0-9]+).*/\2/')
if [ -z "$line" ] || [ "$total" -eq 0 ] || [ "$proved" -ne "$total" ]; then
    echo "FAIL: WP proved ${proved:-?} / ${total:-?} goals"
    exit 1
fi
echo "PASS: WP proved $proved / $total goals (real model, z3)"
