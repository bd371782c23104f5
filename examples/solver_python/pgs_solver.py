#!/usr/bin/env python3
"""pgs_solver.py -- a plain projected Gauss-Seidel for FCLIB local problems,
written to be copied: it is the smallest complete solver that
`frictionlab crosscheck --solver-cmd` can check.

    python3 pgs_solver.py IN.hdf5 OUT.hdf5 [--tol T] [--max-sweeps N]

Reads the FCLIB local problem of IN (W, q, mu, spacedim under /fclib_local;
W compressed by column (nz = -1), by row (nz = -2) or as triplets (nz >= 0,
CSparse convention: i rows, p columns)), finds r with

    U = W r + q,  r in K = {|r_T| <= mu r_N},  U + mu|U_T| e_N in K*,
    r . (U + mu|U_T| e_N) = 0                 (Coulomb's law, De Saxce form)

and writes OUT = a copy of IN plus /solution/r and /solution/u.

Method: for each contact in turn, the projected fixed point of the
natural map on its own block, with the other contacts' impulses frozen:

    r_a <- P_K(r_a - rho_a (U_a + mu_a |U_aT| e_N)),  rho_a = 1 / lambda_max(W_aa),

repeated (at most 50 times) until the block stops moving, then the next
contact; sweeps until the natural-map error

    e = sqrt(sum_a |r_a - P_K(r_a - U_a - mu_a |U_aT| e_N)|^2) / ||q||

(FCLIB's merit function, Siconos's fc3d_compute_error before its own
normalisation) is below --tol (default 1e-8).  Exit 0 if converged, 1 if
the sweep limit (default 10000) was hit (the last iterate is written),
2 on a usage or file error.

Needs Debian python3-numpy and python3-h5py.  Dense W: fine for a few
hundred contacts; this is an example, not a fast solver.
"""
import shutil
import sys

import h5py
import numpy as np


def read_matrix(g):
    """The FCLIB matrix of group g as a dense numpy array."""
    m, n, nz = int(g["m"][0]), int(g["n"][0]), int(g["nz"][0])
    p, i, x = g["p"][:], g["i"][:], g["x"][:]
    A = np.zeros((m, n))
    if nz == -1:          # compressed column: p column pointers, i row indices
        for j in range(n):
            for k in range(p[j], p[j + 1]):
                A[i[k], j] += x[k]
    elif nz == -2:        # compressed row: p row pointers, i column indices
        for r in range(m):
            for k in range(p[r], p[r + 1]):
                A[r, i[k]] += x[k]
    else:                 # triplets (CSparse): i rows, p columns
        for k in range(nz):
            A[i[k], p[k]] += x[k]
    return A


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


def natural_map_error(W, q, mu, r, d):
    U = W @ r + q
    e2 = 0.0
    for a in range(len(mu)):
        sl = slice(d * a, d * a + d)
        Ua = U[sl].copy()
        Ua[0] += mu[a] * np.linalg.norm(Ua[1:])
        e2 += np.sum((r[sl] - project_cone(r[sl] - Ua, mu[a])) ** 2)
    nq = np.linalg.norm(q)
    return np.sqrt(e2) / (nq if nq > np.finfo(float).eps else 1.0), U


def solve(W, q, mu, d, tol, max_sweeps):
    nc = len(mu)
    r = np.zeros(len(q))
    rho = []
    for a in range(nc):
        Waa = W[d * a:d * a + d, d * a:d * a + d]
        rho.append(1.0 / max(np.linalg.eigvalsh(0.5 * (Waa + Waa.T)).max(), 1e-300))
    err, U = natural_map_error(W, q, mu, r, d)
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
        err, U = natural_map_error(W, q, mu, r, d)
    return r, U, err, sweeps


def main(argv):
    args, tol, max_sweeps = [], 1e-8, 10000
    it = iter(argv[1:])
    for a in it:
        if a == "--tol":
            tol = float(next(it))
        elif a == "--max-sweeps":
            max_sweeps = int(next(it))
        else:
            args.append(a)
    if len(args) != 2:
        print("usage: pgs_solver.py IN.hdf5 OUT.hdf5 [--tol T] [--max-sweeps N]", file=sys.stderr)
        return 2
    src, dst = args
    try:
        with h5py.File(src, "r") as f:
            g = f["fclib_local"]
            d = int(g["spacedim"][0])
            W = read_matrix(g["W"])
            q = g["vectors/q"][:]
            mu = g["vectors/mu"][:]
    except (OSError, KeyError) as e:
        print(f"pgs_solver.py: {src}: not an FCLIB local problem ({e})", file=sys.stderr)
        return 2
    r, U, err, sweeps = solve(W, q, mu, d, tol, max_sweeps)
    print(f"pgs: {len(mu)} contacts, dim {d}: error {err:.3e} after {sweeps} sweeps")
    shutil.copyfile(src, dst)
    with h5py.File(dst, "a") as f:
        if "solution" in f:
            del f["solution"]
        s = f.create_group("solution")
        s.create_dataset("r", data=r)
        s.create_dataset("u", data=U)
    return 0 if err <= tol else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
