#!/bin/sh
# cli_baseline.sh — `reproduce --baseline`: an identical run exits 0; a
# baseline with one edited value or one changed status makes the run exit 3
# and name that check with both values.
#
#   cli_baseline.sh FRICTIONLAB WORKDIR      (FL_SOURCE_ROOT: the source tree)
set -u
fl=$1
work=$2
rm -rf "$work"
mkdir -p "$work" || exit 1
fail() {
    echo "cli_baseline: $*" >&2
    for f in "$work"/*.out; do echo "--- $f" >&2; cat "$f" >&2; done
    exit 1
}
run() { # run NAME BASELINE: reproduce into WORKDIR/NAME, stdout to NAME.out; prints the status
    "$fl" reproduce example_3_15 theorem1 --quick --out "$work/$1" ${2:+--baseline "$2"} \
        >"$work/$1.out" 2>"$work/$1.err"
    echo $?
}

[ "$(run base "")" = 0 ] || fail "the first run failed"
base=$work/base/results.json
[ -s "$base" ] || fail "no results.json"

# identical run: exit 0, every check compared, nothing drifted
[ "$(run same "$base")" = 0 ] || fail "an identical run did not exit 0"
grep -Eq "^baseline .*: [1-9][0-9]* checks compared, 0 drifted, 0 new$" "$work/same.out" ||
    fail "no comparison line for the identical run"
tail -n 1 "$work/same.out" | grep -Eq '^[0-9]+ passed, 0 failed$' || fail "summary line not last"

# one status edited (the first PASS of example_3_15 becomes FAIL)
# (the first one whose status is PASS: NOTE lines carry no pass/fail)
name=$(awk '/^ *"name": / { n = $0; sub(/^ *"name": "/, "", n); sub(/".*/, "", n)
                             if (n !~ /^example_3_15\./) n = "" }
            /"status": "PASS"/ && n != "" { print n; exit }' "$base")
[ -n "$name" ] || fail "no example_3_15 check in $base"
awk -v n="$name" '{ if (!done && index($0, "\"name\": \"" n "\"")) hit = 1
                     if (hit && sub(/"status": "PASS"/, "\"status\": \"FAIL\"")) { hit = 0; done = 1 }
                     print }' "$base" >"$work/status.json"
[ "$(run status "$work/status.json")" = 3 ] || fail "a changed status did not exit 3"
# a name several checks share (one per parameter value) is reported as name#1
grep -Eq "^DRIFT $name(#1)? status FAIL -> PASS " "$work/status.out" || fail "DRIFT line for $name missing"
[ "$(grep -c '^DRIFT' "$work/status.out")" = 1 ] || fail "one edit, several DRIFT lines"

# one value removed: the baseline has none, the run has one (the check
# gained a number; every check of example_3_15 reports one)
awk -v n="$name" '{ if (!done && index($0, "\"name\": \"" n "\"")) hit = 1
                     if (hit && $0 ~ /^ *"value": /) { hit = 0; done = 1; next }
                     print }' "$base" >"$work/value.json"
[ "$(run value "$work/value.json")" = 3 ] || fail "an edited value did not exit 3"
grep -Eq "^DRIFT $name(#1)? value [(]none[)] -> " "$work/value.out" || fail "DRIFT value line for $name missing"
[ "$(grep -c '^DRIFT' "$work/value.out")" = 1 ] || fail "one edit, several DRIFT lines"

# a recorded number edited: example_3_15.min_eig_KS carries its value
# (fl_check_value); the baseline says 0.5, the run its computed value
vname=example_3_15.min_eig_KS
grep -q "\"name\": \"$vname\"" "$base" || fail "no $vname in $base"
awk -v n="$vname" '{ if (!done && index($0, "\"name\": \"" n "\"")) hit = 1
                     if (hit && sub(/"value": [-+0-9.eE]+/, "\"value\": 0.5")) { hit = 0; done = 1 }
                     print }' "$base" >"$work/number.json"
cmp -s "$base" "$work/number.json" && fail "$vname has no value in $base"
[ "$(run number "$work/number.json")" = 3 ] || fail "an edited number did not exit 3"
grep -Eq "^DRIFT $vname(#1)? value 0.5 -> 0[.]94[0-9]* [(]moved " "$work/number.out" ||
    fail "DRIFT value line with both numbers for $vname missing"
[ "$(grep -c '^DRIFT' "$work/number.out")" = 1 ] || fail "one number edit, several DRIFT lines"

# an unreadable baseline is a usage error naming the file
[ "$(run missing "$work/no-such.json")" = 2 ] || fail "a missing baseline did not exit 2"
grep -q "no-such.json" "$work/missing.err" || fail "the missing baseline is not named"
echo "cli_baseline: identical run 0; status and value edits of $name and a number edit of $vname caught (exit 3)"
