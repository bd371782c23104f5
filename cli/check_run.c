/* check_run.c — the command's side of checks/fl_check.h.  See check_run.h. */
#include "check_run.h"

#include <stdio.h>
#include <string.h>

/* --data and --params of this run of the command (set once by main). */
static const char *cli_data_dir;
static const char *cli_params;

const char *fl_cli_data_dir(void) { return cli_data_dir; }

const char *fl_cli_params(void) { return cli_params; }

int fl_cli_global_options(int *argc, char **argv)
{
    int out = 1;
    for (int i = 1; i < *argc; i++) {
        const char **slot = strcmp(argv[i], "--data") == 0     ? &cli_data_dir
                          : strcmp(argv[i], "--params") == 0   ? &cli_params
                                                               : NULL;
        if (!slot) {
            argv[out++] = argv[i];
            continue;
        }
        if (i + 1 >= *argc) {
            fprintf(stderr, "frictionlab: %s needs a %s\n", argv[i],
                    slot == &cli_data_dir ? "directory" : "file");
            return 2;
        }
        *slot = argv[++i];
    }
    *argc = out;
    argv[out] = NULL;
    return 0;
}

static void on_line(void *data, fl_check_kind kind, const char *name, const char *detail)
{
    fl_cli_ctx *cli = data;
    if (kind == FL_CHECK_NOTE) {
        fl_cli_note(cli, name, "%s", detail);
        return;
    }
    fl_cli_check(cli, kind == FL_CHECK_PASS, name, "%s", detail);
}

static void on_value(void *data, const fl_check_value_info *v)
{
    fl_cli_ctx *cli = data;
    if (v->discrepancy) {
        fl_cli_discrepancy(cli, v->name, v->value, v->expected, v->reference, v->reason, "%s",
                           v->detail);
        return;
    }
    if (v->noise_reason)
        fl_cli_check_value_noise(cli, v->kind == FL_CHECK_PASS, v->name, v->value, v->expected,
                                 v->tol, v->noise_rtol, v->noise_reason, v->reference, "%s",
                                 v->detail);
    else
        fl_cli_check_value(cli, v->kind == FL_CHECK_PASS, v->name, v->value, v->expected, v->tol,
                           v->reference, "%s", v->detail);
}

static void on_progress(void *data, const char *label, long done, long total)
{
    fl_cli_progress(data, label, done, total);
}

static void on_message(void *data, const char *text)
{
    (void)data;
    fprintf(stderr, "%s\n", text);
}

static void on_text(void *data, const char *text)
{
    (void)data;
    fputs(text, stdout);
    fflush(stdout);
}

static int on_out_path(void *data, const char *name, char *buf, size_t len)
{
    return fl_cli_out_path(data, name, buf, len);
}

static int on_plot(void *data, const char *script)
{
    (void)data;
    return fl_cli_gnuplot(script);
}

int fl_cli_run_check(fl_cli_ctx *cli, fl_cli_check_fn fn)
{
    fl_check_ctx c = fl_check_ctx_default();
    c.out_dir = cli->out_dir;
    c.data_dir = cli_data_dir;
    c.params = cli_params;
    c.quick = cli->quick;
    c.systems = cli->systems;
    c.seed = cli->seed;
    c.law = cli->law;
    c.io.data = cli;
    c.io.line = on_line;
    c.io.value = on_value;
    c.io.progress = on_progress;
    c.io.message = on_message;
    c.io.text = on_text;
    c.io.plot = on_plot;
    c.io.out_path = on_out_path;
    int rc = fn(&c);
    if (rc == 0 && cli_params && !c.params_read)
        fl_cli_check(cli, 0, "params.unused",
                     "this task does not read --params %s (it runs on data/ only)", cli_params);
    return rc;
}
