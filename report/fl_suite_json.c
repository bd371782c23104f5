/* fl_suite_json.c — suite.json (writer and reader) and suite.csv of a
 * benchmark suite (fl_suite.h). */
#include "fl_suite.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jansson.h>

/* ------------------------------------------------------------------ */
/* suite.json                                                          */
/* ------------------------------------------------------------------ */

static json_t *num(double x)
{
    if (isnan(x)) return json_string("nan");
    if (isinf(x)) return json_string(x > 0 ? "inf" : "-inf");
    return json_real(x);
}

static json_t *str(const char *s)
{
    return s ? json_string(s) : json_null();
}

static json_t *row_json(const fl_suite_row *r)
{
    json_t *o = json_object();
    if (!o) return NULL;
    json_object_set_new(o, "solver", str(r->solver));
    json_object_set_new(o, "problem", str(r->problem));
    json_object_set_new(o, "set", str(r->set));
    json_object_set_new(o, "dim", json_integer(r->dim));
    json_object_set_new(o, "nc", json_integer((json_int_t)r->nc));
    json_object_set_new(o, "tol", num(r->tol));
    json_object_set_new(o, "seconds", num(r->seconds));
    json_object_set_new(o, "exit", json_integer(r->exit_code));
    json_object_set_new(o, "timed_out", json_boolean(r->timed_out));
    json_object_set_new(o, "claimed", json_boolean(r->claimed));
    json_object_set_new(o, "have_solution", json_boolean(r->have_solution));
    json_object_set_new(o, "err_q", num(r->err[FL_SUITE_NORM_Q]));
    json_object_set_new(o, "err_siconos", num(r->err[FL_SUITE_NORM_SICONOS]));
    json_object_set_new(o, "err_fclib", num(r->err[FL_SUITE_NORM_FCLIB]));
    json_object_set_new(o, "solved", json_boolean(r->solved));
    json_object_set_new(o, "concurrent", json_boolean(r->concurrent));
    json_object_set_new(o, "note", str(r->note));
    return o;
}

fl_status fl_suite_write_json(const fl_suite *s, const char *path, fl_error *err)
{
    json_t *o = json_object(), *tols = json_array(), *sol = json_array(), *rows = json_array();
    if (!o || !tols || !sol || !rows) {
        json_decref(o);
        json_decref(tols);
        json_decref(sol);
        json_decref(rows);
        return FL_FAIL(err, FL_ENOMEM, "%s: out of memory", path);
    }
    json_object_set_new(o, "format", json_string(FL_SUITE_FORMAT));
    json_object_set_new(o, "version", str(s->version));
    json_object_set_new(o, "commit", str(s->commit));
    json_object_set_new(o, "started", str(s->started));
    json_object_set_new(o, "command", str(s->command));
    json_object_set_new(o, "cpu", str(s->cpu));
    json_object_set_new(o, "cores", json_integer(s->cores));
    json_object_set_new(o, "versions", str(s->versions));
    json_object_set_new(o, "time_limit", num(s->time_limit));
    json_object_set_new(o, "normalisation", json_string(fl_suite_norm_name(s->norm)));
    json_object_set_new(o, "shift", num(s->shift));
    json_object_set_new(o, "shell_start", num(s->shell_start));
    json_object_set_new(o, "jobs", json_integer(s->jobs));
    json_object_set_new(o, "shard_k", json_integer(s->shard_k));
    json_object_set_new(o, "shard_n", json_integer(s->shard_n));
    for (size_t i = 0; i < s->ntols; i++) json_array_append_new(tols, num(s->tols[i]));
    json_object_set_new(o, "tols", tols);
    for (size_t i = 0; i < s->nsolvers; i++) {
        json_t *v = json_object();
        json_object_set_new(v, "name", str(s->solvers[i].name));
        json_object_set_new(v, "kind", str(s->solvers[i].kind));
        json_object_set_new(v, "command", str(s->solvers[i].command));
        json_object_set_new(v, "start_cost", num(s->solvers[i].start_cost));
        json_array_append_new(sol, v);
    }
    json_object_set_new(o, "solvers", sol);
    for (size_t i = 0; i < s->nrows; i++) json_array_append_new(rows, row_json(&s->rows[i]));
    json_object_set_new(o, "rows", rows);
    int rc = json_dump_file(o, path, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
    json_decref(o);
    return rc == 0 ? FL_OK : FL_FAIL(err, FL_EIO, "%s: cannot write", path);
}

/* Readers of one member; each names the file and the field on error. */
typedef struct rd {
    const char *path;
    const char *where;   /* "rows[12]" or "" */
    fl_error *err;
} rd;

static fl_status get_num(const rd *c, json_t *o, const char *key, double *out)
{
    json_t *v = json_object_get(o, key);
    if (json_is_number(v)) {
        *out = json_number_value(v);
        return FL_OK;
    }
    const char *t = json_string_value(v);
    if (t && strcmp(t, "nan") == 0) *out = NAN;
    else if (t && strcmp(t, "inf") == 0) *out = INFINITY;
    else if (t && strcmp(t, "-inf") == 0) *out = -INFINITY;
    else return FL_FAIL(c->err, FL_EPARSE, "%s: %s%s%s: a number is expected", c->path, c->where,
                        c->where[0] ? "." : "", key);
    return FL_OK;
}

static fl_status get_int(const rd *c, json_t *o, const char *key, long *out)
{
    json_t *v = json_object_get(o, key);
    if (json_is_integer(v)) *out = (long)json_integer_value(v);
    else if (json_is_boolean(v)) *out = json_is_true(v);
    else return FL_FAIL(c->err, FL_EPARSE, "%s: %s%s%s: an integer is expected", c->path,
                        c->where, c->where[0] ? "." : "", key);
    return FL_OK;
}

/* A string member copied into *dst (null: NULL). */
static fl_status get_str(const rd *c, json_t *o, const char *key, char **dst)
{
    json_t *v = json_object_get(o, key);
    if (json_is_null(v) || !v) return fl_suite_set(dst, NULL);
    if (!json_is_string(v))
        return FL_FAIL(c->err, FL_EPARSE, "%s: %s%s%s: a string is expected", c->path, c->where,
                       c->where[0] ? "." : "", key);
    return fl_suite_set(dst, json_string_value(v)) == FL_OK
               ? FL_OK : FL_FAIL(c->err, FL_ENOMEM, "%s: out of memory", c->path);
}

static fl_status read_row(const rd *c, json_t *o, fl_suite *s)
{
    fl_suite_row r;
    memset(&r, 0, sizeof r);
    long dim = 0, nc = 0, ex = 0, to = 0, cl = 0, hs = 0, so = 0, cc = 0;
    fl_status st = FL_OK;
    if (!json_is_object(o)) return FL_FAIL(c->err, FL_EPARSE, "%s: %s: an object is expected", c->path, c->where);
    if (st == FL_OK) st = get_str(c, o, "solver", &r.solver);
    if (st == FL_OK) st = get_str(c, o, "problem", &r.problem);
    if (st == FL_OK) st = get_str(c, o, "set", &r.set);
    if (st == FL_OK) st = get_str(c, o, "note", &r.note);
    if (st == FL_OK && (!r.solver || !r.problem || !r.set))
        st = FL_FAIL(c->err, FL_EPARSE, "%s: %s: solver, problem and set are required", c->path, c->where);
    if (st == FL_OK) st = get_int(c, o, "dim", &dim);
    if (st == FL_OK) st = get_int(c, o, "nc", &nc);
    if (st == FL_OK) st = get_num(c, o, "tol", &r.tol);
    if (st == FL_OK) st = get_num(c, o, "seconds", &r.seconds);
    if (st == FL_OK) st = get_int(c, o, "exit", &ex);
    if (st == FL_OK) st = get_int(c, o, "timed_out", &to);
    if (st == FL_OK) st = get_int(c, o, "claimed", &cl);
    if (st == FL_OK) st = get_int(c, o, "have_solution", &hs);
    if (st == FL_OK) st = get_num(c, o, "err_q", &r.err[FL_SUITE_NORM_Q]);
    if (st == FL_OK) st = get_num(c, o, "err_siconos", &r.err[FL_SUITE_NORM_SICONOS]);
    if (st == FL_OK) st = get_num(c, o, "err_fclib", &r.err[FL_SUITE_NORM_FCLIB]);
    if (st == FL_OK) st = get_int(c, o, "solved", &so);
    if (st == FL_OK) st = get_int(c, o, "concurrent", &cc);
    if (st == FL_OK && (nc < 0 || (dim != 2 && dim != 3)))
        st = FL_FAIL(c->err, FL_EPARSE, "%s: %s: dim %ld / nc %ld out of range", c->path, c->where, dim, nc);
    r.dim = (int)dim, r.nc = (size_t)nc, r.exit_code = (int)ex, r.timed_out = to != 0;
    r.claimed = cl != 0, r.have_solution = hs != 0, r.solved = so != 0, r.concurrent = cc != 0;
    if (st == FL_OK && fl_suite_row_add(s, &r) != FL_OK)
        st = FL_FAIL(c->err, FL_ENOMEM, "%s: out of memory", c->path);
    free(r.solver);
    free(r.problem);
    free(r.set);
    free(r.note);
    return st;
}

static fl_status read_header(const rd *c, json_t *o, fl_suite *s)
{
    long cores = 0, jobs = 1, k = 1, n = 1;
    char *norm = NULL;
    fl_status st = get_str(c, o, "version", &s->version);
    if (st == FL_OK) st = get_str(c, o, "commit", &s->commit);
    if (st == FL_OK) st = get_str(c, o, "started", &s->started);
    if (st == FL_OK) st = get_str(c, o, "command", &s->command);
    if (st == FL_OK) st = get_str(c, o, "cpu", &s->cpu);
    if (st == FL_OK) st = get_str(c, o, "versions", &s->versions);
    if (st == FL_OK) st = get_int(c, o, "cores", &cores);
    if (st == FL_OK) st = get_num(c, o, "time_limit", &s->time_limit);
    if (st == FL_OK) st = get_num(c, o, "shift", &s->shift);
    if (st == FL_OK) st = get_num(c, o, "shell_start", &s->shell_start);
    if (st == FL_OK) st = get_int(c, o, "jobs", &jobs);
    if (st == FL_OK) st = get_int(c, o, "shard_k", &k);
    if (st == FL_OK) st = get_int(c, o, "shard_n", &n);
    if (st == FL_OK) st = get_str(c, o, "normalisation", &norm);
    if (st == FL_OK) st = fl_suite_norm_parse(norm, &s->norm, c->err);
    free(norm);
    s->cores = (int)cores, s->jobs = (int)jobs, s->shard_k = (int)k, s->shard_n = (int)n;
    if (st == FL_OK && !(s->time_limit > 0))
        st = FL_FAIL(c->err, FL_EPARSE, "%s: time_limit must be positive", c->path);
    return st;
}

static fl_status read_lists(const rd *c0, json_t *o, fl_suite *s)
{
    json_t *tols = json_object_get(o, "tols"), *sol = json_object_get(o, "solvers"),
           *rows = json_object_get(o, "rows");
    if (!json_is_array(tols) || !json_is_array(sol) || !json_is_array(rows))
        return FL_FAIL(c0->err, FL_EPARSE, "%s: tols, solvers and rows must be arrays", c0->path);
    fl_status st = FL_OK;
    char where[64];
    rd c = *c0;
    c.where = where;
    for (size_t i = 0; st == FL_OK && i < json_array_size(tols); i++) {
        json_t *v = json_array_get(tols, i);
        if (!json_is_number(v) || !(json_number_value(v) > 0))
            return FL_FAIL(c.err, FL_EPARSE, "%s: tols[%zu]: a positive number is expected", c.path, i);
        st = fl_suite_tol_add(s, json_number_value(v));
    }
    for (size_t i = 0; st == FL_OK && i < json_array_size(sol); i++) {
        json_t *v = json_array_get(sol, i);
        char *name = NULL, *kind = NULL, *cmd = NULL;
        double sc = NAN;
        snprintf(where, sizeof where, "solvers[%zu]", i);
        st = json_is_object(v) ? get_str(&c, v, "name", &name)
                               : FL_FAIL(c.err, FL_EPARSE, "%s: %s: an object is expected", c.path, where);
        if (st == FL_OK) st = get_str(&c, v, "kind", &kind);
        if (st == FL_OK) st = get_str(&c, v, "command", &cmd);
        if (st == FL_OK) st = get_num(&c, v, "start_cost", &sc);
        if (st == FL_OK && !name) st = FL_FAIL(c.err, FL_EPARSE, "%s: %s.name is required", c.path, where);
        if (st == FL_OK) st = fl_suite_solver_add(s, name, kind, cmd, sc);
        free(name);
        free(kind);
        free(cmd);
    }
    for (size_t i = 0; st == FL_OK && i < json_array_size(rows); i++) {
        snprintf(where, sizeof where, "rows[%zu]", i);
        st = read_row(&c, json_array_get(rows, i), s);
    }
    return st;
}

fl_status fl_suite_read_json(const char *path, fl_suite **out, fl_error *err)
{
    *out = NULL;
    json_error_t je;
    json_t *o = json_load_file(path, 0, &je);
    if (!o) return FL_FAIL(err, FL_EPARSE, "%s line %d: %s", path, je.line, je.text);
    rd c = {path, "", err};
    const char *fmt = json_string_value(json_object_get(o, "format"));
    fl_status st = FL_OK;
    if (!json_is_object(o) || !fmt || strcmp(fmt, FL_SUITE_FORMAT) != 0)
        st = FL_FAIL(err, FL_EPARSE, "%s: format: \"%s\" is expected", path, FL_SUITE_FORMAT);
    fl_suite *s = st == FL_OK ? fl_suite_alloc() : NULL;
    if (st == FL_OK && !s) st = FL_FAIL(err, FL_ENOMEM, "%s: out of memory", path);
    if (st == FL_OK) st = read_header(&c, o, s);
    if (st == FL_OK) st = read_lists(&c, o, s);
    json_decref(o);
    if (st != FL_OK) {
        fl_suite_free(s);
        return st;
    }
    *out = s;
    return FL_OK;
}

/* ------------------------------------------------------------------ */
/* suite.csv                                                           */
/* ------------------------------------------------------------------ */

/* A CSV field: quoted, inner quotes doubled. */
static void csv_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; s && *s; s++) {
        if (*s == '"') fputc('"', f);
        if (*s != '\n' && *s != '\r') fputc(*s, f);
    }
    fputc('"', f);
}

fl_status fl_suite_write_csv(const fl_suite *s, const char *path, fl_error *err)
{
    FILE *f = fopen(path, "w");
    if (!f) return FL_FAIL(err, FL_EIO, "%s: cannot write", path);
    fprintf(f, "solver,set,problem,dim,nc,tol,seconds,exit,timed_out,claimed,err_q,err_siconos,"
               "err_fclib,solved,concurrent,reason\n");
    for (size_t i = 0; i < s->nrows; i++) {
        const fl_suite_row *r = &s->rows[i];
        char why[1400];
        fl_suite_row_reason(s, r, why, sizeof why);
        csv_str(f, r->solver);
        fputc(',', f);
        csv_str(f, r->set);
        fputc(',', f);
        csv_str(f, r->problem);
        fprintf(f, ",%d,%zu,%.3g,%.6g,%d,%d,%d,%.6e,%.6e,%.6e,%d,%d,", r->dim, r->nc, r->tol,
                r->seconds, r->exit_code, r->timed_out, r->claimed, r->err[0], r->err[1],
                r->err[2], r->solved, r->concurrent);
        csv_str(f, why);
        fputc('\n', f);
    }
    return fclose(f) == 0 ? FL_OK : FL_FAIL(err, FL_EIO, "%s: cannot write", path);
}
