#!/bin/sh
# solve_generated.sh FRICTIONLAB — `solve` on problems written here: a
# global problem whose M = diag(1, -1, 1) is not positive definite (every
# solver and twin refuses it with exit 2, naming the file and the field M),
# and a local problem without contact (converged, nothing to iterate, an
# empty solution written).
exe=$1
work=$(mktemp -d) || exit 1
fail=0
printf '3\n1\n0\n3\n3\n3 3\n1 0 0 0 -1 0 0 0 1\n0\n3\n3\n3 3\n1 0 0 0 1 0 0 0 1\n-1 2 0\n0 0 0\n0.5\n' \
    > "$work/indefinite.dat"
for solver in gs newton auto; do
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
rm -rf "$work"
exit $fail
