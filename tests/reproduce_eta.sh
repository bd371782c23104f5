#!/bin/sh
# reproduce_eta.sh FRICTIONLAB — reproduce estimates the time left from the
# task times of the results.json already in --out (cli/main.c): none on a
# first run, "ETA ... by the previous run" on the second, none again when
# that results.json is unreadable (the run still passes), and none for a
# task the previous run did not have.
exe=$1
work=$(mktemp -d) || exit 1
fail=0
run() {
    err=$("$exe" reproduce "$@" --quick --out "$work/out" 2>&1 >/dev/null)
    st=$?
}
report() {
    echo "reproduce_eta: $1: exit $st, stderr:"
    printf '%s\n' "$err"
    fail=1
}
has() {   # has WHAT REGEX: exit 0 and a line of stderr matches
    if [ "$st" -ne 0 ] || ! printf '%s\n' "$err" | grep -Eq "$2"; then report "$1"; fi
}
lacks_eta() {   # lacks_eta WHAT: exit 0 and no ETA on a task line
    if [ "$st" -ne 0 ] || printf '%s\n' "$err" | grep -q '^== .*ETA'; then report "$1"; fi
}
run kane wedged_rod
lacks_eta "first run"
run kane wedged_rod
has "second run" '^== \[1/2, .*ETA [0-9.]+ s by the previous run\] kane'
run kane painleve_grazing
lacks_eta "a task the previous run lacked"
echo '{ not json' > "$work/out/results.json"
run kane wedged_rod
lacks_eta "unreadable results.json"
rm -rf "$work"
exit $fail
