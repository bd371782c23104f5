"""Tests of the frictionlab Python module (python/frictionlab).

Expected values come from the input files themselves (a hand-written
Siconos file), closed forms worked out in the comments (one contact with
W = I), an independent reader (h5py for what write() stores) or SciPy (the
equations of a global problem).  Run by meson (python/tests/meson.build):
    PYTHONPATH=build/python /usr/bin/python3 -m pytest python/tests
"""
import json
import os
import subprocess
import sys
import threading
import time

import h5py
import numpy as np
import pytest
import scipy.sparse as sp

import frictionlab as fl

ROOT = os.environ.get("FL_SOURCE_ROOT",
                      os.path.join(os.path.dirname(__file__), os.pardir, os.pardir))
CORPUS = os.path.join(ROOT, "tests", "data", "siconos")


def one_contact(mu=0.3, qn=-1.0, qt=0.5):
    """dim 2, W = I: U_N = r_N + q_N, U_T = r_T + q_T (decoupled)."""
    return fl.LocalProblem(sp.identity(2, format="csc"), [qn, qt], [mu], 2)


def natural_map_by_hand(r, U, mu, nq):
    """sqrt(|r - P_K(r - U - mu|U_T| e_N)|^2)/||q|| for one 2D contact,
    the projection written out (proofs/contact_dynamics.md)."""
    x = np.array([r[0] - (U[0] + mu * abs(U[1])), r[1] - U[1]])
    if abs(x[1]) <= mu * x[0]:
        p = x
    elif mu * abs(x[1]) <= -x[0]:
        p = np.zeros(2)
    else:
        t = (x[0] + mu * abs(x[1])) / (1 + mu * mu)
        p = np.array([t, mu * t * np.sign(x[1])])
    return np.linalg.norm(np.asarray(r) - p) / nq


# --------------------------------------------------------------- read


def test_read_hand_written_siconos_file():
    p = fl.read(os.path.join(CORPUS, "two_contacts_2d.dat"))
    assert isinstance(p, fl.LocalProblem)
    assert (p.dim, p.nc, p.m) == (2, 2, 4)
    assert isinstance(p.W, sp.csc_matrix)
    W = np.array([[2, 0.5, 0, 0.25], [0.5, 1, 0.25, 0], [0, 0.25, 3, 0.5], [0.25, 0, 0.5, 1]])
    np.testing.assert_array_equal(p.W.toarray(), W)
    np.testing.assert_array_equal(p.q, [-1, 0.5, -2, -0.25])
    np.testing.assert_array_equal(p.mu, [0.5, 0.2])


def test_read_fclib_file_matches_h5py():
    path = os.path.join(CORPUS, "Capsules-i125-1213.hdf5")
    p = fl.read(path)
    assert isinstance(p, fl.LocalProblem)
    with h5py.File(path, "r") as f:
        g = f["fclib_local"]
        np.testing.assert_array_equal(p.q, g["vectors/q"][:])
        np.testing.assert_array_equal(p.mu, g["vectors/mu"][:])
        assert p.dim == int(g["spacedim"][0])


def test_read_global_problem_and_solve_it():
    g = fl.read(os.path.join(CORPUS, "GFC3D_Example00.dat"))
    assert isinstance(g, fl.GlobalProblem)
    assert g.M.shape == (g.n, g.n) and g.H.shape == (g.m, g.n)
    assert abs(g.M - g.M.T).max() <= 1e-12 * abs(g.M).max()
    res = fl.solve(g)
    assert res.converged
    # the equations of the global problem, checked with SciPy:
    # M v = f + H^T r and U = H v + w
    np.testing.assert_allclose(g.M @ res.v, g.f + g.H.T @ res.r, atol=1e-9 * (1 + abs(g.f).max()))
    np.testing.assert_allclose(res.u, g.H @ res.v + g.w, atol=1e-9 * (1 + abs(g.w).max()))
    assert fl.error(g, res.r, res.u) <= 1e-8


def test_read_errors_name_the_file():
    with pytest.raises(fl.Error) as e:
        fl.read("/nonexistent/problem.dat")
    assert e.value.status == "EIO"
    for bad in ("bad_nan.dat", "bad_text.dat", "bad_truncated.dat", "bad_mu.dat"):
        path = os.path.join(CORPUS, bad)
        with pytest.raises(fl.Error) as e:
            fl.read(path)
        assert e.value.status.startswith("E")
        assert bad in str(e.value)


def test_read_corrupt_hdf5(tmp_path):
    path = tmp_path / "corrupt.hdf5"
    good = open(os.path.join(CORPUS, "Capsules-i125-1213.hdf5"), "rb").read()
    path.write_bytes(good[:len(good) // 3])
    with pytest.raises(fl.Error) as e:
        fl.read(path)
    assert "corrupt.hdf5" in str(e.value)


# --------------------------------------------------------------- construction


def test_local_problem_shapes_are_checked():
    W = sp.identity(4, format="csc")
    with pytest.raises(fl.Error) as e:
        fl.LocalProblem(W, np.zeros(3), [0.1, 0.1], 2)
    assert e.value.status == "EDIM"
    with pytest.raises(fl.Error) as e:
        fl.LocalProblem(sp.identity(6, format="csc"), np.zeros(4), [0.1, 0.1], 2)
    assert e.value.status == "EDIM" and "6 x 6" in e.value.message
    with pytest.raises(fl.Error) as e:
        fl.LocalProblem(W, np.zeros(4), [0.1, 0.1], 4)
    assert e.value.status == "EINVAL"
    with pytest.raises(fl.Error) as e:
        fl.LocalProblem(np.zeros(4), np.zeros(4), [0.1, 0.1], 2)
    assert e.value.status == "EDIM"


def test_non_finite_and_negative_values_are_refused():
    W = np.eye(4)
    W[2, 1] = np.nan
    with pytest.raises(fl.Error) as e:
        fl.LocalProblem(W, np.zeros(4), [0.1, 0.1], 2)
    assert e.value.status == "ENONFINITE"
    with pytest.raises(fl.Error) as e:
        fl.LocalProblem(np.eye(4), [0, np.inf, 0, 0], [0.1, 0.1], 2)
    assert e.value.status == "ENONFINITE"
    with pytest.raises(fl.Error) as e:
        fl.LocalProblem(np.eye(4), np.zeros(4), [0.1, -0.1], 2)
    assert e.value.status == "EINVAL"


def test_arrays_are_shared_not_copied():
    W = sp.random(6, 6, density=0.5, format="csc", random_state=3) + sp.identity(6, format="csc")
    W = W.tocsc()
    W.sort_indices()
    q = np.linspace(-1, 1, 6)
    mu = np.array([0.2, 0.4])
    p = fl.LocalProblem(W, q, mu, 3)
    assert p.W is W and p.q is q and p.mu is mu
    ptr = p._pointers()
    assert ptr["W.data"] == W.data.ctypes.data
    assert ptr["W.indices"] == W.indices.ctypes.data
    assert ptr["W.indptr"] == W.indptr.ctypes.data
    assert ptr["q"] == q.ctypes.data
    assert ptr["mu"] == mu.ctypes.data
    # another layout is converted (a copy), the original left alone
    q32 = q.astype(np.float32)
    p2 = fl.LocalProblem(W.tocsr(), q32, mu, 3)
    assert not np.shares_memory(p2.q, q32)
    assert isinstance(p2.W, sp.csc_matrix)


# --------------------------------------------------------------- solve


@pytest.mark.parametrize("solver", ["gs", "newton", "auto"])
@pytest.mark.parametrize("impl", ["optimized", "reference"])
def test_solve_sliding_contact_closed_form(solver, impl):
    # W = I, q = (-1, 0.5), mu = 0.3: U_N = r_N - 1 = 0 gives r_N = 1 (the
    # contact cannot separate with r_N > 0); sticking would need
    # r_T = -0.5, outside |r_T| <= 0.3, so it slides: r_T = -mu r_N = -0.3
    # opposite U_T = 0.5 - 0.3 = 0.2 > 0.
    res = fl.solve(one_contact(), solver=solver, impl=impl)
    assert res.converged and res.status == "converged"
    np.testing.assert_allclose(res.r, [1.0, -0.3], atol=1e-8)
    np.testing.assert_allclose(res.u, [0.0, 0.2], atol=1e-8)
    assert res.error <= 1e-8
    assert res.solver in ("gs", "newton")
    assert res.iterations >= 1 and res.seconds >= 0


def test_solve_separating_contact_closed_form():
    # q_N = +1 > 0: the contact opens, r = 0, U = q.
    res = fl.solve(one_contact(qn=1.0, qt=0.3))
    np.testing.assert_allclose(res.r, [0, 0], atol=1e-12)
    np.testing.assert_allclose(res.u, [1.0, 0.3], atol=1e-12)


def test_solve_max_iter_and_bad_arguments():
    p = fl.read(os.path.join(CORPUS, "Capsules-i122-1617.dat"))
    res = fl.solve(p, solver="gs", max_iter=1)
    assert not res.converged and res.status == "iteration limit" and res.iterations == 1
    with pytest.raises(fl.Error) as e:
        fl.solve(p, solver="magic")
    assert e.value.status == "ENOTFOUND"
    with pytest.raises(fl.Error):
        fl.solve(p, impl="fast")
    with pytest.raises(fl.Error):
        fl.solve(p, tol=-1)
    with pytest.raises(TypeError):
        fl.solve("not a problem")


def test_solve_ppa_closed_form_one_contact():
    # one 2D contact, W = I, q = (-1, 0.3), mu 0.5: sticking is r = -q with
    # |r_T| = 0.3 <= 0.5 r_N = 0.5, so r = (1, -0.3), u = 0
    p = fl.LocalProblem(sp.csc_matrix(np.eye(2)), [-1.0, 0.3], [0.5], 2)
    for impl in ("optimized", "reference"):
        res = fl.solve(p, solver="ppa", impl=impl)
        assert res.converged and res.solver == "ppa"
        assert np.allclose(res.r, [1.0, -0.3], atol=1e-10) and np.allclose(res.u, 0, atol=1e-10)


def test_solve_time_limit_returns_the_best_iterate():
    # tol 1e-30 is out of reach: without the limit this runs 10^6 sweeps
    p = fl.read(os.path.join(CORPUS, "Capsules-i122-1617.dat"))
    res = fl.solve(p, solver="gs", tol=1e-30, max_iter=1000000, time_limit=0.05)
    assert res.status == "time limit" and not res.converged
    assert 0 < res.iterations < 1000000
    assert res.error == pytest.approx(fl.error(p, res.r), rel=1e-6)
    for bad in (0, -1.0, float("nan"), float("inf")):
        with pytest.raises(fl.Error) as e:
            fl.solve(p, time_limit=bad)
        assert "time_limit" in e.value.message


def test_solve_nonsymmetric_w_newton_refuses_or_solves():
    # A library error must come out as fl.Error with a status name.
    p = fl.read(os.path.join(CORPUS, "Rover1039.dat"))
    try:
        res = fl.solve(p, solver="auto")
    except fl.Error as e:
        assert e.status.startswith("E") and e.message
    else:
        assert res.error == pytest.approx(fl.error(p, res.r), rel=1e-6)


def test_solve_without_contact():
    p = fl.LocalProblem(sp.csc_matrix((0, 0)), [], [], 3)
    res = fl.solve(p)
    assert res.converged and res.r.shape == (0,)


def test_gil_is_released_during_solve():
    p = fl.read(os.path.join(CORPUS, "Capsules-i122-1617.dat"))
    done = threading.Event()
    took = []

    def run():
        for _ in range(3):
            took.append(fl.solve(p, solver="gs", max_iter=1000, tol=1e-30).seconds)
        done.set()

    t = threading.Thread(target=run)
    t.start()
    gap, last = 0.0, time.perf_counter()
    while not done.is_set():
        now = time.perf_counter()
        gap, last = max(gap, now - last), now
    t.join()
    # With the GIL held through a solve this loop would stop for the whole
    # solve (a gap >= its time); released, it runs on (gaps of the
    # interpreter's 5 ms switch interval).
    assert min(took) > 0.05, took
    assert gap < 0.5 * min(took), (gap, took)


# --------------------------------------------------------------- error


def test_error_by_hand_and_normalisations():
    p = one_contact()
    r = np.zeros(2)
    U = p.q  # W r + q with r = 0
    nq = np.linalg.norm(p.q)
    expected = natural_map_by_hand(r, U, 0.3, nq)
    assert fl.error(p, r) == pytest.approx(expected, rel=1e-12)
    assert fl.error(p, r, normalisation="fclib") == pytest.approx(expected, rel=1e-12)
    assert fl.error(p, r, normalisation="absolute") == pytest.approx(expected * nq, rel=1e-12)
    # max(||r||, ||U||, ||q||) = ||q|| here
    assert fl.error(p, r, normalisation="siconos") == pytest.approx(expected, rel=1e-12)
    assert fl.error(p, r, normalisation="1+q") == pytest.approx(expected * nq / (1 + nq), rel=1e-12)
    assert fl.error(p, [1.0, -0.3]) <= 1e-15
    # a given u is used as it is
    assert fl.error(p, [1.0, -0.3], u=[0.0, 0.2]) <= 1e-15
    # U_N = 0.5 > 0 with r_N = 1 > 0: not complementary; by hand
    assert fl.error(p, [1.0, -0.3], u=[0.5, 0.2]) == pytest.approx(
        natural_map_by_hand([1.0, -0.3], [0.5, 0.2], 0.3, np.linalg.norm(p.q)), rel=1e-12)
    assert fl.error(p, [1.0, -0.3], u=[0.5, 0.2]) > 0.1
    with pytest.raises(fl.Error):
        fl.error(p, r, normalisation="l2")
    with pytest.raises(fl.Error) as e:
        fl.error(p, [1.0])
    assert e.value.status == "EDIM"
    with pytest.raises(fl.Error) as e:
        fl.error(p, r, u=[np.nan, 0])
    assert e.value.status == "ENONFINITE"


# --------------------------------------------------------------- write


def test_write_fclib_with_solution_read_by_h5py(tmp_path):
    p = fl.read(os.path.join(CORPUS, "two_contacts_2d.dat"))
    res = fl.solve(p)
    path = tmp_path / "p.hdf5"
    fl.write(p, path, solution=res)
    with h5py.File(path, "r") as f:
        np.testing.assert_array_equal(f["solution/r"][:], res.r)
        np.testing.assert_array_equal(f["solution/u"][:], res.u)
        np.testing.assert_array_equal(f["fclib_local/vectors/q"][:], p.q)
    back = fl.read(path)
    np.testing.assert_array_equal(back.W.toarray(), p.W.toarray())
    np.testing.assert_array_equal(back.mu, p.mu)


def test_write_siconos_text_round_trip(tmp_path):
    p = fl.read(os.path.join(CORPUS, "Capsules-i101-404.dat"))
    path = tmp_path / "p.dat"
    fl.write(p, path)
    back = fl.read(path)
    assert (back.dim, back.nc) == (p.dim, p.nc)
    assert abs(back.W - p.W).max() == 0
    np.testing.assert_array_equal(back.q, p.q)
    with pytest.raises(fl.Error) as e:
        fl.write(p, tmp_path / "s.dat", solution=(np.zeros(p.m), np.zeros(p.m)))
    assert e.value.status == "EINVAL"


def test_write_global_and_errors(tmp_path):
    g = fl.read(os.path.join(CORPUS, "GFC3D_Example00.dat"))
    for name in ("g.hdf5", "g.dat"):
        fl.write(g, tmp_path / name)
        back = fl.read(tmp_path / name)
        assert isinstance(back, fl.GlobalProblem)
        assert abs(back.M - g.M).max() <= 1e-15 * abs(g.M).max()
        assert abs(back.H - g.H).max() <= 1e-15 * abs(g.H).max()
    with pytest.raises(fl.Error) as e:
        fl.write(one_contact(), "/nonexistent/dir/p.hdf5")
    assert e.value.status.startswith("E")
    with pytest.raises(TypeError):
        fl.write(42, tmp_path / "x.hdf5")


# --------------------------------------------------------------- crosscheck


def good_solver(problem):
    res = fl.solve(problem, tol=1e-10)
    return res.r, res.u


def wrong_solver(problem):
    # a deliberately wrong answer: a correct one with the first contact's
    # normal impulse pushed up (an open contact then pushes, a closed one
    # moves away): the law is violated whatever the problem
    r, u = good_solver(problem)
    r = r.copy()
    r[0] += 0.1 * (1 + abs(r).max())
    return r, u


def test_crosscheck_passes_a_correct_solver(tmp_path):
    rep = fl.crosscheck(good_solver, families=("random", "edge"), out=tmp_path, systems=3)
    assert rep.ok and rep.failed == 0 and rep.passed == len(rep.rows) > 0
    assert all(r["status"] == "pass" for r in rep.rows)
    assert {r["family"] for r in rep.rows} == {"random", "edge"}
    for f in ("xval.csv", "xval_summary.txt", "xval_profile.csv"):
        assert (tmp_path / f).exists()
    assert "in-process" in rep.summary
    # r alone, or a Result, will do as well
    assert fl.crosscheck(lambda p: fl.solve(p).r, systems=2).ok
    assert fl.crosscheck(lambda p: fl.solve(p), systems=2).ok


def test_crosscheck_in_process_agrees_with_the_command(tmp_path):
    # the same solver through `frictionlab crosscheck --solver-cmd` (a new
    # interpreter per problem, FCLIB files) and in-process: same problems,
    # certificates and verdicts, the same report files
    build = os.environ["FL_BUILD_ROOT"]
    cmd = (f"{sys.executable} {os.path.abspath(__file__)} {{in}} {{out}}")
    env = dict(os.environ, FL_SOURCE_ROOT=ROOT)
    run = subprocess.run([os.path.join(build, "frictionlab"), "crosscheck", "--family", "random",
                          "--systems", "3", "--out", str(tmp_path / "cmd"), "--solver-cmd", cmd],
                         capture_output=True, text=True, env=env, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    rep = fl.crosscheck(good_solver, systems=3, out=tmp_path / "inproc")
    cmd_rows = fl._read_rows(str(tmp_path / "cmd" / "xval.csv"))
    assert [r["problem"] for r in rep.rows] == [r["problem"] for r in cmd_rows]
    for a, b in zip(rep.rows, cmd_rows):
        for k in ("status", "dim", "nc", "unique", "certificate", "cert_error"):
            assert a[k] == b[k], (k, a, b)
    assert sorted(os.listdir(tmp_path / "cmd")) == sorted(os.listdir(tmp_path / "inproc"))


def test_crosscheck_catches_a_wrong_solver():
    rep = fl.crosscheck(wrong_solver, systems=3)
    assert not rep.ok and rep.out is None
    assert rep.rows and rep.failed == len(rep.rows) and rep.passed == 0
    assert all(r["status"] == "fail" for r in rep.rows)
    assert all("natural-map error" in r["reason"] or "complementarity" in r["reason"]
               for r in rep.rows)


def test_crosscheck_catches_a_stale_u():
    # the right r with the velocity before the impulse (u = q): u fails,
    # named, although r alone passes; where r = 0 (all contacts open) u = q
    # is right and the problem passes
    def stale(problem):
        r, u = good_solver(problem)
        return r, np.array(problem.q, dtype=float)

    rep = fl.crosscheck(stale, systems=3)
    bad = [r for r in rep.rows if r["status"] == "fail"]
    assert bad and all("u differs from W r + q" in r["reason"] for r in bad)
    assert all("natural-map" not in r["reason"] for r in bad)


def test_crosscheck_time_limit_in_process():
    # a call over the limit cannot be interrupted in-process: it is let
    # finish and fails as timed out (the command's process is killed)
    def slow(problem):
        time.sleep(0.02)
        return good_solver(problem)

    rep = fl.crosscheck(slow, systems=2, timeout=0.01)
    assert rep.failed == len(rep.rows) > 0
    assert all(r["timed_out"] == 1 and "over the time limit" in r["reason"] for r in rep.rows)
    with pytest.raises(fl.Error):
        fl.crosscheck(good_solver, timeout=0)


def test_crosscheck_reports_an_exception_and_bad_shape():
    def raises(problem):
        raise ValueError("no idea")

    def short(problem):
        return np.zeros(problem.m + 1), None

    rep = fl.crosscheck(raises, systems=2)
    assert rep.failed == len(rep.rows) > 0
    assert all("ValueError: no idea" in r["reason"] for r in rep.rows)
    rep = fl.crosscheck(short, systems=2)
    assert rep.failed == len(rep.rows) > 0 and "shape" in rep.rows[0]["reason"]
    with pytest.raises(fl.Error):
        fl.crosscheck(good_solver, families=("nosuch",))
    with pytest.raises(TypeError):
        fl.crosscheck(42)


# --------------------------------------------------------------- load_results


def test_load_results(tmp_path):
    data = {"version": "0.1.0", "tasks": [{"name": "t", "checks": [{"status": "PASS"}]}]}
    (tmp_path / "results.json").write_text(json.dumps(data))
    assert fl.load_results(tmp_path / "results.json") == data
    assert fl.load_results(tmp_path) == data
    (tmp_path / "bad.json").write_text("{not json")
    with pytest.raises(fl.Error) as e:
        fl.load_results(tmp_path / "bad.json")
    assert e.value.status == "EPARSE" and "bad.json" in e.value.message
    with pytest.raises(fl.Error) as e:
        fl.load_results(tmp_path / "missing.json")
    assert e.value.status == "EIO"


def test_load_results_of_a_reproduce_run(tmp_path):
    # the results.json the command writes, read back: its PASS checks are
    # the run's "N passed" line
    build = os.environ["FL_BUILD_ROOT"]
    run = subprocess.run([os.path.join(build, "frictionlab"), "reproduce", "wedged_rod", "--quick",
                          "--out", str(tmp_path)], capture_output=True, text=True,
                         env=dict(os.environ, FL_SOURCE_ROOT=ROOT), timeout=300)
    last = run.stdout.strip().splitlines()[-1]
    data = fl.load_results(tmp_path)
    assert [t["name"] for t in data["tasks"]] == ["wedged_rod"]
    checks = data["tasks"][0]["checks"]
    npass = sum(c["status"] == "PASS" for c in checks)
    nfail = sum(c["status"] == "FAIL" for c in checks)
    assert last == f"{npass} passed, {nfail} failed"
    assert all(isinstance(c["detail"], str) for c in checks)


def test_help_shows_docstrings():
    for f in (fl.read, fl.write, fl.solve, fl.error, fl.crosscheck, fl.load_results,
              fl.LocalProblem, fl.GlobalProblem, fl.Result, fl.Error):
        assert f.__doc__ and len(f.__doc__) > 80, f


if __name__ == "__main__":
    # the command side of test_crosscheck_in_process_agrees_with_the_command:
    #   test_frictionlab.py IN.hdf5 OUT.hdf5
    _p = fl.read(sys.argv[1])
    fl.write(_p, sys.argv[2], solution=good_solver(_p))
