# cython: language_level=3, boundscheck=False, wraparound=False, binding=True
"""_core -- the compiled part of the frictionlab Python module: numpy and
SciPy objects handed to libfrictionlab as views (no copy where the layout
allows), the solvers called without the GIL, library errors raised as
frictionlab.Error.  The public API is re-exported by frictionlab/__init__.py
(doc/python.md)."""
import os
import tempfile
import time

import numpy as np
import scipy.sparse as sp

from libc.stdint cimport uintptr_t
from libc.stdio cimport fflush, stdout, stderr
from libc.string cimport memset, memcpy

from frictionlab._fl cimport *

# fl_status codes (core/fl_status.h) by the name Error.status carries.
STATUS_NAMES = {
    0: "OK", -1: "EINVAL", -2: "ENOMEM", -3: "ENOTSPD", -4: "EIO", -5: "EPARSE",
    -6: "EDIM", -7: "ENONFINITE", -8: "ESINGULAR", -9: "ERAY", -10: "ENOTFOUND",
    -11: "EUNSUPPORTED", -12: "ENOCONV", -13: "EEXTERNAL",
    1: "WMAXITER", 2: "WNOTUNIQUE", 3: "WDEGENERATE",
}


class Error(Exception):
    """An error reported by libfrictionlab, or a problem the module refuses
    before calling it.

    Attributes:
        status: the fl_status name without its FL_ prefix ("EINVAL", "EIO",
            "EDIM", "ENONFINITE", ...; core/fl_status.h).
        message: the library's message (it names the file and field for a
            file error, the entry for a bad value).
        file: the input file the error is in, or "".
        line: the line in that file (Siconos text), or 0.
    """

    def __init__(self, status, message, file="", line=0):
        super().__init__(f"{status}: {message}")
        self.status = status
        self.message = message
        self.file = file
        self.line = line


cdef _raise(fl_status s, fl_error *err, str what=""):
    name = STATUS_NAMES.get(int(s), str(int(s)))
    msg = err.message.decode("utf-8", "replace") if err.message[0] != 0 \
        else fl_strerror(s).decode()
    f = err.file.decode("utf-8", "replace")
    if f and f not in msg:
        msg = f"{f}:{err.line}: {msg}" if err.line else f"{f}: {msg}"
    raise Error(name, (what + ": " if what else "") + msg, f, err.line)


cdef inline double *_dptr(const double[::1] a):
    return <double *>&a[0] if a.shape[0] > 0 else NULL


cdef inline int *_iptr(const int[::1] a):
    return <int *>&a[0] if a.shape[0] > 0 else NULL


cdef inline void _vec(gsl_vector *v, const double[::1] a):
    """A gsl_vector view of a contiguous float64 array (no copy)."""
    v.size = a.shape[0]
    v.stride = 1
    v.data = _dptr(a)
    v.block = NULL
    v.owner = 0


cdef inline void _mat(gsl_matrix *m, const double[:, ::1] a):
    """A gsl_matrix view of a C-contiguous float64 array (no copy)."""
    m.size1 = a.shape[0]
    m.size2 = a.shape[1]
    m.tda = a.shape[1]
    m.data = <double *>&a[0, 0] if a.shape[0] > 0 and a.shape[1] > 0 else NULL
    m.block = NULL
    m.owner = 0


cdef int _empty_int = 0
cdef double _empty_double = 0


cdef void _csc(cholmod_sparse *A, object M, int stype):
    """A cholmod_sparse header over the arrays of a scipy CSC matrix with
    float64 data and int32 indices (no copy)."""
    cdef const double[::1] x = M.data
    cdef const int[::1] i = M.indices
    cdef const int[::1] p = M.indptr
    memset(A, 0, sizeof(cholmod_sparse))
    A.nrow = M.shape[0]
    A.ncol = M.shape[1]
    A.nzmax = max(x.shape[0], 1)
    # CHOLMOD refuses NULL arrays even for a matrix without entries
    A.p = _iptr(p)
    A.i = _iptr(i) if i.shape[0] > 0 else <void *>&_empty_int
    A.x = _dptr(x) if x.shape[0] > 0 else <void *>&_empty_double
    A.stype = stype
    A.itype = CHOLMOD_INT
    A.xtype = CHOLMOD_REAL
    A.dtype = CHOLMOD_DOUBLE
    A.sorted = 1
    A.packed = 1


def _as_csc(W, str name):
    """W as a scipy CSC matrix with float64 data, int32 indices, sorted
    indices: the object itself when it is one already (no copy)."""
    if sp.issparse(W):
        A = W if W.format == "csc" else W.tocsc()
    else:
        a = np.asarray(W, dtype=np.float64)
        if a.ndim != 2:
            raise Error("EDIM", f"{name} must be a matrix, not an array of {a.ndim} dimension(s)")
        A = sp.csc_matrix(a)
    if A.dtype != np.float64:
        A = A.astype(np.float64)
    if A.indices.dtype != np.int32 or A.indptr.dtype != np.int32:
        A = sp.csc_matrix((A.data, A.indices.astype(np.int32), A.indptr.astype(np.int32)),
                          shape=A.shape)
    if not A.has_sorted_indices:
        A = A.sorted_indices()
    if not (A.data.flags.c_contiguous and A.indices.flags.c_contiguous
            and A.indptr.flags.c_contiguous):
        A = A.copy()
    return A


def _as_vec(v, str name, n=None):
    a = np.ascontiguousarray(v, dtype=np.float64)
    if a.ndim != 1:
        raise Error("EDIM", f"{name} must be a vector, not an array of {a.ndim} dimension(s)")
    if n is not None and a.shape[0] != n:
        raise Error("EDIM", f"{name} has length {a.shape[0]}, expected {n}")
    return a


def _as_dim(dim):
    if dim not in (2, 3):
        raise Error("EINVAL", f"dim must be 2 or 3, not {dim!r}")
    return int(dim)


cdef class LocalProblem:
    """A local frictional contact problem (FCLIB "local"): U = W r + q,
    nc contacts of dimension dim (2 or 3), m = dim * nc unknowns, each
    contact's components [N, T] or [N, T1, T2], Coulomb coefficients mu
    (length nc, >= 0).  Sign convention: r_N >= 0 compressive, U_N >= 0
    separating.

    LocalProblem(W, q, mu, dim):
        W   m x m, a scipy.sparse matrix or a dense array (stored as a
            scipy.sparse.csc_matrix; need not be symmetric);
        q   length m; mu  length nc; dim 2 or 3.

    A scipy.sparse.csc_matrix W with float64 values, int32 indices and
    sorted indices, and float64 contiguous q and mu, are kept as given (the
    same objects: no copy) and handed to the library as views.  Shapes are
    checked here and values by the library (finite W, q, mu; mu >= 0):
    frictionlab.Error on a bad input.
    """
    cdef readonly object W
    cdef readonly object q
    cdef readonly object mu
    cdef readonly int dim
    cdef readonly Py_ssize_t nc
    cdef readonly Py_ssize_t m

    def __init__(self, W, q, mu, dim):
        self.dim = _as_dim(dim)
        self.mu = _as_vec(mu, "mu")
        self.nc = self.mu.shape[0]
        self.m = self.dim * self.nc
        self.q = _as_vec(q, "q", self.m)
        A = _as_csc(W, "W")
        if A.shape != (self.m, self.m):
            raise Error("EDIM", f"W is {A.shape[0]} x {A.shape[1]}, expected {self.m} x {self.m} "
                        f"(m = dim * nc = {self.dim} * {self.nc})")
        self.W = A
        cdef fl_local_problem p
        cdef cholmod_sparse Ws
        cdef gsl_vector qv
        cdef fl_error err
        fl_error_clear(&err)
        cdef fl_sparse_ctx ctx
        memset(&ctx, 0, sizeof(ctx))
        self._view(&p, &Ws, &qv)
        cdef fl_status s = fl_sparse_start(&ctx, &err)
        if s == FL_OK:
            p.ctx = &ctx
            s = fl_local_problem_check(&p, &err)
        fl_sparse_finish(&ctx)
        if s < 0:
            _raise(s, &err, "LocalProblem")

    cdef void _view(self, fl_local_problem *p, cholmod_sparse *Ws, gsl_vector *qv):
        memset(p, 0, sizeof(fl_local_problem))
        p.nc = self.nc
        p.dim = self.dim
        p.m = self.m
        _csc(Ws, self.W, 0)
        p.Ws = Ws
        _vec(qv, self.q)
        p.q = qv
        p.mu = _dptr(self.mu)

    def _pointers(self):
        """The addresses the library is handed (W.data, W.indices,
        W.indptr, q, mu): for the tests that the arrays are not copied."""
        cdef fl_local_problem p
        cdef cholmod_sparse Ws
        cdef gsl_vector qv
        self._view(&p, &Ws, &qv)
        return {"W.data": <uintptr_t>Ws.x, "W.indices": <uintptr_t>Ws.i,
                "W.indptr": <uintptr_t>Ws.p, "q": <uintptr_t>qv.data, "mu": <uintptr_t>p.mu}

    def __repr__(self):
        return f"LocalProblem(nc={self.nc}, dim={self.dim}, nnz(W)={self.W.nnz})"


cdef class GlobalProblem:
    """A global frictional contact problem (FCLIB "global"):
    M v = f + H^T r,  U = H v + w  (library convention: H is m x n; FCLIB
    files store its transpose, which read/write convert).

    GlobalProblem(M, H, f, w, mu, dim):
        M  n x n symmetric positive definite (scipy.sparse or dense; the
           library reads its upper triangle, a copy);
        H  m x n (scipy.sparse.csc_matrix kept as given, no copy);
        f  length n; w length m; mu length nc; dim 2 or 3.
    """
    cdef readonly object M
    cdef readonly object H
    cdef readonly object f
    cdef readonly object w
    cdef readonly object mu
    cdef readonly int dim
    cdef readonly Py_ssize_t n
    cdef readonly Py_ssize_t nc
    cdef readonly Py_ssize_t m
    cdef object _Mu

    def __init__(self, M, H, f, w, mu, dim):
        self.dim = _as_dim(dim)
        self.mu = _as_vec(mu, "mu")
        self.nc = self.mu.shape[0]
        self.m = self.dim * self.nc
        self.M = _as_csc(M, "M")
        self.n = self.M.shape[0]
        if self.M.shape != (self.n, self.n) or self.n == 0:
            raise Error("EDIM", f"M is {self.M.shape[0]} x {self.M.shape[1]}, expected square "
                        "and not empty")
        self.H = _as_csc(H, "H")
        if self.H.shape != (self.m, self.n):
            raise Error("EDIM", f"H is {self.H.shape[0]} x {self.H.shape[1]}, expected "
                        f"{self.m} x {self.n} (m = dim * nc, n = order of M)")
        self.f = _as_vec(f, "f", self.n)
        self.w = _as_vec(w, "w", self.m)
        self._Mu = _as_csc(sp.triu(self.M, format="csc"), "M")
        cdef fl_global_problem g
        cdef cholmod_sparse Ms, Hs
        cdef gsl_vector fv, wv
        cdef fl_error err
        fl_error_clear(&err)
        cdef fl_sparse_ctx ctx
        memset(&ctx, 0, sizeof(ctx))
        self._view(&g, &Ms, &Hs, &fv, &wv)
        cdef fl_status s = fl_sparse_start(&ctx, &err)
        if s == FL_OK:
            g.ctx = &ctx
            s = fl_global_problem_check(&g, &err)
        fl_sparse_finish(&ctx)
        if s < 0:
            _raise(s, &err, "GlobalProblem")

    cdef void _view(self, fl_global_problem *g, cholmod_sparse *Ms, cholmod_sparse *Hs,
                    gsl_vector *fv, gsl_vector *wv):
        memset(g, 0, sizeof(fl_global_problem))
        g.n = self.n
        g.nc = self.nc
        g.dim = self.dim
        g.m = self.m
        _csc(Ms, self._Mu, 1)
        _csc(Hs, self.H, 0)
        g.Ms = Ms
        g.Hs = Hs
        _vec(fv, self.f)
        _vec(wv, self.w)
        g.f = fv
        g.w = wv
        g.mu = _dptr(self.mu)

    def __repr__(self):
        return f"GlobalProblem(n={self.n}, nc={self.nc}, dim={self.dim})"


class Result:
    """What solve() returns.

    Attributes:
        r: the impulse (numpy array, length m).
        u: the velocity U = W r + q (local) or H v + w (global), length m.
        v: the global velocity (global problems), else None.
        error: the natural-map error of (r, u) divided by ||q|| (FCLIB's
            normalisation, core/fl_residual.h), recomputed from r.
        error_siconos: the same divided by max(||r||, ||u||, ||q||).
        status: "converged", "iteration limit" or "stalled".
        converged: status == "converged".
        iterations: Gauss-Seidel sweeps plus Newton steps.
        gs_sweeps, newton_steps: the two counts.
        seconds: time of the library's solve.
        solver: the solver that finished ("gs" or "newton").
    """

    def __init__(self, **kw):
        self.__dict__.update(kw)

    def __repr__(self):
        return (f"Result(status={self.status!r}, solver={self.solver!r}, error={self.error:.3e}, "
                f"iterations={self.iterations}, seconds={self.seconds:.3g})")


cdef _cpath(path):
    return os.fsencode(os.fspath(path))


cdef object _csc_copy(cholmod_sparse *A):
    """A scipy CSC matrix holding a copy of a packed CHOLMOD matrix, its
    symmetric storage (stype != 0) expanded to both triangles."""
    cdef size_t ncol = A.ncol
    cdef int *p = <int *>A.p
    cdef int nnz = p[ncol]
    indptr = np.empty(ncol + 1, dtype=np.int32)
    indices = np.empty(nnz, dtype=np.int32)
    data = np.empty(nnz, dtype=np.float64)
    cdef int[::1] ip = indptr
    cdef int[::1] ii = indices
    cdef double[::1] xx = data
    memcpy(&ip[0], A.p, (ncol + 1) * sizeof(int))
    if nnz:
        memcpy(&ii[0], A.i, nnz * sizeof(int))
        memcpy(&xx[0], A.x, nnz * sizeof(double))
    M = sp.csc_matrix((data, indices, indptr), shape=(A.nrow, A.ncol))
    if A.stype != 0:
        T = sp.triu(M) if A.stype > 0 else sp.tril(M)
        M = (T + T.T - sp.diags(T.diagonal())).tocsc()
        M.sort_indices()
    return M


cdef object _dense_csc(gsl_matrix *A):
    a = np.empty((A.size1, A.size2))
    for i in range(A.size1):
        for j in range(A.size2):
            a[i, j] = A.data[i * A.tda + j]
    return sp.csc_matrix(a)


cdef object _array(const double *x, size_t n):
    a = np.empty(n, dtype=np.float64)
    cdef double[::1] v = a
    if n:
        memcpy(&v[0], x, n * sizeof(double))
    return a


cdef LocalProblem _local_from_c(fl_local_problem *p):
    W = _csc_copy(p.Ws) if p.Ws != NULL else _dense_csc(p.W)
    return LocalProblem(W, _array(p.q.data, p.m), _array(p.mu, p.nc), p.dim)


cdef GlobalProblem _global_from_c(fl_global_problem *g):
    M = _csc_copy(g.Ms)
    H = _csc_copy(g.Hs)
    return GlobalProblem(M, H, _array(g.f.data, g.n), _array(g.w.data, g.m),
                         _array(g.mu, g.nc), g.dim)


def read(path):
    """    Read a problem file: FCLIB (HDF5, recognised by its signature) or
    Siconos numerics text (.dat), local or global.  The library's readers
    check every field (sizes, finite values, mu >= 0) and an HDF5 file is
    first read in a child process (io/fl_fclib.h: HDF5 defects crash on some
    corrupt files).  frictionlab.Error naming the file and field otherwise.
    """
    cdef bytes b = _cpath(path)
    cdef const char *cp = b
    cdef fl_error err
    cdef fl_sparse_ctx ctx
    cdef fl_local_problem *p = NULL
    cdef fl_global_problem *g = NULL
    cdef fl_read_options ro = fl_read_options_default()
    cdef int kind = 0
    cdef fl_status s
    fl_error_clear(&err)
    memset(&ctx, 0, sizeof(ctx))
    if not os.path.exists(path):
        raise Error("EIO", f"{os.fspath(path)}: no such file", os.fspath(path))
    with nogil:
        s = fl_sparse_start(&ctx, &err)
        if s == FL_OK:
            if fl_fclib_is_hdf5(cp):
                s = fl_fclib_vet(cp, &ro, FL_FCLIB_VET_PROBLEM, &err)
                if s == FL_OK:
                    s = fl_fclib_kind(cp, &kind, &err)
                if s == FL_OK and kind == 1:
                    s = fl_fclib_read_local_opt(cp, 0, &ctx, &ro, &p, &err)
                elif s == FL_OK:
                    s = fl_fclib_read_global_opt(cp, 0, &ctx, &ro, &g, &err)
            else:
                s = fl_siconos_text_kind(cp, &kind, &err)
                if s == FL_OK and kind == 1:
                    s = fl_siconos_text_read_local(cp, 0, &ctx, &ro, &p, &err)
                elif s == FL_OK:
                    s = fl_siconos_text_read_global(cp, 0, &ctx, &ro, &g, &err)
    try:
        if s < 0:
            _raise(s, &err)
        return _local_from_c(p) if p != NULL else _global_from_c(g)
    finally:
        fl_local_problem_free(p)
        fl_global_problem_free(g)
        fl_sparse_finish(&ctx)


def write(problem, path, solution=None):
    """    Write a LocalProblem or GlobalProblem: FCLIB HDF5 when path ends in
    .hdf5 or .h5, Siconos numerics text otherwise (.dat).  solution: a
    Result of solve(), or a tuple (r, u) (local) or (r, u, v) (global),
    stored as FCLIB's /solution; FCLIB files only (Error EINVAL for text).
    """
    cdef bytes b = _cpath(path)
    cdef const char *cp = b
    cdef fl_error err
    cdef fl_local_problem p
    cdef fl_global_problem g
    cdef cholmod_sparse A, B
    cdef gsl_vector v1, v2
    cdef fl_status s
    cdef fl_fclib_solution *sol = NULL
    cdef int hdf5 = str(os.fspath(path)).lower().endswith((".hdf5", ".h5"))
    cdef int local = isinstance(problem, LocalProblem)
    fl_error_clear(&err)
    if not local and not isinstance(problem, GlobalProblem):
        raise TypeError(f"write: a LocalProblem or GlobalProblem, not {type(problem).__name__}")
    if solution is not None and not hdf5:
        raise Error("EINVAL", f"{os.fspath(path)}: a solution is stored in FCLIB files "
                    "(.hdf5) only", os.fspath(path))
    cdef fl_sparse_ctx ctx
    memset(&ctx, 0, sizeof(ctx))
    if local:
        (<LocalProblem>problem)._view(&p, &A, &v1)
        p.ctx = &ctx
    else:
        (<GlobalProblem>problem)._view(&g, &A, &B, &v1, &v2)
        g.ctx = &ctx
    with nogil:
        s = fl_sparse_start(&ctx, &err)
        if s < 0:
            pass
        elif hdf5 and local:
            s = fl_fclib_write_local(cp, &p, "frictionlab (Python)", &err)
        elif hdf5:
            s = fl_fclib_write_global(cp, &g, "frictionlab (Python)", &err)
        elif local:
            s = fl_siconos_text_write(cp, &p, &err)
        else:
            s = fl_siconos_text_write_global(cp, &g, &err)
        fl_sparse_finish(&ctx)
    if s < 0:
        _raise(s, &err, "write")
    if solution is None:
        return
    if isinstance(solution, Result):
        parts = (solution.r, solution.u, solution.v)
    else:
        parts = tuple(solution) + (None,) * (3 - len(solution))
    m = problem.m
    n = 0 if local else problem.n
    r = _as_vec(parts[0], "solution r", m)
    u = _as_vec(parts[1], "solution u", m)
    vv = None if local else _as_vec(parts[2], "solution v", n)
    s = fl_fclib_solution_alloc(n, m, &sol, &err)
    if s == FL_OK:
        if m:
            memcpy(sol.r, _dptr(r), m * sizeof(double))
            memcpy(sol.u, _dptr(u), m * sizeof(double))
        if n:
            memcpy(sol.v, _dptr(vv), n * sizeof(double))
        s = fl_fclib_write_solution(cp, sol, &err)
    fl_fclib_solution_free(sol)
    if s < 0:
        _raise(s, &err, "write")


cdef fl_solve_options _options(str solver, double tol, max_iter, str impl, time_limit) except *:
    cdef fl_solve_options o = fl_solve_options_default()
    cdef fl_error err
    cdef bytes bs = solver.encode()
    fl_error_clear(&err)
    cdef fl_status s = fl_solve_parse_solver(bs, &o.solver, &err)
    if s < 0:
        _raise(s, &err, "solve")
    if impl not in ("optimized", "reference"):
        raise Error("EINVAL", f"solve: impl must be 'optimized' or 'reference', not {impl!r}")
    o.impl = FL_IMPL_OPTIMIZED if impl == "optimized" else FL_IMPL_REFERENCE
    if not (tol > 0):
        raise Error("EINVAL", f"solve: tol must be positive, not {tol!r}")
    o.tol = tol
    if max_iter is not None:
        if int(max_iter) < 1:
            raise Error("EINVAL", f"solve: max_iter must be at least 1, not {max_iter!r}")
        o.max_sweeps = int(max_iter)
        o.max_newton = int(max_iter)
    if time_limit is not None:
        if not (float(time_limit) > 0 and float(time_limit) < float("inf")):
            raise Error("EINVAL", f"solve: time_limit must be a positive number of seconds, not {time_limit!r}")
        o.time_limit = float(time_limit)
    return o


cdef class _Ctx:
    """A started CHOLMOD context (fl_sparse_ctx) with its solve workspaces."""
    cdef fl_sparse_ctx ctx
    cdef fl_status status
    cdef fl_error err

    def __cinit__(self):
        memset(&self.ctx, 0, sizeof(self.ctx))
        fl_error_clear(&self.err)
        self.status = fl_sparse_start(&self.ctx, &self.err)

    def __dealloc__(self):
        fl_sparse_finish(&self.ctx)


# Contexts not in use: solve() takes one and gives it back, so that repeated
# solves reuse CHOLMOD's workspaces as a C caller does, and concurrent solves
# (other threads, GIL released) never share one.  Taken and given back with
# the GIL held (list.pop and append are atomic).
_ctx_pool = []


cdef _Ctx _ctx_take():
    try:
        return _ctx_pool.pop()
    except IndexError:
        return _Ctx()


cdef _ctx_give(_Ctx c):
    if c.status == FL_OK and len(_ctx_pool) < 8:
        _ctx_pool.append(c)


def solve(problem, solver="auto", tol=1e-8, max_iter=None, impl="optimized", time_limit=None):
    """    Solve a LocalProblem or GlobalProblem with the library's dispatcher
    (drivers/solve.h): solver "gs" (nonlinear Gauss-Seidel),
    "newton" (semismooth Newton on the Alart-Curnier function), "ppa"
    (proximal point with a Newton inner solver) or "auto" (Gauss-Seidel,
    then Newton when it converges slowly, then ppa when both stall); impl "optimized"
    (sparse twins) or "reference" (dense twins, W copied to a dense array).
    tol: the natural-map error /||q|| to reach.  max_iter: caps Gauss-Seidel
    sweeps and Newton steps alike (defaults 10000 and 500).  time_limit:
    seconds of wall time for the whole solve (None: no limit); when it runs
    out, Result.status is "time limit" and r, u are the best iterate found.

    The optimized path reads W, q, mu in place (no copy) and writes r and u
    into the returned arrays; the GIL is released during the solve.  An
    unreached tolerance is not an error: Result.status says so.  A library
    error raises frictionlab.Error.
    """
    cdef fl_solve_options o = _options(solver, tol, max_iter, impl, time_limit)
    cdef fl_solve_result res
    cdef fl_error err
    cdef _Ctx pc = _ctx_take()
    cdef fl_local_problem p
    cdef fl_global_problem g
    cdef cholmod_sparse A, B
    cdef gsl_vector v1, v2, rv, uv, vv
    cdef gsl_matrix Wd, Md, Hd
    cdef fl_status s = FL_OK
    cdef int local = isinstance(problem, LocalProblem)
    if not local and not isinstance(problem, GlobalProblem):
        raise TypeError(f"solve: a LocalProblem or GlobalProblem, not {type(problem).__name__}")
    cdef Py_ssize_t m = problem.m
    fl_error_clear(&err)
    memset(&res, 0, sizeof(res))
    r = np.zeros(m)
    u = np.zeros(m)
    v = None if local else np.zeros(problem.n)
    _vec(&rv, r)
    _vec(&uv, u)
    if local:
        (<LocalProblem>problem)._view(&p, &A, &v1)
        p.ctx = &pc.ctx
        if o.impl != FL_IMPL_OPTIMIZED:
            Wdense = np.ascontiguousarray(problem.W.toarray())
            _mat(&Wd, Wdense)
            p.W = &Wd
            p.Ws = NULL
    else:
        (<GlobalProblem>problem)._view(&g, &A, &B, &v1, &v2)
        g.ctx = &pc.ctx
        _vec(&vv, v)
        if o.impl != FL_IMPL_OPTIMIZED:
            Mdense = np.ascontiguousarray(problem.M.toarray())
            Hdense = np.ascontiguousarray(problem.H.toarray())
            _mat(&Md, Mdense)
            _mat(&Hd, Hdense)
            g.M = &Md
            g.H = &Hd
            g.Ms = NULL
            g.Hs = NULL
    if pc.status != FL_OK:
        _raise(pc.status, &pc.err, "solve")
    with nogil:
        if m > 0:
            if local:
                s = fl_solve_local(&p, &o, &rv, &uv, &res, &err)
            else:
                s = fl_solve_global(&g, &o, &vv, &rv, &uv, &res, &err)
    _ctx_give(pc)
    if s < 0:
        _raise(s, &err, "solve")
    if m == 0:
        if not local:
            import scipy.sparse.linalg as spl
            v = spl.spsolve(problem.M.tocsc(), problem.f)
        status, solver_name = "converged", "none"
    else:
        status = {FL_SOLVE_STOP_TOL: "converged", FL_SOLVE_STOP_MAXITER: "iteration limit",
                  FL_SOLVE_STOP_STALLED: "stalled",
                  FL_SOLVE_STOP_TIMEOUT: "time limit"}.get(res.stop, "error")
        if res.status == FL_OK:
            status = "converged"
        solver_name = fl_solve_solver_name(res.finished_by).decode()
    return Result(r=r, u=u, v=v, error=res.residual_norm_q, error_siconos=res.residual_max_norm,
                  status=status, converged=status == "converged",
                  iterations=res.gs_sweeps + res.newton_steps, gs_sweeps=res.gs_sweeps,
                  newton_steps=res.newton_steps, seconds=res.seconds, solver=solver_name)


_NORMS = {"q": FL_RESIDUAL_NORM_Q, "fclib": FL_RESIDUAL_NORM_Q,
          "siconos": FL_RESIDUAL_MAX_NORM, "1+q": FL_RESIDUAL_ONE_PLUS_NORM_Q,
          "absolute": FL_RESIDUAL_ABSOLUTE}


def error(problem, r, u=None, normalisation="q"):
    """    The natural-map error of Coulomb's law (core/fl_residual.h):
    e = sqrt(sum_a |r_a - P_K(r_a - U_a - mu_a |U_aT| e_N)|^2), divided by
      "q" or "fclib"  ||q||  (FCLIB's definition; what crosscheck checks),
      "siconos"       max(||r||, ||U||, ||q||)  (Siconos numerics 4.4),
      "1+q"           1 + ||q||  (older Siconos),
      "absolute"      1.
    Local problem: with u=None, U = W r + q is computed (as crosscheck does:
    the solver's own u is not trusted); a given u is used as it is.
    Global problem: u is required and q = H M^-1 f + w (M factored by
    SciPy's sparse LU).
    """
    if normalisation not in _NORMS:
        raise Error("EINVAL", f"error: normalisation must be one of {sorted(_NORMS)}, "
                    f"not {normalisation!r}")
    cdef fl_residual_norm kind = _NORMS[normalisation]
    cdef fl_error err
    cdef fl_local_problem p
    cdef cholmod_sparse A
    cdef gsl_vector qv, rv, uv
    cdef fl_sparse_ctx ctx
    cdef double out = 0
    cdef fl_status s = FL_OK
    fl_error_clear(&err)
    if isinstance(problem, LocalProblem):
        rr = _as_vec(r, "r", problem.m)
        if u is None:
            (<LocalProblem>problem)._view(&p, &A, &qv)
            _vec(&rv, rr)
            memset(&ctx, 0, sizeof(ctx))
            p.ctx = &ctx
            with nogil:
                s = fl_sparse_start(&ctx, &err)
                if s == FL_OK:
                    s = fl_residual_local(&p, &rv, NULL, kind, &out, &err)
                fl_sparse_finish(&ctx)
            if s < 0:
                _raise(s, &err, "error")
            return out
        q = problem.q
    elif isinstance(problem, GlobalProblem):
        if u is None:
            raise Error("EINVAL", "error: a global problem needs u (U = H v + w)")
        rr = _as_vec(r, "r", problem.m)
        import scipy.sparse.linalg as spl
        q = problem.H @ spl.spsolve(problem.M.tocsc(), problem.f) + problem.w
    else:
        raise TypeError(f"error: a LocalProblem or GlobalProblem, not {type(problem).__name__}")
    uu = _as_vec(u, "u", problem.m)
    if not (np.all(np.isfinite(rr)) and np.all(np.isfinite(uu))):
        raise Error("ENONFINITE", "error: r or u has a NaN or an infinite entry")
    mu = problem.mu
    return fl_residual_natural_map(problem.dim, problem.nc, _dptr(mu), _dptr(rr), _dptr(uu),
                                   float(np.linalg.norm(q)), kind)


# ---------------------------------------------------------------------------
# crosscheck in-process


cdef class _Caller:
    cdef object fn
    cdef object interrupt
    cdef public int calls


cdef int _call_solver(const fl_local_problem *p, double *r, double *u, void *user, char *msg,
                      size_t msglen) with gil:
    cdef _Caller c = <_Caller>user
    cdef bytes b
    cdef const double[::1] rv
    cdef const double[::1] uv
    c.calls += 1
    if c.interrupt is not None:
        b = b"not run: the crosscheck was interrupted"
        memcpy(msg, <char *>b, min(len(b) + 1, msglen))
        return 1
    try:
        prob = _local_from_c(<fl_local_problem *>p)
        out = c.fn(prob)
        uu = None
        if isinstance(out, (tuple, list)):
            rr = out[0]
            if len(out) > 1:
                uu = out[1]
        elif hasattr(out, "r"):
            rr = out.r
            uu = getattr(out, "u", None)
        else:
            rr = out
        rr = np.ascontiguousarray(rr, dtype=np.float64)
        if rr.shape != (p.m,):
            raise ValueError(f"r has shape {rr.shape}, expected ({p.m},)")
        if uu is not None:   # the solver's u: checked against W r + q
            uu = np.ascontiguousarray(uu, dtype=np.float64)
            if uu.shape != (p.m,):
                raise ValueError(f"u has shape {uu.shape}, expected ({p.m},)")
        rv = rr
        if p.m:
            memcpy(r, &rv[0], p.m * sizeof(double))
        if uu is not None and p.m:
            uv = uu
            memcpy(u, &uv[0], p.m * sizeof(double))
        return 0
    except BaseException as e:
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            c.interrupt = e
        b = f"{type(e).__name__}: {e}".encode("utf-8", "replace")[:msglen - 1] + b"\0"
        memcpy(msg, <char *>b, len(b))
        return 1


def _crosscheck(fn, families, full, timeout, seed, out, corpus_dir, systems, verbose, label):
    cdef fl_cli_ctx ctx
    cdef _Caller c = _Caller()
    c.fn = fn
    c.interrupt = None
    memset(&ctx, 0, sizeof(ctx))
    fam = families.encode()
    law = b"nsgs"
    outb = os.fsencode(out)
    corp = os.fsencode(corpus_dir)
    lab = label.encode("utf-8", "replace")
    ctx.out_dir = outb
    ctx.law = law
    ctx.family = fam
    ctx.timeout = timeout
    ctx.full = 1 if full else 0
    ctx.seed = seed
    ctx.corpus_dir = corp
    if systems is not None:
        ctx.systems = systems
        ctx.systems_set = 1
    ctx.progress = 0
    cdef int rc
    cdef const char *labc = lab
    saved = None
    fflush(stdout)
    fflush(stderr)
    if not verbose:
        saved = (os.dup(1), os.dup(2))
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, 1)
        os.dup2(null, 2)
        os.close(null)
    try:
        with nogil:
            rc = fl_cli_xval_crosscheck_fn(&ctx, _call_solver, <void *>c, labc)
            fflush(stdout)
            fflush(stderr)
    finally:
        if saved is not None:
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])
    if c.interrupt is not None:
        raise c.interrupt
    return rc, ctx.passed, ctx.failed
