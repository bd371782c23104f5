"""frictionlab -- frictional contact problems from numpy and SciPy.

The Python face of libfrictionlab (doc/python.md):

    read(path)                     -> LocalProblem | GlobalProblem
    LocalProblem(W, q, mu, dim)    U = W r + q, Coulomb friction mu per contact
    GlobalProblem(M, H, f, w, mu, dim)
    write(problem, path, solution=None)
    solve(problem, solver="auto", tol=1e-8, max_iter=None, impl="optimized") -> Result
    error(problem, r, u=None, normalisation="q") -> float
    crosscheck(fn, families=("random",), ...) -> CrosscheckReport
    load_results(path)             results.json / suite.json as dicts and lists
    Error                          a library error: .status, .message, .file, .line

Matrices are scipy.sparse.csc_matrix, vectors numpy float64 arrays.
"""
import csv as _csv
import json as _json
import os as _os
import shutil as _shutil
import tempfile as _tempfile

from frictionlab._core import (Error, GlobalProblem, LocalProblem, Result, error, read,
                               solve, write)
from frictionlab._core import _crosscheck

__all__ = ["Error", "LocalProblem", "GlobalProblem", "Result", "read", "write", "solve",
           "error", "crosscheck", "CrosscheckReport", "load_results", "FAMILIES"]

#: The problem families of crosscheck (checks/xval.h).
FAMILIES = ("random", "corpus", "feblock", "discs", "edge")

# The source tree this module was built from, for the corpus family
# (tests/data/siconos); FL_SOURCE_ROOT overrides it as for the command.
try:
    from frictionlab._config import SOURCE_ROOT as _SOURCE_ROOT
except ImportError:  # pragma: no cover - the build always writes it
    _SOURCE_ROOT = "."

_CSV_INT = ("dim", "nc", "exit", "timed_out", "unique", "ours_solved")
_CSV_FLOAT = ("seconds", "error", "cone", "complementarity", "coulomb", "dist", "cert_error",
              "ours_seconds", "ours_process_seconds")


class CrosscheckReport:
    """What crosscheck() returns.

    Attributes:
        passed, failed: the numbers of PASS and FAIL lines (a family that
            could not be built counts as one failure, without a row).
        ok: failed == 0.
        rows: one dict per problem, the columns of xval.csv: problem, family,
            dim, nc, status ("pass", "fail", "unavailable"), exit (0, or
            what the solver's call returned: 1 when it raised), timed_out,
            seconds (wall time of fn), error, cone, complementarity,
            coulomb, dist (to a unique certified answer, nan if none),
            unique, certificate ("enumeration", "auto", "none"),
            cert_error, ours_seconds, ours_solved, ours_process_seconds
            (nan in-process: ours is timed as a process only against a
            command), reason.
        failures: the rows whose status is not "pass".
        summary: the text of xval_summary.txt (by family).
        out: the directory of the report files, or None.
    """

    def __init__(self, passed, failed, rows, summary, out):
        self.passed = passed
        self.failed = failed
        self.rows = rows
        self.summary = summary
        self.out = out

    @property
    def ok(self):
        return self.failed == 0

    @property
    def failures(self):
        return [r for r in self.rows if r["status"] != "pass"]

    def __repr__(self):
        return f"CrosscheckReport(passed={self.passed}, failed={self.failed}, rows={len(self.rows)})"


def _read_rows(path):
    rows = []
    with open(path, newline="") as f:
        for rec in _csv.DictReader(f):
            for k in _CSV_INT:
                rec[k] = int(rec[k]) if rec.get(k) not in (None, "") else None
            for k in _CSV_FLOAT:
                rec[k] = float(rec[k]) if rec.get(k) not in (None, "") else None
            rows.append(rec)
    return rows


def crosscheck(fn, families=("random",), full=False, timeout=60, seed=1, out=None,
               corpus_dir=None, systems=None, verbose=False):
    """    Cross-validate a Python solver in this process: fn(problem) is called
    on every problem of the families (a LocalProblem; it returns (r, u),
    r alone, or an object with .r such as a Result) and its r is judged by the code
    `frictionlab crosscheck --solver-cmd` uses (checks/xval.c): the same
    problems, certified answers, measures and tolerances (natural-map error,
    cone and complementarity <= 1e-6, Coulomb law <= 1e-3, distance to a
    unique answer <= 1e-4).  A u returned must agree with W r + q to 1e-8
    relative to max(|W r|, |q|) (a stale u fails, naming the contact); the
    law is measured on the recomputed U = W r + q.
    An exception in fn fails that problem (its message is the reason); a
    KeyboardInterrupt stops the run and is raised again.

    families: names from FAMILIES, or "all".  full: the full size ladders.
    timeout: seconds per problem; fn cannot be interrupted in-process, so a
    call over the limit is let finish and fails as timed out.  seed: the
    random families' seed.  out: a directory for the report files the
    command writes (xval.csv, xval_summary.txt, xval_profile.csv,
    xval_profile.png); None: a temporary directory, removed.  corpus_dir:
    the corpus family's files (default: tests/data/siconos of the source
    tree, or of $FL_SOURCE_ROOT).  systems: problems per random, feblock and
    discs family (the command's --systems).  verbose: print the PASS/FAIL
    lines and the summary as the command does (False: everything the
    process writes to its stdout and stderr during the run is discarded).
    """
    if isinstance(families, str):
        families = (families,)
    names = ",".join(families)
    if not names:
        raise Error("EINVAL", "crosscheck: no family given")
    if not callable(fn):
        raise TypeError("crosscheck: fn must be callable: fn(problem) -> (r, u)")
    if not (timeout > 0):
        raise Error("EINVAL", f"crosscheck: timeout must be positive, not {timeout!r}")
    if corpus_dir is None:
        root = _os.environ.get("FL_SOURCE_ROOT", _SOURCE_ROOT)
        corpus_dir = _os.path.join(root, "tests", "data", "siconos")
    label = getattr(fn, "__qualname__", None) or repr(fn)
    tmp = None
    if out is None:
        tmp = _tempfile.mkdtemp(prefix="frictionlab-crosscheck-")
        where = tmp
    else:
        where = _os.fspath(out)
    try:
        rc, passed, failed = _crosscheck(fn, names, full, float(timeout), int(seed), where,
                                         _os.fspath(corpus_dir), systems, verbose, label)
        if rc != 0 and not _os.path.exists(_os.path.join(where, "xval.csv")):
            raise Error("EINVAL", f"crosscheck: could not run (families {names!r}, out {where!r})")
        rows = _read_rows(_os.path.join(where, "xval.csv"))
        summ = _os.path.join(where, "xval_summary.txt")
        summary = open(summ).read() if _os.path.exists(summ) else ""
    finally:
        if tmp is not None:
            _shutil.rmtree(tmp, ignore_errors=True)
    return CrosscheckReport(int(passed), int(failed), rows, summary, None if tmp else where)


def load_results(path):
    """    Read a results.json (frictionlab reproduce) or a suite.json into plain
    Python objects (dicts, lists, str, float, int, None), for a notebook to
    plot.  A directory is looked into for results.json, then suite.json.
    frictionlab.Error (EIO, EPARSE) naming the file otherwise.
    """
    p = _os.fspath(path)
    if _os.path.isdir(p):
        for name in ("results.json", "suite.json"):
            if _os.path.exists(_os.path.join(p, name)):
                p = _os.path.join(p, name)
                break
        else:
            raise Error("EIO", f"{p}: no results.json or suite.json in this directory", p)
    try:
        with open(p, encoding="utf-8") as f:
            data = _json.load(f)
    except OSError as e:
        raise Error("EIO", f"{p}: {e.strerror}", p) from None
    except (ValueError, UnicodeDecodeError) as e:
        line = getattr(e, "lineno", 0)
        raise Error("EPARSE", f"{p}: not JSON: {e}", p, line) from None
    if not isinstance(data, dict):
        raise Error("EPARSE", f"{p}: a results file holds a JSON object, not a "
                    f"{type(data).__name__}", p)
    return data
