#!/bin/sh
# example_solver.sh IN.hdf5 OUT.hdf5 — the shape of a solver command for
# `frictionlab crosscheck --solver-cmd "data/fclib/example_solver.sh {in} {out}"`.
# It reads the FCLIB local problem IN (W, q, mu) and must write OUT: the
# problem and its solution (/solution/r, /solution/u) in FCLIB form.  Here
# the work is done by `frictionlab solve` (set FRICTIONLAB to its path if it
# is not on PATH); replace this line by your own solver.
exec "${FRICTIONLAB:-frictionlab}" solve "$1" --out "$2" --tol 1e-10 >/dev/null
