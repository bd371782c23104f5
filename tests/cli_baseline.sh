#!/bin/sh
# cli_baseline.sh — `reproduce --baseline`: an identical run exits 0; a
# baseline with one edited value or one changed status makes the run exit 3
# and name that check with both values, also when the value moved well
# inside the check's paper tolerance (every number is held to 1e-9
# relative); a --quick run against a full baseline and another parameter
# file are named on WARNING lines; a run whose --out would overwrite the
# baseline is refused (exit 2) before any work.
#
#   cli_baseline.sh FRICTIONLAB WORKDIR      (FL_SOURCE_ROOT: the source tree)
set -u
fl=$(command -v "$1") || { echo "cli_baseline: no program $1" >&2; exit 1; }
case $fl in /*) ;; *) fl=$PWD/$fl ;; esac
work=$2
case $work in /*) ;; *) work=$PWD/$work ;; esac
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
grep -Eq "^baseline .*: [1-9][0-9]* checks compared [(][1-9][0-9]* numbers[)], 0 drifted, 0 new$" "$work/same.out" ||
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
# a move well inside the paper's tolerance is still a drift: theorem1's
# consistency measure (about 1.6e-4, paper tolerance 0.0566) moved by 10%,
# then by 1e-6 relative, in a copy of the baseline
cname=theorem1.gamma_negative.consistency
grep -q "\"name\": \"$cname\"" "$base" || fail "no $cname in $base"
for move in 1.1 1.000001; do
    awk -v n="$cname" -v f="$move" '{
            if (!done && index($0, "\"name\": \"" n "\"")) hit = 1
            if (hit && match($0, /"value": [-+0-9.eE]+/)) {
                v = substr($0, RSTART + 9, RLENGTH - 9)
                $0 = substr($0, 1, RSTART - 1) "\"value\": " sprintf("%.17g", v * f) substr($0, RSTART + RLENGTH)
                hit = 0; done = 1
            }
            print }' "$base" >"$work/move$move.json"
    cmp -s "$base" "$work/move$move.json" && fail "$cname has no value in $base"
    [ "$(run "move$move" "$work/move$move.json")" = 3 ] || fail "a move by a factor $move of $cname did not exit 3"
    grep -Eq "^DRIFT $cname value [-+0-9.e]+ -> [-+0-9.e]+ [(]moved [-+0-9.e]+, tolerance [0-9.e-]+: reproducibility 1e-09 relative[)] " \
        "$work/move$move.out" || fail "no DRIFT line naming $cname, both values and the tolerance (factor $move)"
    [ "$(grep -c '^DRIFT' "$work/move$move.out")" = 1 ] || fail "one move, several DRIFT lines"
done

# a --quick run against a full baseline (the baseline says so) is named
sed 's/^ "quick": true,$/ "quick": false,/' "$base" >"$work/full.json"
cmp -s "$base" "$work/full.json" && fail "no \"quick\": true in $base"
run quickfull "$work/full.json" >/dev/null
grep -Eq "^WARNING baseline $work/full.json is a full run, this run is --quick" "$work/quickfull.out" ||
    fail "--quick against a full baseline not named"
grep -q "^WARNING" "$work/same.out" && fail "a WARNING on an identical run"

# another parameter file (the user's copy, one byte more): both files and
# both SHA-256 are named
pfile=$FL_SOURCE_ROOT/data/004/example_3_15.json
{ cat "$pfile"; echo; } >"$work/mine.json"
old_sha=$(sha256sum "$pfile" | cut -d' ' -f1)
new_sha=$(sha256sum "$work/mine.json" | cut -d' ' -f1)
"$fl" reproduce example_3_15 --quick --params "$work/mine.json" --out "$work/params" \
    --baseline "$base" >"$work/params.out" 2>"$work/params.err"
grep -Fq "WARNING example_3_15 parameter file: baseline data/004/example_3_15.json (sha256 $old_sha), this run $work/mine.json (sha256 $new_sha)" \
    "$work/params.out" || fail "another parameter file not named with both SHA-256"

# --out that would overwrite the baseline: refused before any work, exit 2,
# the baseline untouched; by the same path, through a symbolic link, and by
# the default --out (out/results.json)
cp "$base" "$work/base.copy"
refuse() { # refuse NAME DIR ARGS...: the run in DIR must exit 2 and say why
    n=$1 d=$2
    shift 2
    (cd "$d" && "$fl" reproduce example_3_15 theorem1 --quick "$@" >"$work/$n.out" 2>"$work/$n.err")
    [ $? = 2 ] || fail "$n: a run overwriting its baseline did not exit 2"
    grep -q "would overwrite the baseline" "$work/$n.err" || fail "$n: no message saying why"
    grep -q "^==" "$work/$n.err" && fail "$n: a task ran before the refusal"
    cmp -s "$base" "$work/base.copy" || fail "$n: the baseline was changed"
}
refuse same_out "$work" --out "$work/base" --baseline "$base"
ln -s base "$work/alias"
refuse symlink "$work" --out "$work/alias" --baseline "$work/base/results.json"
mkdir -p "$work/cwd/out"
cp "$base" "$work/cwd/out/results.json"
cp "$base" "$work/base.copy2"
refuse default_out "$work/cwd" --baseline out/results.json
cmp -s "$work/cwd/out/results.json" "$work/base.copy2" || fail "default --out: the baseline was changed"
refuse default_out_dotted "$work/cwd" --baseline ./out/../out/results.json
echo "cli_baseline: identical run 0; status and value edits of $name and a number edit of $vname caught (exit 3); a 10% and a 1e-6 move of $cname inside its paper tolerance caught; --quick vs full and another parameter file named; a baseline --out would overwrite refused"
