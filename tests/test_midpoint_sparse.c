/* test_midpoint_sparse.c — the sparse twins optimized/fe2d_sparse.c and
 * optimized/midpoint_sparse.c against the dense references: assembled
 * matrices, the low-rank redistributed mass, and the midpoint scheme step
 * by step (states, contact forces, energy) on random FE blocks for the four
 * situations of 002 §7; Prop. 5.1 quantities through the sparse stepper;
 * bad input. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <gsl/gsl_blas.h>

#include "optimized/fe2d_sparse.h"
#include "optimized/midpoint_sparse.h"
#include "testkit/fl_random.h"
#include "models/fl_model_square_block.h"
#include "fl_rng.h"
#include "checks/twins.h"

static fl_midpoint_block_params random_params(gsl_rng *r, fl_redist_kind kind)
{
    fl_random_block_options o = fl_random_block_options_default();
    o.mu_max = 2.0;
    o.moving_foundation = 1;
    return fl_random_midpoint_block(r, &o, kind);
}

static double rel_diff(const double *a, const double *b, size_t n)
{
    double d = 0, s = 1e-300;
    for (size_t i = 0; i < n; i++) {
        d = fmax(d, fabs(a[i] - b[i]));
        s = fmax(s, fmax(fabs(a[i]), fabs(b[i])));
    }
    return d / s;
}

Test(midpoint_sparse, assembly_and_low_rank_mass_match_the_dense_reference)
{
    gsl_rng *r = fl_test_rng(71);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    cr_assert_eq(fl_sparse_start(&ctx, NULL), FL_OK);
    for (int trial = 0; trial < 9; trial++) {
        fl_midpoint_block_params bp = random_params(r, (fl_redist_kind)(trial % 3));
        fl_midpoint_block *d;
        fl_midpoint_block_sparse *s;
        fl_error e;
        cr_assert_eq(fl_midpoint_block_alloc(&bp, &d, &e), FL_OK, "%s", e.message);
        cr_assert_eq(fl_midpoint_block_alloc_sparse(&ctx, &bp, 100000, &s, &e), FL_OK, "%s", e.message);
        size_t n = d->prob.n;
        cr_assert_eq(s->prob.n, n);
        cr_assert_eq(s->prob.nc, d->prob.nc);
        cr_assert_lt(rel_diff(s->f->data, d->f->data, n), 1e-13, "load");
        gsl_matrix *A, *Mr0;
        cr_assert_eq(fl_sparse_to_dense(&ctx, s->A, &A, NULL), FL_OK);
        cr_assert_eq(fl_sparse_to_dense(&ctx, s->Mr0, &Mr0, NULL), FL_OK);
        cr_assert_lt(rel_diff(A->data, d->A->data, n * n), 1e-13, "stiffness");
        if (s->U) {   /* M_r = Mr0 + U K U^T */
            gsl_matrix *UK = gsl_matrix_alloc(n, s->U->size2);
            gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, s->U, s->K, 0.0, UK);
            gsl_blas_dgemm(CblasNoTrans, CblasTrans, 1.0, UK, s->U, 1.0, Mr0);
            gsl_matrix_free(UK);
        }
        cr_assert_lt(rel_diff(Mr0->data, d->Mr->data, n * n), 1e-11, "redistributed mass (kind %d) %s",
                     trial % 3, fl_test_seed_note());
        cr_assert_lt(rel_diff(s->Bnu_d->data, d->Bnu->data, d->Bnu->size1 * n), 1e-15);
        cr_assert_lt(rel_diff(s->Btau_d->data, d->Btau->data, d->Btau->size1 * n), 1e-15);
        gsl_matrix_free(A);
        gsl_matrix_free(Mr0);
        fl_midpoint_block_free(d);
        fl_midpoint_block_free_sparse(s);
    }
    fl_sparse_finish(&ctx);
    gsl_rng_free(r);
}

/* The one harness (checks/twins.h, also behind crosscheck --law midpoint):
 * same problem, same options, every type of fl_midpoint_types advanced from
 * the reference's state at every step; everything compared. */
Test(midpoint_sparse, reference_and_optimized_agree_step_by_step)
{
    gsl_rng *r = fl_test_rng(72);
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_sparse_start(&ctx, NULL);
    fl_twins_midpoint_stats all = fl_twins_midpoint_stats_init();
    for (int trial = 0; trial < 16; trial++) {
        fl_midpoint_block_params bp = random_params(r, (fl_redist_kind)(trial % 3));
        /* moderate F: the step problems have one solution, so both
         * implementations must find the same one (002 §6, Remark 4.5) */
        bp.mu = fl_rng_loguniform(r, 0.05, 0.5);
        fl_midpoint_block *d;
        fl_midpoint_block_sparse *s;
        cr_assert_eq(fl_midpoint_block_alloc(&bp, &d, NULL), FL_OK);
        cr_assert_eq(fl_midpoint_block_alloc_sparse(&ctx, &bp, 100000, &s, NULL), FL_OK);
        fl_midpoint_options o = fl_midpoint_options_default();
        o.dt = fl_rng_loguniform(r, 0.005, 0.05);
        o.contact = (fl_midpoint_contact)((trial / 3) % 2);
        o.tol = 1e-14;
        fl_midpoint_state *a;
        fl_midpoint_state_alloc(d->prob.n, d->prob.nc, &a, NULL);
        fl_midpoint_static(&d->prob, a->u, NULL);
        fl_random_vector(r, 0.3, a->v);
        const fl_midpoint_problem *const p[2] = {&d->prob, &s->prob};
        fl_twins_midpoint_stats x = fl_twins_midpoint_stats_init();
        cr_assert_eq(fl_twins_midpoint(p, &o, a, 60, &x), 60, "trial %d %s", trial, fl_test_seed_note());
        cr_assert_lt(x.delassus, 1e-10, "Delassus, trial %d %s", trial, fl_test_seed_note());
        cr_assert_lt(x.du, 1e-9, "u, trial %d: %g %s", trial, x.du, fl_test_seed_note());
        cr_assert_lt(x.dv, 1e-8, "v, trial %d: %g %s", trial, x.dv, fl_test_seed_note());
        cr_assert_lt(x.dy, 1e-7, "y, trial %d: %g %s", trial, x.dy, fl_test_seed_note());
        cr_assert_lt(x.energy, 1e-8, "energy, trial %d: %g %s", trial, x.energy, fl_test_seed_note());
        cr_assert_lt(x.identity[1], 1e-9, "energy identity (sparse), trial %d %s", trial, fl_test_seed_note());
        if (bp.v_found == 0.0)   /* Prop. 5.1 setting */
            cr_assert_leq(x.friction[1], 1e-12, "friction work <= 0 (sparse) %s", fl_test_seed_note());
        cr_assert_lt(x.residual[1], 1e-8);
        all.du = fmax(all.du, fmax(x.du, fmax(x.dv, x.dy)));
        fl_midpoint_state_free(a);
        fl_midpoint_block_free(d);
        fl_midpoint_block_free_sparse(s);
    }
    cr_log_info("largest relative difference reference/optimized: %g", all.du);
    fl_sparse_finish(&ctx);
    gsl_rng_free(r);
}

Test(midpoint_sparse, enumeration_through_the_sparse_stepper)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_sparse_start(&ctx, NULL);
    fl_model_square_block m002;
    fl_error e002;
    cr_assert_eq(fl_model_square_block_load_data(NULL, &m002, &e002), FL_OK, "%s", e002.message);
    fl_midpoint_block_params bp = m002.block;
    bp.nx = 2;
    bp.ny = 2;
    bp.v_found = 0.0;
    fl_midpoint_block *d;
    fl_midpoint_block_sparse *s;
    cr_assert_eq(fl_midpoint_block_alloc(&bp, &d, NULL), FL_OK);
    cr_assert_eq(fl_midpoint_block_alloc_sparse(&ctx, &bp, 100000, &s, NULL), FL_OK);
    fl_midpoint_options o = fl_midpoint_options_default();
    o.dt = 1e-5;
    o.solver = FL_MIDPOINT_LOCAL_ENUM;
    fl_midpoint *mr;
    fl_midpoint_sparse *ms;
    cr_assert_eq(fl_midpoint_alloc(&d->prob, &o, &mr, NULL), FL_OK);
    cr_assert_eq(fl_midpoint_alloc_sparse(&s->prob, &o, &ms, NULL), FL_OK);
    fl_midpoint_state *a, *b;
    fl_midpoint_state_alloc(d->prob.n, d->prob.nc, &a, NULL);
    fl_midpoint_state_alloc(d->prob.n, d->prob.nc, &b, NULL);
    fl_midpoint_static(&d->prob, a->u, NULL);
    gsl_vector_memcpy(b->u, a->u);
    for (int k = 0; k < 10; k++) {
        fl_midpoint_result ra, rb;
        cr_assert_geq(fl_midpoint_step(mr, a, &ra, NULL), FL_OK);
        cr_assert_geq(fl_midpoint_step_sparse(ms, b, &rb, NULL), FL_OK);
        cr_assert_eq(ra.nsolutions, rb.nsolutions);
        cr_assert_lt(rel_diff(a->u->data, b->u->data, d->prob.n), 1e-8);
    }
    fl_midpoint_state_free(a);
    fl_midpoint_state_free(b);
    fl_midpoint_free(mr);
    fl_midpoint_free_sparse(ms);
    fl_midpoint_block_free(d);
    fl_midpoint_block_free_sparse(s);
    fl_sparse_finish(&ctx);
}

Test(midpoint_sparse, bad_input)
{
    fl_sparse_ctx ctx;
    memset(&ctx, 0, sizeof ctx);
    fl_sparse_start(&ctx, NULL);
    fl_model_square_block m002;
    fl_error e002;
    cr_assert_eq(fl_model_square_block_load_data(NULL, &m002, &e002), FL_OK, "%s", e002.message);
    fl_midpoint_block_params bp = m002.block;
    bp.nx = 2;
    bp.ny = 2;
    fl_midpoint_block_sparse *s;
    fl_error e;
    cr_assert_eq(fl_midpoint_block_alloc_sparse(&ctx, &bp, 0, &s, &e), FL_OK);
    cr_assert_null(s->Bnu_d, "dense rows only under the limit");
    fl_midpoint_problem p = s->prob;
    fl_midpoint_options o = fl_midpoint_options_default();
    fl_midpoint_sparse *ms = (fl_midpoint_sparse *)1;
    o.dt = 0;
    cr_assert_eq(fl_midpoint_alloc_sparse(&p, &o, &ms, &e), FL_EINVAL);
    cr_assert_null(ms);
    o = fl_midpoint_options_default();
    o.contact = (fl_midpoint_contact)3;
    cr_assert_eq(fl_midpoint_alloc_sparse(&p, &o, &ms, &e), FL_EINVAL);
    o = fl_midpoint_options_default();
    o.solver = (fl_midpoint_local)3;
    cr_assert_eq(fl_midpoint_alloc_sparse(&p, &o, &ms, &e), FL_EINVAL);
    o = fl_midpoint_options_default();
    o.solver = FL_MIDPOINT_LOCAL_ENUM;
    o.enum_max_contacts = 1;
    cr_assert_eq(fl_midpoint_alloc_sparse(&p, &o, &ms, &e), FL_EINVAL);
    o = fl_midpoint_options_default();
    p.mu = NAN;
    cr_assert_eq(fl_midpoint_alloc_sparse(&p, &o, &ms, &e), FL_EINVAL);
    p = s->prob;
    p.A_s = NULL;
    cr_assert_eq(fl_midpoint_alloc_sparse(&p, &o, &ms, &e), FL_EDIM);
    p = s->prob;
    p.K = NULL;
    cr_assert_eq(fl_midpoint_alloc_sparse(&p, &o, &ms, &e), FL_EDIM);
    p = s->prob;
    p.nc = 0;
    cr_assert_eq(fl_midpoint_alloc_sparse(&p, &o, &ms, &e), FL_EDIM);
    p = s->prob;
    p.Bnu_s = s->A;      /* symmetric: not a row matrix */
    cr_assert_eq(fl_midpoint_alloc_sparse(&p, &o, &ms, &e), FL_EDIM);
    p = s->prob;
    cr_assert_eq(fl_midpoint_alloc_sparse(&p, &o, &ms, &e), FL_OK);
    fl_midpoint_state *st;
    fl_midpoint_state_alloc(p.n + 2, p.nc, &st, NULL);
    cr_assert_eq(fl_midpoint_step_sparse(ms, st, NULL, &e), FL_EDIM);
    fl_midpoint_state_free(st);
    fl_midpoint_free_sparse(ms);
    fl_midpoint_free_sparse(NULL);
    /* fe2d_sparse: map of the wrong size */
    fl_fe2d_dofmap *map;
    int z = 0;
    fl_fe2d_dofmap_alloc(4, 1, &z, NULL, &map, NULL);
    cholmod_sparse *K;
    cr_assert_eq(fl_fe2d_assemble_sparse(&ctx, s->mesh, &bp.mat, FL_FE2D_STIFFNESS, map, &K, NULL, &e), FL_EDIM);
    fl_fe2d_dofmap_free(map);
    fl_midpoint_block_free_sparse(s);
    fl_midpoint_block_free_sparse(NULL);
    bp.nx = 0;
    cr_assert_eq(fl_midpoint_block_alloc_sparse(&ctx, &bp, 0, &s, &e), FL_EINVAL);
    fl_sparse_finish(&ctx);
}
