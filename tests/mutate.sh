#!/usr/bin/env bash
# tests/mutate.sh — mutation testing of the kernels: does the fast suite
# catch a planted bug?
#
#   tests/mutate.sh            every mutant below
#   tests/mutate.sh ID ...     only these mutants (e.g. relax.omega_dropped)
#   tests/mutate.sh --list     the table
#
# Each mutant is ONE line of one source file changed by a literal search and
# replace (the table below: id, file, text searched, replacement, Criterion
# programs to run).  For each: apply (the searched text must occur exactly
# once; a site that is not found, or found twice, is reported as MISSING and
# fails the run: a kernel that moved must get its mutant updated, not
# skipped), rebuild incrementally in build-mutate/ (plain build, no
# coverage), run the listed Criterion programs, restore the file.  A mutant
# is KILLED when a program fails, SURVIVED otherwise; one that does not
# compile (-Werror) is INVALID: like a missing site it is left out of the
# score and fails the run (the mutant must be rewritten to compile).  The
# end prints the kill rate and the survivors; exit status 0 only if no site
# is missing or invalid and the kill rate is at least FL_MUTATE_MIN (90).
set -uo pipefail
cd "$(dirname "$0")/.."
root=$PWD
build=${FL_MUTATE_BUILD:-build-mutate}
min=${FL_MUTATE_MIN:-90}

# id @@ file @@ search @@ replace @@ programs
table=$(cat <<'TABLE'
cone.inside_test_widened @@ core/fl_residual.c @@ if (xn >= 0 && nt <= mu * xn) { @@ if (xn >= 0 && nt <= 2 * mu * xn) { @@ test_fl_residual test_nsgs
cone.polar_test_sign @@ core/fl_residual.c @@ if (mu * nt <= -xn) { @@ if (mu * nt <= xn) { @@ test_fl_residual test_nsgs
cone.boundary_scale @@ core/fl_residual.c @@ double t = (xn + mu * nt) / (1.0 + mu * mu); @@ double t = (xn + mu * nt) / (1.0 + mu); @@ test_fl_residual test_nsgs
cone.tangent_without_mu @@ core/fl_residual.c @@ p[k] = mu * t * x[k] / nt; @@ p[k] = t * x[k] / nt; @@ test_fl_residual test_nsgs
natmap.desaxce_term_dropped @@ core/fl_residual.c @@ y[0] = r[0] - (U[0] + mu * ut); @@ y[0] = r[0] - (U[0] + 0.0 * mu * ut); @@ test_fl_residual test_nsgs
natmap.tangent_sign @@ core/fl_residual.c @@ for (int k = 1; k < dim; k++) y[k] = r[k] - U[k]; @@ for (int k = 1; k < dim; k++) y[k] = r[k] + U[k]; @@ test_fl_residual test_nsgs
natmap.norm_one_plus_q @@ core/fl_residual.c @@ e /= 1.0 + norm_q; @@ e /= 2.0 + norm_q; @@ test_fl_residual test_nsgs
local.in_cone_ignores_mu @@ reference/nsgs.c @@ return r[0] >= -slack && nt <= mu * r[0] + slack; @@ return r[0] >= -slack && nt <= 10 * mu * r[0] + slack; @@ test_nsgs
local.slide3_den_sign @@ reference/nsgs.c @@ double den = W[0] - mu * (W[1] * d0 + W[2] * d1); @@ double den = W[0] + mu * (W[1] * d0 + W[2] * d1); @@ test_nsgs
local.slide3_tangent_sign @@ reference/nsgs.c @@ double r[3] = {rn, -mu * rn * d0, -mu * rn * d1}; @@ double r[3] = {rn, mu * rn * d0, mu * rn * d1}; @@ test_nsgs
local.stick2_cramer_sign @@ reference/nsgs.c @@ double x0 = (-b[0] * d + c * b[1]) / det @@ double x0 = (-b[0] * d - c * b[1]) / det @@ test_nsgs
local.slide2_tangent_sign @@ reference/nsgs.c @@ double rt = -s * mu * rn; @@ double rt = s * mu * rn; @@ test_nsgs
local.open2_condition @@ reference/nsgs.c @@ if (b[0] >= 0) FL_LOCAL2_TAKE(0.0, 0.0); @@ if (b[0] <= 0) FL_LOCAL2_TAKE(0.0, 0.0); @@ test_nsgs
relax.omega_dropped @@ reference/nsgs.c @@ y[k] = (1.0 - omega) * ra[k] + omega * rloc[k]; @@ y[k] = rloc[k]; @@ test_nsgs
relax.always_plain @@ reference/nsgs.c @@ if (omega == 1.0) { @@ if (omega > 0.0) { @@ test_nsgs
delassus.q_without_w @@ reference/delassus.c @@ gsl_blas_dgemv(CblasNoTrans, 1.0, g->H, y, 1.0, p->q); @@ gsl_blas_dgemv(CblasNoTrans, 1.0, g->H, y, 0.0, p->q); @@ test_nsgs test_enumerate
delassus.W_scaled @@ reference/delassus.c @@ gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, g->H, X, 0.0, p->W); @@ gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 2.0, g->H, X, 0.0, p->W); @@ test_nsgs test_enumerate
delassus_sparse.shift_sign @@ optimized/delassus_sparse.c @@ double alpha[2] = {c, 0}, beta[2] = {-1.0, 0}; @@ double alpha[2] = {c, 0}, beta[2] = {1.0, 0}; @@ test_nsgs
delassus_sparse.q_without_w @@ optimized/delassus_sparse.c @@ gsl_vector_memcpy(p->q, g->w); @@ gsl_vector_set_zero(p->q); @@ test_nsgs
moreau.frictionless_sign @@ reference/moreau_law.c @@ x[0] = c0 / a; @@ x[0] = -c0 / a; @@ test_moreau_law
moreau.reduced_linear_term @@ reference/moreau_law.c @@ p[i] = lp->h[1 + i] + c0 / a * b[i]; @@ p[i] = lp->h[1 + i] - c0 / a * b[i]; @@ test_moreau_law
moreau.schur_complement_sign @@ reference/moreau_law.c @@ Q[i * k + j] = lp->G[(1 + i) * m + 1 + j] - b[i] * b[j] / a; @@ Q[i * k + j] = lp->G[(1 + i) * m + 1 + j] + b[i] * b[j] / a; @@ test_moreau_law
moreau.interval_bound @@ reference/moreau_law.c @@ const double alpha[3] = {a + hi * b, -(a + lo * b), b}; @@ const double alpha[3] = {a + hi * b, -(a - lo * b), b}; @@ test_moreau_law
p4.core_velocity_split @@ core/fl_dense.c @@ gsl_vector_sub(vt, tmp);                                /* vt = v - vn      */ @@ gsl_vector_add(vt, tmp); @@ test_fl_dense test_p4_law
p4.core_reaction_split @@ core/fl_dense.c @@ gsl_vector_sub(rt, tmp); @@ gsl_vector_add(rt, tmp); @@ test_fl_dense test_p4_law
p4.velocity_split @@ reference/p4_law.c @@ gsl_vector_sub(vt, w->tn2); @@ gsl_vector_add(vt, w->tn2); @@ test_p4_law
p4.reaction_split @@ reference/p4_law.c @@ gsl_blas_dgemv(CblasTrans, -1.0, w->p->D, l, 1.0, r_tau); @@ gsl_blas_dgemv(CblasTrans, 1.0, w->p->D, l, 1.0, r_tau); @@ test_p4_law
lemke.pivot_row_scale @@ reference/lemke.c @@ for (size_t j = 0; j < ncol; j++) R[j] /= p; @@ for (size_t j = 0; j < ncol; j++) R[j] *= p; @@ test_lemke test_stewart_law
lemke.pivot_elimination_sign @@ reference/lemke.c @@ for (size_t j = 0; j < ncol; j++) Ti[j] -= f * R[j]; @@ for (size_t j = 0; j < ncol; j++) Ti[j] += f * R[j]; @@ test_lemke test_stewart_law
lemke.ratio_blocking_sign @@ reference/lemke.c @@ if (!(a > thr)) continue; @@ if (!(a < -thr)) continue; @@ test_lemke test_stewart_law
lemke.lexicographic_order @@ reference/lemke.c @@ if (lex_compare(T, i, a, best, ab, rhs) < 0) best = i; @@ if (lex_compare(T, i, a, best, ab, rhs) > 0) best = i; @@ test_lemke test_stewart_law
midpoint.u_update @@ reference/midpoint.c @@ gsl_blas_daxpy(2.0, mp->uh, st->u); @@ gsl_blas_daxpy(1.0, mp->uh, st->u); @@ test_midpoint test_triangle_002
midpoint.v_half @@ reference/midpoint.c @@ gsl_vector_scale(mp->w1, c2);                 /* w1 = v^{k+1/2} */ @@ gsl_vector_scale(mp->w1, c4); @@ test_midpoint test_triangle_002
midpoint.v_update @@ reference/midpoint.c @@ gsl_blas_daxpy(2.0, mp->w1, st->v); @@ gsl_blas_daxpy(1.0, mp->w1, st->v); @@ test_midpoint test_triangle_002
stability.divergence_sign @@ reference/stability.c @@ if (re <= 0.0 && fl_stability_admissible(&c.vector, csign, o->sign_tol)) @@ if (re >= 0.0 && fl_stability_admissible(&c.vector, csign, o->sign_tol)) @@ test_stability test_stability_sparse
stability.real_root_test @@ reference/stability.c @@ if (fabs(im) <= o->real_tol * hypot(re, im)) { @@ if (fabs(im) >= o->real_tol * hypot(re, im)) { @@ test_stability test_stability_sparse
stability.partition_stick_slip @@ reference/stability.c @@ } else if (fabs(rT) < -s->mu * rN - tr) { @@ } else if (fabs(rT) > -s->mu * rN - tr) { @@ test_stability test_stability_sparse
TABLE
)

field() { awk -F' @@ ' -v k="$2" '{print $k}' <<<"$1"; }

if [ "${1:-}" = "--list" ]; then
    while IFS= read -r line; do
        printf '%-34s %s\n' "$(field "$line" 1)" "$(field "$line" 2)"
    done <<<"$table"
    exit 0
fi

want=" $* "
if [ ! -f "$build/build.ninja" ]; then
    meson setup "$build" >/dev/null || exit 2
fi
echo "== baseline: build and every listed program green before mutating"
nice -n 10 ninja -C "$build" >/dev/null || { echo "baseline build failed"; exit 2; }
progs=$(while IFS= read -r l; do field "$l" 5; done <<<"$table" | tr ' ' '\n' | sort -u)
for t in $progs; do
    FL_SOURCE_ROOT=$root "$build/tests/$t" >/dev/null 2>&1 ||
        { echo "baseline: $t fails without any mutant"; exit 2; }
done

total=0 killed=0 missing=0
survivors="" missing_ids=""
backup=$(mktemp)
current=""
restore() { if [ -n "$current" ]; then cp "$backup" "$current"; current=""; fi; }
trap 'restore; rm -f "$backup"; exit 130' INT TERM
while IFS= read -r line; do
    id=$(field "$line" 1); file=$(field "$line" 2)
    from=$(field "$line" 3); to=$(field "$line" 4); tests=$(field "$line" 5)
    if [ "$want" != "  " ] && [[ "$want" != *" $id "* ]]; then continue; fi
    total=$((total + 1))
    cp "$file" "$backup"
    current=$file
    if ! FROM=$from TO=$to python3 - "$file" <<'PY'
import os, sys
path = sys.argv[1]
text = open(path).read()
n = text.count(os.environ["FROM"])
if n != 1:
    sys.exit(3 if n == 0 else 4)
open(path, "w").write(text.replace(os.environ["FROM"], os.environ["TO"]))
PY
    then
        restore
        echo "MISSING  $id: '$from' is not exactly once in $file"
        missing=$((missing + 1)); missing_ids="$missing_ids $id"
        continue
    fi
    t0=$(date +%s)
    verdict=SURVIVED why=""
    targets=""
    for t in $tests; do targets="$targets tests/$t"; done
    # shellcheck disable=SC2086
    if ! nice -n 10 ninja -C "$build" $targets >/dev/null 2>&1; then
        verdict=INVALID why="(does not compile)"
    else
        for t in $tests; do
            FL_SOURCE_ROOT=$root timeout "${FL_MUTATE_TIMEOUT:-40}" "$build/tests/$t" >/dev/null 2>&1
            rc=$?
            if [ $rc -ne 0 ]; then
                # 124: the program outran the timeout (a mutant that makes a
                # solver spin); said so, since only an assertion is proof
                if [ $rc -eq 124 ]; then
                    verdict=KILLED why="by $t (timeout ${FL_MUTATE_TIMEOUT:-40} s)"
                else
                    verdict=KILLED why="by $t"
                fi
                break
            fi
        done
    fi
    restore
    echo "$verdict $id $why ($(( $(date +%s) - t0 )) s)"
    case $verdict in
    KILLED) killed=$((killed + 1)) ;;
    INVALID) missing=$((missing + 1)); missing_ids="$missing_ids $id" ;;
    *) survivors="$survivors $id" ;;
    esac
done <<<"$table"
rm -f "$backup"
# leave the build matching the restored sources
nice -n 10 ninja -C "$build" >/dev/null 2>&1

run=$((total - missing))
pct=0
[ $run -gt 0 ] && pct=$((100 * killed / run))
echo "== mutation score: $killed killed of $run mutants ($pct%), $missing missing or invalid"
[ -n "$survivors" ] && echo "survivors:$survivors"
[ -n "$missing_ids" ] && echo "missing or invalid:$missing_ids"
[ $missing -eq 0 ] && [ $pct -ge "$min" ]
