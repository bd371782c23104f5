/* fl_types.h — the twins of every law as one type table per law, as GSL's
 * solver types (gsl_multiroot_fsolver_hybrids): fl_<law>_types[] holds the
 * reference entry at FL_IMPL_REFERENCE, the optimized one at
 * FL_IMPL_OPTIMIZED, and ends with an entry whose name is NULL, so that a
 * driver, a check or a test loops over the types and never names a twin:
 *
 *   for (const fl_p4_type *t = fl_p4_types; t->name; t++) t->step(...);
 *
 * One contract per law: every entry of a table has the same signature and
 * takes the same options type; the entries are the public twins themselves
 * (Delassus, quasistatic and stability take the problem in both storages,
 * dense fields for the reference and sparse for the optimized twin, as
 * fl_local_problem does, and twin-specific tuning sits in the options'
 * sub-struct `sparse`), but midpoint's, whose steppers are typed handles,
 * are adapted behind an opaque one.  NULL options mean the documented
 * defaults (fl_<law>_options_default) for every law.
 *
 * Laws (paper, section): nsgs and delassus 003 §3, 004 (18)-(21); newton
 * Alart & Curnier 1991; ppa Acary, Brémond & Huber 2018 (ppa.h); moreau 000 §2; p4 001 §5; stewart 001 §6.2;
 * quasistatic 004 §5.3 (112)-(117); stability 004 §5.4, §5.7; midpoint
 * 002 (20)-(23).
 *
 * Paper 003: J. J. Moreau, "Facing the plurality of solutions in nonsmooth
 * mechanics", Nonsmooth/Nonconvex Mechanics with Applications in
 * Engineering, Thessaloniki, 2006, pp. 3-12.
 * Paper 004: J. A. C. Martins, S. Barbarin, M. Raous, A. Pinto da Costa,
 * "Dynamic stability of finite dimensional linearly elastic systems with
 * unilateral contact and Coulomb friction", Comput. Methods Appl. Mech.
 * Engrg. 177 (3-4), 289-328, 1999.
 * Paper 000: "Asymptotic properties of Moreau's discrete contact law"
 * (the copy worked from carries neither authors nor journal).
 * Paper 001: A. Charles, P. Ballard, "The formulation of dynamical contact
 * problems with friction in the case of systems of rigid bodies and general
 * discrete mechanical systems - Painleve and Kane paradoxes revisited",
 * Z. Angew. Math. Phys. 67 (4), 2016, doi:10.1007/s00033-016-0688-1.
 * Paper 002: T. Ligursky, Y. Renard, "A well-posed semi-discretization of
 * elastodynamic contact problems with friction", Quart. J. Mech. Appl.
 * Math. 64 (2), 215-238, 2011, doi:10.1093/qjmam/hbr004.
 */
#ifndef FL_TYPES_H
#define FL_TYPES_H

#include "optimized/delassus_sparse.h"
#include "optimized/midpoint_sparse.h"
#include "optimized/moreau_law_sparse.h"
#include "optimized/newton_sparse.h"
#include "optimized/nsgs_sparse.h"
#include "optimized/p4_law_sparse.h"
#include "optimized/ppa_sparse.h"
#include "optimized/quasistatic_sparse.h"
#include "optimized/stability_sparse.h"
#include "optimized/stewart_law_sparse.h"

typedef enum fl_impl {
    FL_IMPL_REFERENCE = 0,   /* dense, paper-faithful (reference/) */
    FL_IMPL_OPTIMIZED = 1    /* sparse (CHOLMOD, optimized/) */
} fl_impl;
#define FL_IMPL_COUNT 2

/* "reference" or "optimized"; NULL for another value. */
const char *fl_impl_name(fl_impl impl);
/* The impl named name; FL_ENOTFOUND (and *out unchanged) for another name. */
fl_status fl_impl_parse(const char *name, fl_impl *out, fl_error *err);

/* ---- Delassus W = H M^-1 H^T, q = H M^-1 f + w (003 §3) ---------------- */
/* The contract of fl_delassus_dense and fl_delassus_sparse
 * (reference/delassus.h): the entries are the public twins themselves. */
typedef fl_status (*fl_delassus_fn)(const fl_global_problem *g, const fl_delassus_options *opt,
                                    cholmod_factor **L, fl_local_problem **out, fl_error *err);
typedef struct fl_delassus_type {
    const char *name;
    fl_delassus_fn delassus;
} fl_delassus_type;
extern const fl_delassus_type fl_delassus_types[];

/* ---- Gauss-Seidel (003 §3) and what a stepper needs around it --------- */
typedef fl_status (*fl_nsgs_solve_fn)(const fl_local_problem *p, const fl_nsgs_options *opt,
                                      gsl_vector *r, gsl_vector *U, fl_nsgs_result *res,
                                      fl_error *err);
/* u = M^-1 b with the M of g; *L the factor cache filled by delassus. */
typedef fl_status (*fl_nsgs_mass_solve_fn)(const fl_global_problem *g, cholmod_factor **L,
                                           const gsl_vector *b, gsl_vector *u, fl_error *err);
typedef struct fl_nsgs_type {
    const char *name;
    fl_delassus_fn delassus;     /* the law's Delassus twin (fl_delassus_types) */
    fl_nsgs_solve_fn solve;
    fl_nsgs_mass_solve_fn mass_solve;
    /* degenerate problems refused, naming the contact (fl_nsgs_check_blocks) */
    fl_status (*check_blocks)(const fl_local_problem *p, fl_error *err);
} fl_nsgs_type;
extern const fl_nsgs_type fl_nsgs_types[];
/* &fl_nsgs_types[impl], NULL for an unknown value. */
const fl_nsgs_type *fl_nsgs_type_get(fl_impl impl);

/* ---- semismooth Newton on the Alart-Curnier function ----------------- */
typedef fl_status (*fl_newton_solve_fn)(const fl_local_problem *p, const fl_newton_options *opt,
                                        gsl_vector *r, gsl_vector *U, fl_newton_result *res,
                                        fl_error *err);
typedef fl_status (*fl_newton_global_fn)(const fl_global_problem *g, const fl_newton_options *opt,
                                         gsl_vector *v, gsl_vector *r, gsl_vector *U,
                                         fl_newton_result *res, fl_error *err);
typedef struct fl_newton_type {
    const char *name;
    fl_newton_solve_fn solve;
    fl_newton_global_fn global_solve;
} fl_newton_type;
extern const fl_newton_type fl_newton_types[];

/* ---- proximal point with the Newton inner solver (reference/ppa.h) --- */
/* The contract of fl_ppa_solve and fl_ppa_solve_sparse. */
typedef fl_status (*fl_ppa_solve_fn)(const fl_local_problem *p, const fl_ppa_options *opt,
                                     gsl_vector *r, gsl_vector *U, fl_ppa_result *res,
                                     fl_error *err);
typedef struct fl_ppa_type {
    const char *name;
    fl_ppa_solve_fn solve;
} fl_ppa_type;
extern const fl_ppa_type fl_ppa_types[];

/* ---- Moreau's contact law S(q, v) (000 §2) ---------------------------- */
typedef fl_status (*fl_moreau_law_fn)(const fl_moreau_problem *p, const fl_moreau_options *opt,
                                      gsl_vector *u, gsl_vector *r, fl_moreau_result *res,
                                      fl_error *err);
typedef struct fl_moreau_type {
    const char *name;
    fl_moreau_law_fn law;
} fl_moreau_type;
extern const fl_moreau_type fl_moreau_types[];

/* ---- P'4 step (001 §5) ------------------------------------------------ */
typedef fl_status (*fl_p4_step_fn)(const fl_p4_problem *p, const gsl_vector *v_minus,
                                   const gsl_vector *impulse, const fl_p4_impact_law *law,
                                   const fl_p4_options *opt, fl_p4_step_result *res, fl_error *err);
typedef struct fl_p4_type {
    const char *name;
    fl_p4_step_fn step;
} fl_p4_type;
extern const fl_p4_type fl_p4_types[];

/* ---- Stewart's P5 step (001 §6.2) ------------------------------------- */
typedef fl_status (*fl_stewart_step_fn)(const fl_stewart_problem *p, const fl_stewart_options *opt,
                                        fl_stewart_result *res, fl_error *err);
typedef struct fl_stewart_type {
    const char *name;
    fl_stewart_step_fn step;
} fl_stewart_type;
extern const fl_stewart_type fl_stewart_types[];

/* ---- quasistatic increment (004 §5.3) --------------------------------- */
/* The contract of fl_quasistatic_step and fl_quasistatic_step_sparse. */
typedef fl_status (*fl_quasistatic_step_fn)(const fl_quasistatic_system *s, const gsl_vector *f,
                                            const gsl_vector *uk, gsl_vector *g, gsl_vector *u,
                                            gsl_vector *r, const fl_quasistatic_options *opt,
                                            fl_quasistatic_result *res, fl_error *err);
typedef struct fl_quasistatic_type {
    const char *name;
    fl_quasistatic_step_fn step;
} fl_quasistatic_type;
extern const fl_quasistatic_type fl_quasistatic_types[];

/* ---- stability analysis of one state (004 §5.4) ----------------------- */
/* The contract of fl_stability_analyse and fl_stability_analyse_sparse. */
typedef fl_status (*fl_stability_analyse_fn)(const fl_stability_tangents *t,
                                             const fl_stability_options *opt,
                                             fl_stability_result *res, fl_error *err);
typedef struct fl_stability_type {
    const char *name;
    fl_stability_analyse_fn analyse;
} fl_stability_type;
extern const fl_stability_type fl_stability_types[];

/* ---- midpoint stepper (002 (20)-(23)) --------------------------------- */
/* The problem carries both storages (fl_midpoint_problem); a stepper is an
 * opaque handle of its type. */
typedef struct fl_midpoint_type {
    const char *name;
    fl_status (*alloc)(const fl_midpoint_problem *p, const fl_midpoint_options *opt, void **out,
                       fl_error *err);
    fl_status (*step)(void *mp, fl_midpoint_state *st, fl_midpoint_result *res, fl_error *err);
    double (*energy)(void *mp, const gsl_vector *u, const gsl_vector *v);
    void (*free)(void *mp);
} fl_midpoint_type;
extern const fl_midpoint_type fl_midpoint_types[];

#endif
