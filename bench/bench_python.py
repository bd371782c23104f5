#!/usr/bin/python3
"""bench_python.py -- what the Python module costs over the C library, in
one run (doc/python.md, "Overhead"):

    PYTHONPATH=build/python /usr/bin/python3 bench/bench_python.py \
        [--build build] [--sizes 10,100,1000,10000] [--repeats 9]
        [--crosscheck FAMILIES] [--full] [--no-crosscheck] [--no-solve]

1. solve: for each size, a 3D rigid-particle chain (below) is written to an
   FCLIB file; build/bench/bench_solve_file times fl_solve_local on it from
   C (problem read and CHOLMOD started once), and this script times
   frictionlab.solve on the same file's problem (the whole Python call:
   argument checks, the views, the result arrays).  Each side: the least
   CPU time of the process (all its threads) and the least wall time over REPEATS
   calls, in 3 alternating rounds (on a shared machine other processes only
   add time; CPU time is the steadier).  Printed: both and the overhead
   (Python/C - 1); both sides run auto to 1e-8 from zero and must report the
   same iteration count.
2. crosscheck: the same Python solver (wrap: frictionlab.solve inside a
   Python function) on the families (default all) in-process through
   frictionlab.crosscheck, and as a command through
   `frictionlab crosscheck --solver-cmd` (this script with --as-command:
   a new interpreter per problem, FCLIB files in and out).  Printed: the
   wall time of each and the verdict counts, which must agree.  --full:
   the families' full size ladders (the command's --full).

The problem of size nc: nc + 1 bodies of mass 1 (3 translational dofs each)
in a chain, contact a between bodies a and a+1 with a random unit normal
and tangent frame (numpy's default_rng(nc)), H the m x n kinematics,
W = H M^-1 H^T, q = H v with v Gaussian, mu = 0.3.
"""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import scipy.sparse as sp

import frictionlab as fl

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def chain(nc):
    rng = np.random.default_rng(nc)
    nb = nc + 1
    rows, cols, vals = [], [], []
    for a in range(nc):
        nrm = rng.normal(size=3)
        nrm /= np.linalg.norm(nrm)
        t1 = np.cross(nrm, [1.0, 0, 0] if abs(nrm[0]) < 0.9 else [0, 1.0, 0])
        t1 /= np.linalg.norm(t1)
        t2 = np.cross(nrm, t1)
        R = np.vstack([nrm, t1, t2])
        for i in range(3):
            for j in range(3):
                rows += [3 * a + i, 3 * a + i]
                cols += [3 * a + j, 3 * (a + 1) + j]
                vals += [R[i, j], -R[i, j]]
    H = sp.csc_matrix((vals, (rows, cols)), shape=(3 * nc, 3 * nb))
    W = (H @ H.T).tocsc()   # M = I
    W.sort_indices()
    q = H @ rng.normal(size=3 * nb)
    return fl.LocalProblem(W, q, np.full(nc, 0.3), 3)


def bench_solve(build, sizes, repeats):
    cbin = os.path.join(build, "bench", "bench_solve_file")
    print("solve from Python (frictionlab.solve) vs from C (fl_solve_local), auto, tol 1e-8:")
    print(f"least time of {repeats} calls (C and Python alternating in 3 rounds); cpu = CPU time of "
          "the process (all threads), wall = elapsed (other processes only add to either)")
    print(f"{'contacts':>9} {'iter':>5} {'C cpu s':>11} {'Py cpu s':>11} {'overhead':>9}"
          f" {'C wall s':>11} {'Py wall s':>11} {'overhead':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for nc in sizes:
            p = chain(nc)
            path = os.path.join(tmp, f"chain{nc}.hdf5")
            fl.write(p, path)
            p = fl.read(path)
            reps = repeats if nc <= 1000 else max(3, repeats // 3)
            c_wall = c_cpu = py_wall = py_cpu = float("inf")
            for _ in range(3):
                out = subprocess.run([cbin, path, str(reps)], check=True, capture_output=True,
                                     text=True).stdout.split()
                c_wall, c_cpu, c_iter = min(c_wall, float(out[1])), min(c_cpu, float(out[3])), int(out[5])
                for _ in range(reps):
                    t0, c0 = time.perf_counter(), time.process_time()
                    res = fl.solve(p)
                    c1, t1 = time.process_time(), time.perf_counter()
                    py_wall, py_cpu = min(py_wall, t1 - t0), min(py_cpu, c1 - c0)
            same = "" if res.iterations == c_iter else f"  (iterations differ: C {c_iter})"
            print(f"{nc:>9} {res.iterations:>5} {c_cpu:>11.6f} {py_cpu:>11.6f} "
                  f"{py_cpu / c_cpu - 1:>8.1%} {c_wall:>11.6f} {py_wall:>11.6f} "
                  f"{py_wall / c_wall - 1:>8.1%}{same}")


def wrap(problem):
    res = fl.solve(problem)
    return res.r, res.u


def as_command(src, dst):
    p = fl.read(src)
    r, u = wrap(p)
    fl.write(p, dst, solution=(r, u))
    return 0


def bench_crosscheck(build, families, full):
    print(f"\ncrosscheck of the same Python solver (frictionlab.solve wrapped), families {families}"
          f"{' --full' if full else ''}")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        rep = fl.crosscheck(wrap, families=tuple(families.split(",")) if families != "all"
                            else fl.FAMILIES, full=full, out=os.path.join(tmp, "inproc"))
        t_in = time.perf_counter() - t0
        env = dict(os.environ, FL_SOURCE_ROOT=ROOT,
                   PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        cmd = f"{sys.executable} {os.path.abspath(__file__)} --as-command {{in}} {{out}}"
        t0 = time.perf_counter()
        run = subprocess.run([os.path.join(build, "frictionlab"), "crosscheck", "--family",
                              families, "--out", os.path.join(tmp, "cmd"), "--solver-cmd", cmd]
                             + (["--full"] if full else []),
                             capture_output=True, text=True, env=env)
        t_cmd = time.perf_counter() - t0
        last = [ln for ln in run.stdout.splitlines() if ln.strip()][-1:]
        print(f"  in-process (frictionlab.crosscheck): {t_in:8.1f} s, {rep.passed} passed, "
              f"{rep.failed} failed")
        print(f"  command (--solver-cmd):              {t_cmd:8.1f} s, {last[0] if last else '?'}")
        print(f"  ratio command / in-process: {t_cmd / t_in:.2f}")


def main(argv):
    if len(argv) == 4 and argv[1] == "--as-command":
        return as_command(argv[2], argv[3])
    build, sizes, repeats, families = os.path.join(ROOT, "build"), [10, 100, 1000, 10000], 9, "all"
    full = False
    it = iter(argv[1:])
    for a in it:
        if a == "--build":
            build = next(it)
        elif a == "--sizes":
            sizes = [int(x) for x in next(it).split(",")]
        elif a == "--repeats":
            repeats = int(next(it))
        elif a == "--crosscheck":
            families = next(it)
        elif a == "--no-crosscheck":
            families = None
        elif a == "--full":
            full = True
        elif a == "--no-solve":
            sizes = []
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if sizes:
        bench_solve(build, sizes, repeats)
    if families:
        bench_crosscheck(build, families, full)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
