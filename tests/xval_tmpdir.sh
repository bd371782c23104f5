#!/bin/sh
# xval_tmpdir.sh — what `frictionlab crosscheck --solver-cmd` leaves in
# /tmp, and what its FAIL lines say (checks/xval.c, cli/xval_cmd.c):
#   1. a run with failures keeps exactly the failing problems' files (the
#      problem, the solver's logs) in the directory it prints, and each FAIL
#      line carries the solver's last stderr line and that path;
#   2. a run where everything passes removes its directory;
#   3. a run stopped by SIGINT (timeout -s INT) or SIGTERM while the solver
#      sleeps removes its directory and kills the solver, and dies of the
#      signal.
#   xval_tmpdir.sh FRICTIONLAB SOLVER WORKDIR
fl=$1
solver=$2
work=$3
rm -rf "$work"
mkdir -p "$work" || exit 1
bad=0
say() { echo "xval_tmpdir: $*" >&2; bad=1; }
dir_of() { sed -n 's/^crosscheck --solver-cmd: problems and solutions in //p' "$1" | head -n 1; }

# 1. failing problems kept, the others removed
"$fl" crosscheck --family random --systems 3 --out "$work/o1" --solver-cmd \
    "case {in} in *nc0001*) printf 'mysolver: cannot open model\\001\\n' >&2; exit 3;; esac; $solver {in} {out}" \
    >"$work/out1" 2>"$work/err1"
d=$(dir_of "$work/err1")
[ -n "$d" ] || say "run 1: no directory printed"
grep -q "^crosscheck --solver-cmd: failing problems kept in $d\$" "$work/err1" || say "run 1: kept directory not printed"
grep -q '^FAIL ' "$work/out1" || say "run 1: no FAIL line"
grep -q '^PASS ' "$work/out1" || say "run 1: no PASS line"
for n in $(sed -n 's/^FAIL \([^ ]*\) .*/\1/p' "$work/out1"); do
    grep "^FAIL $n " "$work/out1" | grep -qF "solver's stderr: \"mysolver: cannot open model\\x01\"" ||
        say "run 1: FAIL $n lacks the solver's stderr"
    grep "^FAIL $n " "$work/out1" | grep -qF "files kept: $d/$n.*" || say "run 1: FAIL $n lacks the path"
    for f in "$n.hdf5" "$n.solution.hdf5.log" "$n.solution.hdf5.stderr"; do
        [ -e "$d/$f" ] || say "run 1: $d/$f not kept"
    done
done
for n in $(sed -n 's/^PASS \([^ ]*\) .*/\1/p' "$work/out1"); do
    ls "$d" | grep -q "^$n[.]" && say "run 1: files of the passed $n kept"
done
[ -n "$d" ] && rm -rf "$d"

# 2. everything passes: nothing left
"$fl" crosscheck --family random --systems 2 --out "$work/o2" --solver-cmd "$solver {in} {out}" \
    >"$work/out2" 2>"$work/err2" || say "run 2: exit status $?"
d=$(dir_of "$work/err2")
[ -n "$d" ] || say "run 2: no directory printed"
[ -n "$d" ] && [ -e "$d" ] && { say "run 2: $d left"; rm -rf "$d"; }

# 3. signals while the solver sleeps
mark="$$.$(date +%s)"
for sig in INT TERM; do
    timeout --preserve-status -s $sig 3 "$fl" crosscheck --family random --systems 2 --out "$work/o3" \
        --solver-cmd "sleep 40 || echo $mark {in} {out}" >"$work/out3" 2>"$work/err3"
    st=$?
    d=$(dir_of "$work/err3")
    [ -n "$d" ] || say "SIG$sig: no directory printed"
    want=130; [ $sig = TERM ] && want=143
    [ "$st" -eq $want ] || say "SIG$sig: exit status $st, expected $want (the harness dies of the signal)"
    [ -n "$d" ] && [ -e "$d" ] && { say "SIG$sig: $d left"; rm -rf "$d"; }
    sleep 0.3
    pgrep -f "$mark" >/dev/null && say "SIG$sig: the solver still runs"
done
if [ $bad -ne 0 ]; then
    for f in out1 err1 out3 err3; do echo "--- $f" >&2; tail -n 20 "$work/$f" >&2; done
fi
exit $bad
