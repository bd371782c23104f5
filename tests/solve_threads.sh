#!/bin/sh
# solve_threads.sh FRICTIONLAB FILE [ARG...] — `frictionlab solve FILE ARG... --threads N`
# (doc/parallel.md): the graph-coloured Gauss–Seidel sweep gives the same
# answer on 1 and on 2 threads, bit for bit (the printed r and u, with 17
# digits, the error and the status), and the same verdict as the serial
# sweep of the default run.  A thread count that changed the iterates, or an
# option that did not reach the solver (checked by the header line), fails.
set -u
fl=$1
file=$2
shift 2
extra="$*"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
for t in serial 1 2; do
    if [ "$t" = serial ]; then set --; else set -- --threads "$t"; fi
    # shellcheck disable=SC2086
    "$fl" solve "$file" --solver gs --print $extra "$@" > "$tmp/$t.out" 2>&1
    echo $? > "$tmp/$t.rc"
done
status=0
grep -q 'graph-coloured sweep on 2 thread' "$tmp/2.out" ||
    { echo "solve_threads: --threads 2 is not reported"; cat "$tmp/2.out"; status=1; }
grep -q 'graph-coloured' "$tmp/serial.out" &&
    { echo "solve_threads: the default run reports the coloured sweep"; status=1; }
# the answer lines: r, u, error, status (not the header, not timings)
for t in serial 1 2; do
    grep -E '^(contact|r |u |status|error)' "$tmp/$t.out" | sed 's/ in [0-9.e+-]* s//' > "$tmp/$t.ans"
    grep -E '^status' "$tmp/$t.out" > "$tmp/$t.verdict"
done
[ -s "$tmp/1.ans" ] || { echo "solve_threads: no answer lines"; cat "$tmp/1.out"; status=1; }
cmp -s "$tmp/1.ans" "$tmp/2.ans" ||
    { echo "solve_threads: 1 and 2 threads differ:"; diff "$tmp/1.ans" "$tmp/2.ans" | head; status=1; }
cmp -s "$tmp/1.rc" "$tmp/2.rc" && cmp -s "$tmp/serial.rc" "$tmp/1.rc" ||
    { echo "solve_threads: exit statuses differ"; status=1; }
cmp -s "$tmp/serial.verdict" "$tmp/1.verdict" ||
    { echo "solve_threads: the serial and the coloured verdicts differ"; status=1; }
[ $status -eq 0 ] && echo "solve_threads: 1 and 2 threads identical ($(wc -l < "$tmp/1.ans") answer lines), verdict $(cat "$tmp/1.verdict")"
exit $status
