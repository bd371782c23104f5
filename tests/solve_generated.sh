#!/bin/sh
# solve_generated.sh FRICTIONLAB — `solve` on problems written here: a
# global problem whose M = diag(1, -1, 1) is not positive definite (every
# solver and twin refuses it with exit 2, naming the file and the field M),
# a local problem without contact (converged, nothing to iterate, an
# empty solution written), and local problems of 500 and 10^4 contacts with W = 0
# and q_N = -1 (no solution: proofs/degenerate-problems.md (D1)), refused by
# every solver and twin with exit 2 naming contact 0, within `timeout 20`
# (before the refusal it was iterated to the sweep limit: minutes).
exe=$1
work=$(mktemp -d) || exit 1
fail=0
printf '3\n1\n0\n3\n3\n3 3\n1 0 0 0 -1 0 0 0 1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n-1 2 0\n0 0 0\n0.5\n' \
    > "$work/indefinite.dat"
for solver in gs newton auto ppa; do
    for impl in reference optimized; do
        out=$("$exe" solve "$work/indefinite.dat" --solver $solver --impl $impl 2>&1)
        st=$?
        if [ "$st" -ne 2 ] || ! printf '%s\n' "$out" |
            grep -Eq "^frictionlab solve: $work/indefinite[.]dat: field M: matrix is not positive definite"; then
            echo "solve_generated: indefinite M, $solver $impl: exit $st"
            printf '%s\n' "$out"
            fail=1
        fi
    done
done
printf '3\n0\n0\n0\n0\n0 0\n\n\n' > "$work/no_contact.dat"
out=$("$exe" solve "$work/no_contact.dat" --out "$work/no_contact.hdf5" 2>&1)
st=$?
if [ "$st" -ne 0 ] || ! printf '%s\n' "$out" | grep -q '^no contact: r is empty$' ||
    ! printf '%s\n' "$out" | grep -q '^status converged$' || [ ! -s "$work/no_contact.hdf5" ]; then
    echo "solve_generated: local problem without contact: exit $st"
    printf '%s\n' "$out"
    fail=1
fi
# W = 0 as a sparse-block matrix without blocks (storage 1, 0 blocks)
infeasible() {
    awk -v n="$1" 'BEGIN { m = 3 * n; printf "3\n%d\n1\n%d\n%d\n0\n", n, m, m;
        for (a = 0; a < n; a++) printf "-1 0 0 "; printf "\n";
        for (a = 0; a < n; a++) printf "0.5 "; printf "\n" }' > "$work/infeasible$1.dat"
}
infeasible 500
infeasible 10000
for solver in gs newton auto ppa; do
    for impl in reference optimized; do
        for n in 500 10000; do
            [ $n = 10000 ] && [ $impl = reference ] && continue   # dense W of 7.2 GB: refused for its size
            out=$(timeout 20 "$exe" solve "$work/infeasible$n.dat" --solver $solver --impl $impl 2>&1)
            st=$?
            if [ "$st" -ne 2 ] || ! printf '%s\n' "$out" | grep -q 'contact 0: no solution exists'; then
                echo "solve_generated: infeasible W = 0, q_N = -1, nc $n, $solver $impl: exit $st"
                printf '%s\n' "$out" | tail -5
                fail=1
            fi
        done
    done
done
rm -rf "$work"
exit $fail
