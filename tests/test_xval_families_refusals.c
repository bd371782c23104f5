/* test_xval_families_refusals.c — the problem families of the solver
 * cross-validation (checks/xval_families.c) on bad arguments and broken
 * corpus manifests: each is refused with a status and a message naming
 * the directory, manifest file and line, or the family; and the sizes of
 * the --full ladders are the ones xval.h documents. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "xval.h"

/* Write the manifest sizes.tsv of corpus directory dir. */
static void write_manifest(const char *dir, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/sizes.tsv", dir);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f, "%s", path);
    fputs(text, f);
    fclose(f);
}

Test(cov_xval, family_list_errors)
{
    unsigned mask = 0;
    fl_error err;
    cr_assert_eq(fl_xval_family_parse(NULL, &mask, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_family_parse("all", NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_family_parse("xyz", &mask, &err), FL_ENOTFOUND);    /* three letters, not "all" */
    cr_assert_not_null(strstr(err.message, "'xyz'"), "%s", err.message);
    cr_assert_eq(fl_xval_family_parse("edge,alls", &mask, &err), FL_ENOTFOUND);
    cr_assert_not_null(strstr(err.message, "'alls'"), "%s", err.message);
    cr_assert_eq(fl_xval_family_parse("", &mask, &err), FL_EINVAL);
    cr_assert_not_null(strstr(err.message, "empty"), "%s", err.message);
    cr_assert_eq(fl_xval_family_parse("edge,all", &mask, &err), FL_OK);
    cr_assert_eq(mask, (1u << FL_XVAL_NFAMILY) - 1);
    cr_assert_null(fl_xval_family_name(FL_XVAL_NFAMILY));
    cr_assert_null(fl_xval_family_name((fl_xval_family)-1));
}

/* The --full ladders of xval_families.c: random 16 rungs (2D/3D up to 1000
 * contacts), FE blocks 3 to 300 contacts (5), disc-like 10 to 1000 (4) plus
 * 3 real packings; the edge family has its 11 named cases either way. */
Test(cov_xval, full_ladders_and_bad_counts)
{
    fl_xval_options o = fl_xval_options_default();
    fl_error err;
    size_t n = 0;
    o.full = 1;
    cr_assert_eq(fl_xval_family_count(FL_XVAL_RANDOM, &o, &n, &err), FL_OK);
    cr_assert_eq(n, 16);
    cr_assert_eq(fl_xval_family_count(FL_XVAL_FEBLOCK, &o, &n, &err), FL_OK);
    cr_assert_eq(n, 5);
    cr_assert_eq(fl_xval_family_count(FL_XVAL_DISCS, &o, &n, &err), FL_OK);
    cr_assert_eq(n, 7);
    cr_assert_eq(fl_xval_family_count(FL_XVAL_EDGE, &o, &n, &err), FL_OK);
    cr_assert_eq(n, 11);
    o.full = 0;
    o.per_family = 2;
    cr_assert_eq(fl_xval_family_count(FL_XVAL_FEBLOCK, &o, &n, &err), FL_OK);
    cr_assert_eq(n, 2);
    cr_assert_eq(fl_xval_family_count(FL_XVAL_DISCS, &o, &n, &err), FL_OK);
    cr_assert_eq(n, 2 + 2);
    cr_assert_eq(fl_xval_family_count(FL_XVAL_RANDOM, NULL, &n, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_family_count(FL_XVAL_RANDOM, &o, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_family_count((fl_xval_family)99, &o, &n, &err), FL_EINVAL);
    cr_assert_not_null(strstr(err.message, "99"), "%s", err.message);
    fl_xval_case_clear(NULL);
}

/* The first problem of each --full ladder: its name gives its size. */
Test(cov_xval, full_ladder_first_problems, .timeout = 60)
{
    fl_xval_options o = fl_xval_options_default();
    o.full = 1;
    fl_sparse_ctx ctx;
    fl_error err;
    cr_assert_eq(fl_sparse_start(&ctx, &err), FL_OK);
    const struct {
        fl_xval_family f;
        size_t k, nc;
        const char *name;
    } want[] = {
        {FL_XVAL_RANDOM, 0, 1, "random.2d.nc0001.s0"},
        {FL_XVAL_FEBLOCK, 0, 3, "feblock.2d.nc0003.mu0.5"},
        {FL_XVAL_DISCS, 0, 10, "discs.3d.nc0010"},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        fl_xval_case c;
        cr_assert_eq(fl_xval_case_make(want[i].f, want[i].k, &o, &ctx, &c, &err), FL_OK, "%s", err.message);
        cr_assert_str_eq(c.name, want[i].name);
        cr_assert_not_null(c.p, "%s: %s", c.name, c.error);
        cr_assert_eq(c.p->nc, want[i].nc, "%s: %zu contacts", c.name, c.p->nc);
        fl_xval_case_clear(&c);
    }
    /* the first real packing of --full has 40 discs */
    fl_xval_case c;
    cr_assert_eq(fl_xval_case_make(FL_XVAL_DISCS, 4, &o, &ctx, &c, &err), FL_OK, "%s", err.message);
    cr_assert_str_eq(c.name, "discs.packing2d.n0040");
    cr_assert_not_null(c.p, "%s", c.error);
    fl_xval_case_clear(&c);
    /* past the end of a ladder, and bad arguments */
    cr_assert_eq(fl_xval_case_make(FL_XVAL_FEBLOCK, 5, &o, &ctx, &c, &err), FL_EINVAL);
    cr_assert_not_null(strstr(err.message, "feblock has 5 problems, not 6"), "%s", err.message);
    cr_assert_eq(fl_xval_case_make(FL_XVAL_EDGE, 0, NULL, &ctx, &c, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_case_make(FL_XVAL_EDGE, 0, &o, NULL, &c, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_case_make(FL_XVAL_EDGE, 0, &o, &ctx, NULL, &err), FL_EINVAL);
    cr_assert_eq(fl_xval_case_make((fl_xval_family)99, 0, &o, &ctx, &c, &err), FL_EINVAL);
    fl_sparse_finish(&ctx);
}

/* Corpus manifests: none given, a directory without sizes.tsv (scanned: no
 * problem file in it), a line that
 * is not "file<TAB>kind<TAB>nc", an empty manifest, one of 40 rows (the
 * list grows past its first 32), rows above 100 contacts kept only with
 * --full, and a row naming a file that is not there. */
Test(cov_xval, corpus_manifests)
{
    char dir[64] = "/tmp/fl_cov_xval_XXXXXX", manifest[128];
    cr_assert_not_null(mkdtemp(dir));
    snprintf(manifest, sizeof manifest, "%s/sizes.tsv", dir);
    fl_xval_options o = fl_xval_options_default();
    fl_error err;
    size_t n = 99;
    cr_assert_eq(fl_xval_family_count(FL_XVAL_CORPUS, &o, &n, &err), FL_EINVAL);
    cr_assert_not_null(strstr(err.message, "no directory"), "%s", err.message);
    o.corpus_dir = dir;
    /* no sizes.tsv: the directory's problem files, read by the command
     * (checks/xval_families.c, corpus_scan): none here */
    cr_assert_eq(fl_xval_family_count(FL_XVAL_CORPUS, &o, &n, &err), FL_OK, "%s", err.message);
    cr_assert_eq(n, 0);
    write_manifest(dir, "# file\tkind\tnc\n\na.dat\tlocal\n");
    cr_assert_eq(fl_xval_family_count(FL_XVAL_CORPUS, &o, &n, &err), FL_EPARSE);
    cr_assert_not_null(strstr(err.message, "sizes.tsv line 3"), "%s", err.message);
    write_manifest(dir, "# nothing yet\n");
    cr_assert_eq(fl_xval_family_count(FL_XVAL_CORPUS, &o, &n, &err), FL_OK, "%s", err.message);
    cr_assert_eq(n, 0);
    char text[4096];
    size_t len = 0;
    for (int i = 0; i < 40; i++)
        len += (size_t)snprintf(text + len, sizeof text - len, "p%02d.dat\tlocal\t%d\t3\t0\n", 39 - i, i);
    snprintf(text + len, sizeof text - len, "huge.dat\tlocal\t5000\t3\t0\n");
    write_manifest(dir, text);
    cr_assert_eq(fl_xval_family_count(FL_XVAL_CORPUS, &o, &n, &err), FL_OK, "%s", err.message);
    cr_assert_eq(n, 40);
    o.full = 1;
    cr_assert_eq(fl_xval_family_count(FL_XVAL_CORPUS, &o, &n, &err), FL_OK, "%s", err.message);
    cr_assert_eq(n, 41);
    o.full = 0;
    /* sorted by name: problem 0 is p00.dat, which does not exist */
    fl_sparse_ctx ctx;
    cr_assert_eq(fl_sparse_start(&ctx, &err), FL_OK);
    fl_xval_case c;
    cr_assert_eq(fl_xval_case_make(FL_XVAL_CORPUS, 0, &o, &ctx, &c, &err), FL_OK, "%s", err.message);
    cr_assert_str_eq(c.name, "corpus.p00.dat");
    cr_assert_null(c.p);
    cr_assert_not_null(strstr(c.error, "not readable"), "%s", c.error);
    cr_assert_not_null(strstr(c.error, "p00.dat"), "%s", c.error);
    fl_xval_case_clear(&c);
    o.corpus_dir = NULL;
    cr_assert_eq(fl_xval_case_make(FL_XVAL_CORPUS, 0, &o, &ctx, &c, &err), FL_EINVAL);
    fl_sparse_finish(&ctx);
    cr_assert_eq(unlink(manifest), 0);
    cr_assert_eq(rmdir(dir), 0);
}

/* Corpus files our readers or the Delassus reduction refuse, drawn through
 * a manifest naming them (links to the fixtures of tests/data and
 * fuzz/regression): each case has no problem and says why, naming the
 * file.  The local FCLIB file declares W of 1e5 x 1e5 for 6 rows; the
 * global one's M is not positive definite; the Siconos text global problem
 * is cut after 8 lines. */
Test(cov_xval, corpus_files_that_cannot_be_read)
{
    const char *root = getenv("FL_SOURCE_ROOT");
    cr_assert_not_null(root, "FL_SOURCE_ROOT is not set (tests/meson.build passes it)");
    char dir[64] = "/tmp/fl_cov_xval_XXXXXX";
    cr_assert_not_null(mkdtemp(dir));
    const char *src[] = {"fuzz/regression/fclib_local/declares_W_1e5.hdf5",
                         "fuzz/regression/fclib_global/declares_n_1e5.hdf5"};
    const char *name[] = {"a_local.hdf5", "b_global.hdf5", "d_cut.dat"};
    char path[4096], link[256];
    for (int i = 0; i < 2; i++) {
        snprintf(path, sizeof path, "%s/%s", root, src[i]);
        snprintf(link, sizeof link, "%s/%s", dir, name[i]);
        cr_assert_eq(symlink(path, link), 0, "%s", path);
    }
    /* the first 8 lines of a global Siconos text problem */
    snprintf(path, sizeof path, "%s/tests/data/siconos/GFC3D_Example00.dat", root);
    snprintf(link, sizeof link, "%s/%s", dir, name[2]);
    FILE *in = fopen(path, "r"), *out = fopen(link, "w");
    cr_assert(in && out);
    char line[4096];
    for (int k = 0; k < 8 && fgets(line, sizeof line, in); k++) fputs(line, out);
    fclose(in);
    fclose(out);
    write_manifest(dir, "a_local.hdf5\tlocal\t2\nb_global.hdf5\tglobal\t2\nd_cut.dat\tglobal\t1\n");
    fl_xval_options o = fl_xval_options_default();
    o.corpus_dir = dir;
    fl_sparse_ctx ctx;
    fl_error err;
    cr_assert_eq(fl_sparse_start(&ctx, &err), FL_OK);
    for (size_t k = 0; k < 3; k++) {
        fl_xval_case c;
        cr_assert_eq(fl_xval_case_make(FL_XVAL_CORPUS, k, &o, &ctx, &c, &err), FL_OK, "%s", err.message);
        cr_assert_null(c.p, "%s was read", name[k]);
        cr_assert_not_null(strstr(c.error, name[k]), "%s", c.error);
        cr_assert_not_null(strstr(c.error, "not readable"), "%s", c.error);
        fl_xval_case_clear(&c);
    }
    fl_sparse_finish(&ctx);
    for (int i = 0; i < 3; i++) {
        snprintf(link, sizeof link, "%s/%s", dir, name[i]);
        cr_assert_eq(unlink(link), 0);
    }
    snprintf(link, sizeof link, "%s/sizes.tsv", dir);
    cr_assert_eq(unlink(link), 0);
    cr_assert_eq(rmdir(dir), 0);
}

/* The contacts of the largest problem of family f under o (the last of
 * its ladder), built. */
static size_t largest_nc(fl_xval_family f, const fl_xval_options *o, fl_sparse_ctx *ctx)
{
    fl_error err;
    size_t n = 0, best = 0;
    cr_assert_eq(fl_xval_family_count(f, o, &n, &err), FL_OK);
    for (size_t k = 0; k < n; k++) {
        fl_xval_case c;
        cr_assert_eq(fl_xval_case_make(f, k, o, ctx, &c, &err), FL_OK, "%s", err.message);
        cr_assert_not_null(c.p, "%s: %s", c.name, c.error);
        if (c.p->nc > best) best = c.p->nc;
        fl_xval_case_clear(&c);
    }
    return best;
}

/* bench suite --full (FL_XVAL_FULL_SUITE) reaches 1e4 contacts: random
 * systems and disc-like problems of 10000 contacts, a packing of at least
 * 1e4 contacts; FE blocks stop at 1000 (dense W, xval_families.c); the
 * crosscheck's --full ladders are unchanged (the test above). */
Test(cov_xval, suite_ladders_reach_1e4, .timeout = 240)
{
    fl_xval_options o = fl_xval_options_default();
    o.full = FL_XVAL_FULL_SUITE;
    fl_sparse_ctx ctx;
    fl_error err;
    cr_assert_eq(fl_sparse_start(&ctx, &err), FL_OK);
    cr_assert_eq(largest_nc(FL_XVAL_RANDOM, &o, &ctx), 10000);
    size_t nd = largest_nc(FL_XVAL_DISCS, &o, &ctx);
    cr_assert_geq(nd, 10000);
    fl_xval_case c;
    size_t n = 0;
    cr_assert_eq(fl_xval_family_count(FL_XVAL_DISCS, &o, &n, &err), FL_OK);
    cr_assert_eq(fl_xval_case_make(FL_XVAL_DISCS, n - 1, &o, &ctx, &c, &err), FL_OK);
    cr_assert_not_null(c.p, "%s", c.error);
    cr_assert_geq(c.p->nc, 10000, "%s: %zu contacts", c.name, c.p->nc);   /* the largest packing */
    cr_assert_null(c.p->W, "no dense W at %zu contacts", c.p->nc);
    fl_xval_case_clear(&c);
    cr_assert_eq(fl_xval_family_count(FL_XVAL_FEBLOCK, &o, &n, &err), FL_OK);
    cr_assert_eq(fl_xval_case_make(FL_XVAL_FEBLOCK, n - 1, &o, &ctx, &c, &err), FL_OK);
    cr_assert_eq(c.p->nc, 1000, "%s", c.name);
    fl_xval_case_clear(&c);
    fl_sparse_finish(&ctx);
}
