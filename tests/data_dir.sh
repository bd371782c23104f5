#!/bin/sh
# data_dir.sh FRICTIONLAB DATA — where an installed program finds its
# data (core/fl_data.c): a copy of the command outside the build tree uses
# <bindir>/../share/frictionlab when that is a directory, else the
# configured install directory, and an empty FL_DATA_DIR counts as unset.
# The results record the SHA-256 of the parameter file read there.
# The copy runs from a temporary directory outside the build tree (inside
# it, the source tree's data/ would be used).
exe=$1
data=$2
work=$(mktemp -d) || exit 1
mkdir -p "$work/bin" "$work/share" || exit 1
cp "$exe" "$work/bin/frictionlab" || exit 1
fail=0
run() {
    out=$(FL_DATA_DIR= "$work/bin/frictionlab" reproduce wedged_rod --quick --out "$work/out" 2>&1)
    st=$?
}
# installed layout: share/frictionlab next to bin/ holds the data
ln -s "$data" "$work/share/frictionlab"
run
if [ "$st" -ne 0 ] || ! printf '%s\n' "$out" | grep -Eq '^[0-9]+ passed, 0 failed$'; then
    echo "data_dir: installed layout: exit $st, expected 0 and a summary line"
    printf '%s\n' "$out"
    fail=1
fi
sum=$(sha256sum "$data/003/wedged_rod.json" | cut -d' ' -f1)
if ! grep -q "$sum" "$work/out/results.json"; then
    echo "data_dir: installed layout: results.json lacks the SHA-256 $sum of the parameter file"
    printf '%s\n' "$out"
    fail=1
fi
# share/frictionlab missing, then a file, not a directory: the configured
# install directory is used (and named in the error when it holds no data)
fallback() {
    run
    installed=$(printf '%s\n' "$out" |
        sed -n 's/.*(data directory \([^ ]*\) chosen by installed.*/\1/p' | head -n 1)
    if [ -n "$installed" ]; then
        if [ "$st" -ne 1 ] || [ -f "$installed/003/wedged_rod.json" ]; then
            echo "data_dir: fallback ($1): exit $st with the data directory $installed"
            printf '%s\n' "$out"
            fail=1
        fi
    elif [ "$st" -ne 0 ]; then
        echo "data_dir: fallback ($1): exit $st, and no 'chosen by installed' in the error"
        printf '%s\n' "$out"
        fail=1
    fi
}
rm "$work/share/frictionlab"
fallback "no share/frictionlab"
: > "$work/share/frictionlab"
fallback "share/frictionlab is a file"
rm -rf "$work"
exit $fail
