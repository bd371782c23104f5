/* gen_doc.c — writes the man page frictionlab(1) and the bash completion
 * from the option tables of cli/options.c, at build time (doc/meson.build):
 *   gen_doc man OUT.1     gen_doc bash OUT
 * Not installed.  The prose that is not about options (description, files,
 * environment, exit status, see also) is here. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "options.h"

static const char man_description[] =
    ".B frictionlab\n"
    "implements the laws of nonsmooth contact dynamics with Coulomb friction of\n"
    "five source papers twice: a dense reference that reads like the paper and a\n"
    "sparse optimized twin.\n"
    "The command reproduces the papers' examples and tables, checks each law's\n"
    "properties on random systems, benchmarks the two implementations and solves\n"
    "FCLIB and Siconos problem files.\n"
    ".PP\n"
    ".B reproduce\n"
    "and\n"
    ".B crosscheck\n"
    "print one line per check on standard output,\n"
    ".IP\n"
    ".B PASS\n"
    ".I name detail\n"
    "\\(em the check holds;\n"
    ".br\n"
    ".B FAIL\n"
    ".I name detail\n"
    "\\(em it does not;\n"
    ".br\n"
    ".B NOTE\n"
    ".I name detail\n"
    "\\(em information or a documented discrepancy with the paper, not counted;\n"
    ".br\n"
    ".B NOT RUN\n"
    ".I name detail\n"
    "\\(em a check this run did not evaluate, not counted;\n"
    ".PP\n"
    "and end with the line\n"
    ".RI \\(lq N \" passed, \" M \" failed\\(rq.\"\n"
    "Progress (done/total, rate and ETA) goes to standard error: redrawn in place\n"
    "on a terminal, as plain lines otherwise.\n";

static const char man_files[] =
    ".TP\n"
    ".IB DIR /report.html\n"
    "One self-contained page that opens offline (figures inlined).\n"
    "Per paper, then per example: the claim reproduced with the paper's\n"
    "section, figure or table; the figures, each captioned with the paper figure\n"
    "it reproduces; every check with our value, the expected (paper's) value,\n"
    "their difference, the tolerance, the reference (paper equation, table row or\n"
    "proofs/ row) and the status; documented discrepancies with their reason;\n"
    "the parameter file and its SHA-256; version, commit and run time.\n"
    ".TP\n"
    ".IB DIR /results.json\n"
    "The same content for machines (format\n"
    ".BR frictionlab\\-results/1 ):\n"
    ".BR version \", \" commit \", \" started \", \" seconds \", \" quick ,\n"
    "and\n"
    ".BR tasks ,\n"
    "each with\n"
    ".BR name \", \" paper \", \" params \" (\" file \", \" sha256 \"), \" figures\n"
    ".RB ( file \", \" caption ), \" files \" and \" checks ;\n"
    "each check with\n"
    ".BR name \", \" status \" (\" PASS \", \" FAIL \", \" NOTE \", \" \"NOT RUN\" ),\n"
    "and where it has them\n"
    ".BR value \", \" expected \", \" tolerance \", \" reference \", \" detail \", \" discrepancy ,\n"
    "and for a number that is not reproducible to the last digits,\n"
    ".B noise_rtol\n"
    "(the relative tolerance\n"
    ".B \\-\\-baseline\n"
    "holds it to instead of 1e\\-9) and\n"
    ".BR noise_reason .\n"
    "Non-finite numbers are the strings \"nan\", \"inf\", \"\\-inf\".\n";

static const char man_environment[] =
    ".TP\n"
    ".B FL_SOURCE_ROOT\n"
    "The source tree, where the examples' parameter files\n"
    ".RI ( data/ )\n"
    "are looked up when the command does not run from it.\n"
    ".TP\n"
    ".B FL_DATA_DIR\n"
    "A directory standing for\n"
    ".I data/\n"
    "(used to find and hash the parameter files recorded in the report).\n";

static const char man_exit_status[] =
    ".TP\n"
    ".B 0\n"
    "Every check passed (and, with\n"
    ".BR \\-\\-baseline ,\n"
    "nothing drifted); help, list and version requests.\n"
    ".TP\n"
    ".B 1\n"
    "A check failed, or the results could not be written.\n"
    ".TP\n"
    ".B 2\n"
    "Usage error: the subcommand's short usage is printed on standard error.\n"
    ".TP\n"
    ".B 3\n"
    ".B reproduce \\-\\-baseline\n"
    "found a status that changed or a number that moved beyond its\n"
    "reproducibility tolerance.\n";

static const char man_see_also[] =
    ".BR gnuplot (1),\n"
    ".BR chromium (1).\n"
    "The README of the source tree, and proofs/README.md for the traceability\n"
    "from each theorem of the papers to its code and test.\n"
    "\n";

/* text as roff: '\' and '-' escaped, a line starting with '.' or '\'' guarded */
static void roff(FILE *f, const char *text)
{
    int bol = 1;
    for (const char *p = text; *p; p++) {
        if (bol && (*p == '.' || *p == '\'')) fputs("\\&", f);
        bol = *p == '\n';
        if (*p == '\\') fputs("\\e", f);
        else if (*p == '-') fputs("\\-", f);
        else fputc(*p, f);
    }
}

static void man_option(FILE *f, const fl_cli_cmd *c, const fl_cli_opt *o)
{
    fputs(".TP\n.B ", f);
    roff(f, o->name[1] ? "--" : "-");
    roff(f, o->name);
    if (o->value) {
        fputs(" \" \"\n.I ", f);
        roff(f, o->value);
    }
    fputc('\n', f);
    roff(f, o->help);
    fputc('\n', f);
    if (o->complete && strncmp(o->complete, "names", 5) == 0 && strcmp(c->name, "crosscheck") == 0) {
        fputs("The laws:", f);
        for (const fl_cli_task *t = fl_crosscheck_tasks; t->name; t++) {
            fputc(' ', f);
            roff(f, t->name);
        }
        fputs(".\n", f);
    }
}

static int write_man(FILE *f)
{
    fputs(".\\\" frictionlab(1) - generated by cli/gen_doc.c from the option tables of\n"
          ".\\\" cli/options.c (the source of --help too); do not edit.\n"
          ".TH FRICTIONLAB 1 \"\" \"frictionlab " FL_VERSION "\" \"User Commands\"\n"
          ".SH NAME\nfrictionlab \\- verified laws of unilateral contact with Coulomb friction: "
          "reproduce, cross-check, benchmark, solve\n.SH SYNOPSIS\n.nf\n", f);
    for (const fl_cli_cmd *c = fl_cli_cmds; c->name; c++) {
        const char *p = c->synopsis;
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) : strlen(p);
            char line[512];
            snprintf(line, sizeof line, "%.*s", (int)n, p);
            fputs(line[0] != ' ' ? "\\fBfrictionlab\\fR " : "    ", f);
            roff(f, line[0] == ' ' ? line + strspn(line, " ") : line);
            fputc('\n', f);
            p += n + (e ? 1 : 0);
        }
    }
    fputs("\\fBfrictionlab help\\fR [\\fISUBCOMMAND\\fR]\n\\fBfrictionlab \\-\\-help\\fR\n"
          "\\fBfrictionlab \\-\\-version\\fR\n.fi\n.SH DESCRIPTION\n", f);
    fputs(man_description, f);
    fputs(".SH COMMANDS\n", f);
    for (const fl_cli_cmd *c = fl_cli_cmds; c->name; c++) {
        fputs(".SS ", f);
        roff(f, c->name);
        fputc('\n', f);
        roff(f, c->description);
        fputs("\n.PP\nOptions:\n", f);
        for (const fl_cli_opt *o = c->opts; o->name; o++) man_option(f, c, o);
        fputs(".PP\nExit status: ", f);
        roff(f, c->exit_status);
        fputc('\n', f);
        if (c->examples) {
            fputs(".PP\nExamples:\n.PP\n.RS\n.nf\n", f);
            roff(f, c->examples);
            fputs("\n.fi\n.RE\n", f);
        }
    }
    fputs(".SS every subcommand\n.TP\n.B \\-\\-version\n(global) Print frictionlab's version and "
          "commit, and the versions of the\nlinked GSL, SuiteSparse (CHOLMOD, UMFPACK), HDF5 and FCLIB.\n", f);
    fputs(".SH FILES\n", f);
    fputs(man_files, f);
    fputs(".SH ENVIRONMENT\n", f);
    fputs(man_environment, f);
    fputs(".TP\n.B PATH\n"
          ".B crosscheck \\-\\-solver\\-cmd\nand\n.B bench suite\nput the directory of the running "
          "program first on the PATH of the commands\nthey start, so that\n.B frictionlab\n"
          "in a solver command is the same program.\n", f);
    fputs(".SH EXIT STATUS\n", f);
    fputs(man_exit_status, f);
    fputs(".SH SEE ALSO\n", f);
    fputs(man_see_also, f);
    return 0;
}

/* the option words of c, space separated, into f */
static void opt_words(FILE *f, const fl_cli_cmd *c)
{
    for (const fl_cli_opt *o = c->opts; o->name; o++)
        fprintf(f, "%s%s%s", o == c->opts ? "" : " ", o->name[1] ? "--" : "-", o->name);
}

/* the completion of what (an option's complete or a command's operands) */
static void bash_complete(FILE *f, const char *what, const char *indent)
{
    if (strncmp(what, "words ", 6) == 0)
        fprintf(f, "%sCOMPREPLY=($(compgen -W \"%s\" -- \"$cur\"))\n", indent, what + 6);
    else if (strcmp(what, "file") == 0)
        fprintf(f, "%sCOMPREPLY=($(compgen -f -- \"$cur\"))\n", indent);
    else if (strcmp(what, "dir") == 0)
        fprintf(f, "%sCOMPREPLY=($(compgen -d -- \"$cur\"))\n", indent);
    else if (strcmp(what, "problem") == 0)
        fprintf(f, "%sCOMPREPLY=($(compgen -f -X '!*.@(hdf5|h5|dat)' -- \"$cur\") "
                   "$(compgen -d -- \"$cur\"))\n", indent);
    else if (strncmp(what, "names+all ", 10) == 0)
        fprintf(f, "%sCOMPREPLY=($(compgen -W \"all $(_frictionlab_names \"$cmd\" %s)\" -- \"$cur\"))\n",
                indent, what + 10);
    else if (strncmp(what, "names ", 6) == 0)
        fprintf(f, "%sCOMPREPLY=($(compgen -W \"%s$(_frictionlab_names \"$cmd\" %s)\" -- \"$cur\"))\n",
                indent, strcmp(what + 6, "bench") == 0 ? "suite merge " : "", what + 6);
}

static int write_bash(FILE *f)
{
    fputs("# bash completion for frictionlab(1), generated by cli/gen_doc.c from the\n"
          "# option tables of cli/options.c (the source of --help too); do not edit.\n"
          "# The names of reproduce examples, benchmarks and crosscheck laws are asked of\n"
          "# the command itself with --list.  Installed as\n"
          "# share/bash-completion/completions/frictionlab.\n\n"
          "_frictionlab_names()\n{\n"
          "    \"$1\" \"$2\" --list 2>/dev/null | while read -r name _; do printf '%s\\n' \"$name\"; done\n"
          "}\n\n_frictionlab()\n{\n"
          "    local cur prev cmd sub\n"
          "    cur=${COMP_WORDS[COMP_CWORD]}\n    prev=${COMP_WORDS[COMP_CWORD-1]}\n"
          "    cmd=${COMP_WORDS[0]}\n    sub=${COMP_WORDS[1]}\n    COMPREPLY=()\n"
          "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
          "        COMPREPLY=($(compgen -W \"", f);
    for (const fl_cli_cmd *c = fl_cli_cmds; c->name; c++)
        if (!strchr(c->name, ' ')) fprintf(f, "%s ", c->name);
    fputs("help --help --version\" -- \"$cur\"))\n        return 0\n    fi\n"
          "    if [ \"$sub\" = help ]; then\n"
          "        [ \"$COMP_CWORD\" -eq 2 ] && COMPREPLY=($(compgen -W \"", f);
    for (const fl_cli_cmd *c = fl_cli_cmds; c->name; c++)
        if (!strchr(c->name, ' ')) fprintf(f, "%s%s", c == fl_cli_cmds ? "" : " ", c->name);
    fputs("\" -- \"$cur\"))\n        return 0\n    fi\n"
          "    if [ \"$sub\" = bench ] && [ \"$COMP_CWORD\" -gt 2 ]; then\n"
          "        case \"${COMP_WORDS[2]}\" in suite|merge) sub=\"bench ${COMP_WORDS[2]}\" ;; esac\n"
          "    fi\n    case \"$sub\" in\n", f);
    for (const fl_cli_cmd *c = fl_cli_cmds; c->name; c++) {
        fprintf(f, "    \"%s\")\n        case \"$prev\" in\n", c->name);
        for (const fl_cli_opt *o = c->opts; o->name; o++) {
            if (!o->value) continue;
            fprintf(f, "            %s%s)\n", o->name[1] ? "--" : "-", o->name);
            if (o->complete) bash_complete(f, o->complete, "                ");
            fputs("                return 0 ;;\n", f);
        }
        /* the value of another subcommand's option (mistyped here): nothing */
        fputs("            ", f);
        int k = 0;
        for (const fl_cli_cmd *d = fl_cli_cmds; d->name; d++)
            for (const fl_cli_opt *o = d->opts; o->name; o++)
                if (o->value && o->name[1]) fprintf(f, "%s--%s", k++ ? "|" : "", o->name);
        fputs(")\n                return 0 ;;\n        esac\n        if [[ $cur == -* ]]; then\n            COMPREPLY=($(compgen -W \"", f);
        opt_words(f, c);
        fputs("\" -- \"$cur\"))\n", f);
        if (c->operands) {
            fputs("        else\n", f);
            bash_complete(f, c->operands, "            ");
        }
        fputs("        fi ;;\n", f);
    }
    fputs("    esac\n    return 0\n}\ncomplete -F _frictionlab frictionlab\n", f);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "man") != 0 && strcmp(argv[1], "bash") != 0)) {
        fprintf(stderr, "usage: gen_doc man|bash OUT\n");
        return 2;
    }
    FILE *f = fopen(argv[2], "w");
    if (!f) {
        fprintf(stderr, "gen_doc: cannot write %s\n", argv[2]);
        return 1;
    }
    int r = strcmp(argv[1], "man") == 0 ? write_man(f) : write_bash(f);
    if (fclose(f) != 0 || r != 0) {
        fprintf(stderr, "gen_doc: cannot write %s\n", argv[2]);
        return 1;
    }
    return 0;
}
