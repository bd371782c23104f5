#!/bin/sh
# help_examples.sh — runs every example printed under "examples:" by every
# subcommand's --help, in order, from a scratch directory where `frictionlab`
# is the build's program (first on PATH) and tests/ is the source tree's;
# each with a time limit; fails on a non-zero exit.
#   help_examples.sh FRICTIONLAB SOURCE_ROOT [LIMIT_SECONDS]
set -u
fl=$(readlink -f "$1")
src=$(readlink -f "$2")
limit=${3:-120}
scratch=$(mktemp -d) || exit 1
trap 'rm -rf "$scratch"' EXIT INT TERM
mkdir "$scratch/bin" "$scratch/run"
ln -s "$fl" "$scratch/bin/frictionlab"
ln -s "$src/tests" "$scratch/run/tests"
PATH="$scratch/bin:$PATH"
export PATH
status=0
n=0
for sub in reproduce crosscheck bench "bench suite" "bench merge" solve convert; do
    # shellcheck disable=SC2086
    "$fl" $sub --help | sed -n '/^examples:$/,/^$/p' | sed -n 's/^  //p' >"$scratch/examples"
    while IFS= read -r line; do
        n=$((n + 1))
        (cd "$scratch/run" && timeout "$limit" sh -c "$line") >"$scratch/log" 2>&1 </dev/null
        rc=$?
        if [ $rc -ne 0 ]; then
            echo "help_examples: '$line' (from '$sub --help') exited with $rc:" >&2
            tail -n 5 "$scratch/log" >&2
            status=1
        else
            echo "ok: $line"
        fi
    done <"$scratch/examples"
done
[ $n -gt 0 ] || { echo "help_examples: no example found" >&2; exit 1; }
[ $status -eq 0 ] && echo "help_examples: $n examples of --help ran and exited 0"
exit $status
