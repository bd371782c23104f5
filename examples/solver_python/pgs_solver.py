#!/usr/bin/python3
"""pgs_solver.py -- a plain projected Gauss-Seidel for local frictional
contact problems, written to be copied: the smallest complete solver that
frictionlab can cross-validate, both ways.

In-process (the frictionlab Python module calls pgs() on every problem):

    PYTHONPATH=build/python /usr/bin/python3 examples/solver_python/pgs_solver.py \
        --in-process [--family random,edge|all] [--out DIR]

As a command (a new interpreter per problem, problems in FCLIB files):

    build/frictionlab crosscheck --solver-cmd \
        'PYTHONPATH=build/python /usr/bin/python3 examples/solver_python/pgs_solver.py {in} {out}'

    pgs_solver.py IN.hdf5 OUT.hdf5 [--tol T] [--max-sweeps N]

reads the local problem of IN with frictionlab.read (W, q, mu, dim), finds r
with

    U = W r + q,  r in K = {|r_T| <= mu r_N},  U + mu|U_T| e_N in K*,
    r . (U + mu|U_T| e_N) = 0                 (Coulomb's law, De Saxce form)

and writes OUT = the problem plus its solution (r, U) with frictionlab.write.

Method: for each contact in turn, the projected fixed point of the
natural map on its own block, with the other contacts' impulses frozen:

    r_a <- P_K(r_a - rho_a (U_a + mu_a |U_aT| e_N)),  rho_a = 1 / lambda_max(W_aa),

repeated (at most 50 times) until the block stops moving, then the next
contact; sweeps until the natural-map error (frictionlab.error, FCLIB's
normalisation by ||q||) is below --tol (default 1e-8).  Exit 0 if
converged, 1 if the sweep limit (default 10000) was hit (the last iterate
is written), 2 on a usage or file error.

Needs the frictionlab module (Debian python3-numpy, python3-scipy).  Dense
W and a Python loop per contact: fine for a few hundred contacts; this is an
example, not a fast solver.
"""
import sys

import numpy as np

try:
    import frictionlab
except ImportError as e:
    print(f"{sys.argv[0]}: the frictionlab module cannot be imported ({e}): build it "
          "(ninja -C build) and set PYTHONPATH=build/python, or meson install it "
          "(doc/python.md); run Debian's /usr/bin/python3", file=sys.stderr)
    sys.exit(2)


def project_cone(x, mu):
    """Euclidean projection of x = [N, T...] on {|x_T| <= mu x_N}."""
    xn, xt = x[0], x[1:]
    t = np.linalg.norm(xt)
    if t <= mu * xn:
        return x.copy()
    if mu * t <= -xn:
        return np.zeros_like(x)
    s = (xn + mu * t) / (1 + mu * mu)
    out = np.empty_like(x)
    out[0] = s
    out[1:] = mu * s * xt / t
    return out


def pgs(problem, tol=1e-8, max_sweeps=10000):
    """Projected Gauss-Seidel on a frictionlab.LocalProblem: (r, U)."""
    d, nc = problem.dim, problem.nc
    W = problem.W.toarray()     # dense: numpy's small products are fast
    q, mu = problem.q, problem.mu
    rho = []
    for a in range(nc):
        Waa = W[d * a:d * a + d, d * a:d * a + d]
        rho.append(1.0 / max(np.linalg.eigvalsh(0.5 * (Waa + Waa.T)).max(), 1e-300))
    r = np.zeros(problem.m)
    err = frictionlab.error(problem, r)
    sweeps = 0
    while err > tol and sweeps < max_sweeps:
        for a in range(nc):
            sl = slice(d * a, d * a + d)
            for _ in range(50):
                Ua = W[sl, :] @ r + q[sl]
                Ua[0] += mu[a] * np.linalg.norm(Ua[1:])
                new = project_cone(r[sl] - rho[a] * Ua, mu[a])
                moved = np.linalg.norm(new - r[sl])
                r[sl] = new
                if moved <= 1e-15 * (1 + np.linalg.norm(new)):
                    break
        sweeps += 1
        err = frictionlab.error(problem, r)
    pgs.last = (err, sweeps)
    return r, W @ r + q


def in_process(argv):
    families, out = "random", None
    it = iter(argv)
    for a in it:
        if a == "--family":
            families = next(it)
        elif a == "--out":
            out = next(it)
    fams = tuple(frictionlab.FAMILIES) if families == "all" else tuple(families.split(","))
    rep = frictionlab.crosscheck(pgs, families=fams, out=out, verbose=True)
    print(f"{rep.passed} passed, {rep.failed} failed")
    return 0 if rep.ok else 1


def main(argv):
    if "--in-process" in argv:
        return in_process([a for a in argv[1:] if a != "--in-process"])
    args, tol, max_sweeps = [], 1e-8, 10000
    it = iter(argv[1:])
    try:
        for a in it:
            if a == "--tol":
                tol = float(next(it))
            elif a == "--max-sweeps":
                max_sweeps = int(next(it))
            else:
                args.append(a)
    except (StopIteration, ValueError):
        args = []
    if len(args) != 2:
        print("usage: pgs_solver.py IN.hdf5 OUT.hdf5 [--tol T] [--max-sweeps N]\n"
              "       pgs_solver.py --in-process [--family F,G|all] [--out DIR]", file=sys.stderr)
        return 2
    src, dst = args
    try:
        problem = frictionlab.read(src)
    except frictionlab.Error as e:
        print(f"pgs_solver.py: {e}", file=sys.stderr)
        return 2
    if not isinstance(problem, frictionlab.LocalProblem):
        print(f"pgs_solver.py: {src}: a global problem; this example solves local ones",
              file=sys.stderr)
        return 2
    r, U = pgs(problem, tol, max_sweeps)
    err, sweeps = pgs.last
    print(f"pgs: {problem.nc} contacts, dim {problem.dim}: error {err:.3e} after {sweeps} sweeps")
    try:
        frictionlab.write(problem, dst, solution=(r, U))
    except frictionlab.Error as e:
        print(f"pgs_solver.py: {e}", file=sys.stderr)
        return 2
    return 0 if err <= tol else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
