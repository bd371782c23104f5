#!/usr/bin/python3
"""solve_corpus.py -- frictionlab from Python in a page: read a problem of
the corpus, solve it, compare with a second solver, plot, and cross-check a
Python solver in-process.

    PYTHONPATH=build/python /usr/bin/python3 examples/python/solve_corpus.py \
        [tests/data/siconos/Capsules-i122-1617.dat] [--out DIR]

1. frictionlab.read: the problem (W a scipy.sparse.csc_matrix, q and mu
   numpy arrays).
2. frictionlab.solve with "auto" (our answer) and with plain Gauss-Seidel
   stopped early; frictionlab.error of both, as the crosscheck measures it.
3. With matplotlib (Debian python3-matplotlib) present: DIR/r_vs_ours.png,
   the Gauss-Seidel impulses against ours (on the diagonal when they agree).
4. frictionlab.crosscheck of the early-stopped Gauss-Seidel as a Python
   solver on the random family, as `frictionlab crosscheck --solver-cmd`
   would run it: the same problems, certified answers and verdicts; the
   report files go to DIR/crosscheck/.
"""
import os
import sys

try:
    import frictionlab as fl
except ImportError as e:
    print(f"{sys.argv[0]}: the frictionlab module cannot be imported ({e}): build it "
          "(ninja -C build) and set PYTHONPATH=build/python, or meson install it "
          "(doc/python.md); run Debian's /usr/bin/python3", file=sys.stderr)
    sys.exit(2)

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, os.pardir)


def rough_gs(problem):
    """A solver under test: Gauss-Seidel to a loose 1e-7 only."""
    res = fl.solve(problem, solver="gs", tol=1e-7)
    return res.r, res.u


def main(argv):
    out = "out-python-example"
    args = [a for a in argv[1:]]
    if "--out" in args:
        i = args.index("--out")
        out = args[i + 1]
        del args[i:i + 2]
    path = args[0] if args else os.path.join(ROOT, "tests", "data", "siconos",
                                             "Capsules-i122-1617.dat")
    os.makedirs(out, exist_ok=True)

    p = fl.read(path)
    print(f"{os.path.basename(path)}: {p!r}")
    ours = fl.solve(p)
    print(f"ours:         {ours!r}")
    gs = fl.solve(p, solver="gs", max_iter=50)
    print(f"gs, 50 sweeps: {gs!r}")
    print(f"natural-map error (/||q||): ours {fl.error(p, ours.r):.2e}, "
          f"gs {fl.error(p, gs.r):.2e}; Siconos's normalisation: ours "
          f"{fl.error(p, ours.r, normalisation='siconos'):.2e}")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed (Debian python3-matplotlib): no plot")
    else:
        fig, ax = plt.subplots(figsize=(5, 5))
        ax.plot(ours.r, gs.r, ".", ms=3)
        lim = [min(ours.r.min(), gs.r.min()), max(ours.r.max(), gs.r.max())]
        ax.plot(lim, lim, "k-", lw=0.5)
        ax.set_xlabel("r, ours (auto, 1e-8)")
        ax.set_ylabel("r, Gauss-Seidel after 50 sweeps")
        ax.set_title(os.path.basename(path))
        fig.savefig(os.path.join(out, "r_vs_ours.png"), dpi=100)
        print(f"plot: {os.path.join(out, 'r_vs_ours.png')}")

    rep = fl.crosscheck(rough_gs, families=("random",), out=os.path.join(out, "crosscheck"))
    print(f"crosscheck of rough_gs, in-process: {rep.passed} passed, {rep.failed} failed")
    for row in rep.rows[:3]:
        print(f"  {row['problem']}: {row['status']}, error {row['error']:.1e}, "
              f"{row['seconds'] * 1e3:.2f} ms (ours {row['ours_seconds'] * 1e3:.2f} ms)")
    print(rep.summary, end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
