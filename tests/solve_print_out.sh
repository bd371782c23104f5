#!/bin/sh
# solve_print_out.sh — `solve --print` shows r and u (v too for a global
# problem), one contact per line, by default for up to 10 contacts, never with
# --no-print; `solve --out` chooses the format by the extension as `convert`
# does: .hdf5 FCLIB, .dat Siconos text plus FILE.sol, anything else refused
# (exit 2, naming the extension, nothing written).
#   solve_print_out.sh FRICTIONLAB SOURCE_ROOT
set -u
fl=$(readlink -f "$1")
data=$2/tests/data/siconos
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "solve_print_out: $*" >&2; exit 1; }
# default: Rover1039 has 4 contacts, 4 lines "contact a: r .. u .."
"$fl" solve "$data/Rover1039.dat" >"$tmp/o" 2>&1 || fail "solve Rover1039 failed"
[ "$(grep -cE '^contact [0-9]+: r( [^ ]+){3}  u( [^ ]+){3}$' "$tmp/o")" -eq 4 ] ||
    fail "solve Rover1039 does not print 4 contacts' r and u: $(cat "$tmp/o")"
"$fl" solve "$data/Rover1039.dat" --no-print >"$tmp/o" 2>&1 || fail "solve --no-print failed"
grep -q '^contact ' "$tmp/o" && fail "solve --no-print printed r"
# a global problem: r, u per contact and the v line (n = 54)
"$fl" solve "$data/GFC3D_TwoRods1.dat" >"$tmp/o" 2>&1 || fail "solve GFC3D_TwoRods1 failed"
[ "$(grep -c '^contact ' "$tmp/o")" -eq 3 ] || fail "global: not 3 contact lines"
[ "$(grep '^v ' "$tmp/o" | wc -w)" -eq 55 ] || fail "global: no line v with 54 values"
# over 10 contacts: silent by default, --print forces it
big=$data/Capsules-i101-404.dat
"$fl" solve "$big" >"$tmp/o" 2>&1
grep -q '^contact ' "$tmp/o" && fail "solve of a problem over 10 contacts printed r by default"
"$fl" solve "$big" --print >"$tmp/o" 2>&1
grep -q '^contact 10: r ' "$tmp/o" || fail "--print did not print contact 10"
# --out by extension
(cd "$tmp" && "$fl" solve "$data/Rover1039.dat" --out sol.dat --no-print) >"$tmp/o" 2>&1 ||
    fail "--out sol.dat failed: $(cat "$tmp/o")"
head -c 4 "$tmp/sol.dat" | od -c | grep -q 'H   D   F' && fail "--out sol.dat wrote HDF5"
"$fl" solve "$tmp/sol.dat" --no-print >/dev/null 2>&1 || fail "sol.dat is not a readable problem"
[ "$(grep -c '^contact ' "$tmp/sol.dat.sol")" -eq 4 ] || fail "sol.dat.sol lacks the 4 contacts"
(cd "$tmp" && "$fl" solve "$data/Rover1039.dat" --out sol.hdf5 --no-print) >/dev/null 2>&1 ||
    fail "--out sol.hdf5 failed"
head -c 4 "$tmp/sol.hdf5" | od -c | grep -q 'H   D   F' || fail "--out sol.hdf5 is not HDF5"
(cd "$tmp" && "$fl" solve "$data/Rover1039.dat" --out sol.txt) >"$tmp/o" 2>&1
rc=$?
[ $rc -eq 2 ] || fail "--out sol.txt exited $rc, not 2"
grep -q "unknown extension '.txt'" "$tmp/o" || fail "--out sol.txt does not name the extension"
[ -e "$tmp/sol.txt" ] && fail "--out sol.txt wrote a file"
echo "solve_print_out: r, u printed by default up to 10 contacts, --print/--no-print, --out by extension"
