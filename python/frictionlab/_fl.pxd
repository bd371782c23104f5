# _fl.pxd -- the C declarations of libfrictionlab the Python module uses
# (frictionlab.h and the headers it includes; cli/xval_cmd.h for the
# in-process crosscheck).  Only the fields read or written here are listed.
from libc.stdio cimport FILE

cdef extern from "gsl/gsl_vector.h" nogil:
    ctypedef struct gsl_block:
        pass
    ctypedef struct gsl_vector:
        size_t size
        size_t stride
        double *data
        gsl_block *block
        int owner

cdef extern from "gsl/gsl_matrix.h" nogil:
    ctypedef struct gsl_matrix:
        size_t size1
        size_t size2
        size_t tda
        double *data
        gsl_block *block
        int owner

cdef extern from "cholmod.h" nogil:
    ctypedef struct cholmod_sparse:
        size_t nrow
        size_t ncol
        size_t nzmax
        void *p
        void *i
        void *nz
        void *x
        void *z
        int stype
        int itype
        int xtype
        int dtype
        int sorted
        int packed
    enum:
        CHOLMOD_INT
        CHOLMOD_REAL
        CHOLMOD_DOUBLE

cdef extern from "frictionlab.h" nogil:
    ctypedef int fl_status
    enum:
        FL_OK
        FL_EINVAL
        FL_WMAXITER
    ctypedef struct fl_error:
        fl_status status
        char message[512]
        char file[256]
        int line
        int column
    void fl_error_clear(fl_error *err)
    const char *fl_strerror(fl_status s)

    ctypedef struct fl_sparse_ctx:
        int started
    fl_status fl_sparse_start(fl_sparse_ctx *ctx, fl_error *err)
    void fl_sparse_finish(fl_sparse_ctx *ctx)

    ctypedef struct fl_local_problem:
        size_t nc
        int dim
        size_t m
        gsl_matrix *W
        cholmod_sparse *Ws
        gsl_vector *q
        double *mu
        fl_sparse_ctx *ctx
    ctypedef struct fl_global_problem:
        size_t n
        size_t nc
        int dim
        size_t m
        gsl_matrix *M
        cholmod_sparse *Ms
        gsl_matrix *H
        cholmod_sparse *Hs
        gsl_vector *f
        gsl_vector *w
        double *mu
        fl_sparse_ctx *ctx
    void fl_local_problem_free(fl_local_problem *p)
    void fl_global_problem_free(fl_global_problem *g)
    fl_status fl_local_problem_check(const fl_local_problem *p, fl_error *err)
    fl_status fl_global_problem_check(const fl_global_problem *g, fl_error *err)

    ctypedef struct fl_read_options:
        size_t max_bytes
    fl_read_options fl_read_options_default()

    ctypedef struct fl_fclib_solution:
        size_t n
        size_t m
        double *v
        double *u
        double *r
    fl_status fl_fclib_solution_alloc(size_t n, size_t m, fl_fclib_solution **out, fl_error *err)
    void fl_fclib_solution_free(fl_fclib_solution *s)
    int fl_fclib_is_hdf5(const char *path)
    enum:
        FL_FCLIB_VET_PROBLEM
    fl_status fl_fclib_vet(const char *path, const fl_read_options *opt, int parts, fl_error *err)
    fl_status fl_fclib_kind(const char *path, int *kind, fl_error *err)
    fl_status fl_fclib_read_local_opt(const char *path, int dense, fl_sparse_ctx *ctx,
                                      const fl_read_options *opt, fl_local_problem **out,
                                      fl_error *err)
    fl_status fl_fclib_read_global_opt(const char *path, int dense, fl_sparse_ctx *ctx,
                                       const fl_read_options *opt, fl_global_problem **out,
                                       fl_error *err)
    fl_status fl_fclib_write_local(const char *path, const fl_local_problem *p, const char *title,
                                   fl_error *err)
    fl_status fl_fclib_write_global(const char *path, const fl_global_problem *g,
                                    const char *title, fl_error *err)
    fl_status fl_fclib_write_solution(const char *path, const fl_fclib_solution *s, fl_error *err)
    fl_status fl_siconos_text_kind(const char *path, int *kind, fl_error *err)
    fl_status fl_siconos_text_read_local(const char *path, int dense, fl_sparse_ctx *ctx,
                                         const fl_read_options *opt, fl_local_problem **out,
                                         fl_error *err)
    fl_status fl_siconos_text_read_global(const char *path, int dense, fl_sparse_ctx *ctx,
                                          const fl_read_options *opt, fl_global_problem **out,
                                          fl_error *err)
    fl_status fl_siconos_text_write(const char *path, const fl_local_problem *p, fl_error *err)
    fl_status fl_siconos_text_write_global(const char *path, const fl_global_problem *g,
                                           fl_error *err)

    ctypedef enum fl_residual_norm:
        FL_RESIDUAL_NORM_Q
        FL_RESIDUAL_ONE_PLUS_NORM_Q
        FL_RESIDUAL_MAX_NORM
        FL_RESIDUAL_ABSOLUTE
    double fl_residual_natural_map(int dim, size_t nc, const double *mu, const double *r,
                                   const double *U, double norm_q, fl_residual_norm kind)
    fl_status fl_residual_local(const fl_local_problem *p, const gsl_vector *r, gsl_vector *U,
                                fl_residual_norm kind, double *out, fl_error *err)

cdef extern from "drivers/fl_types.h" nogil:
    ctypedef enum fl_impl:
        FL_IMPL_REFERENCE
        FL_IMPL_OPTIMIZED

cdef extern from "drivers/solve.h" nogil:
    ctypedef enum fl_solver_kind:
        FL_SOLVER_GS
        FL_SOLVER_NEWTON
        FL_SOLVER_AUTO
    ctypedef enum fl_solve_stop:
        FL_SOLVE_STOP_TOL
        FL_SOLVE_STOP_MAXITER
        FL_SOLVE_STOP_STALLED
        FL_SOLVE_STOP_ERROR
        FL_SOLVE_STOP_TIMEOUT
    ctypedef struct fl_solve_options:
        fl_solver_kind solver
        fl_impl impl
        double tol
        fl_residual_norm norm
        int max_sweeps
        int max_newton
        int auto_gs_sweeps
        int warm
        double time_limit
    ctypedef struct fl_solve_result:
        fl_status status
        fl_solver_kind finished_by
        fl_solve_stop stop
        int gs_sweeps
        int newton_steps
        double residual
        double residual_norm_q
        double residual_max_norm
        double seconds
    fl_solve_options fl_solve_options_default()
    fl_status fl_solve_parse_solver(const char *name, fl_solver_kind *out, fl_error *err)
    const char *fl_solve_solver_name(fl_solver_kind k)
    const char *fl_solve_stop_name(fl_solve_stop s)
    fl_status fl_solve_local(const fl_local_problem *p, const fl_solve_options *opt,
                             gsl_vector *r, gsl_vector *U, fl_solve_result *res, fl_error *err)
    fl_status fl_solve_global(const fl_global_problem *g, const fl_solve_options *opt,
                              gsl_vector *v, gsl_vector *r, gsl_vector *U,
                              fl_solve_result *res, fl_error *err)

cdef extern from "xval_cmd.h" nogil:
    ctypedef int (*fl_xval_solver_fn)(const fl_local_problem *p, double *r, double *u,
                                      void *user, char *msg, size_t msglen)
    ctypedef struct fl_cli_ctx:
        const char *out_dir
        long systems
        unsigned long seed
        const char *law
        const char *solver_cmd
        const char *family
        double timeout
        int full
        int systems_set
        const char *corpus_dir
        long passed
        long failed
        int progress
    int fl_cli_xval_crosscheck_fn(fl_cli_ctx *ctx, fl_xval_solver_fn fn, void *user,
                                  const char *label)
