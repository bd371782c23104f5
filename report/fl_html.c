/* fl_html.c — the HTML machinery of the report library
 * (fl_html_internal.h). */
#include "fl_html_internal.h"

#include <openssl/evp.h>
#include <stdlib.h>
#include <string.h>

void fl_html_text(FILE *f, const char *s)
{
    for (; s && *s; s++) {
        switch (*s) {
        case '&': fputs("&amp;", f); break;
        case '<': fputs("&lt;", f); break;
        case '>': fputs("&gt;", f); break;
        case '"': fputs("&quot;", f); break;
        default: fputc(*s, f);
        }
    }
}

void fl_html_url(FILE *f, const char *s)
{
    static const char safe[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                               "0123456789-_.~/";
    for (; s && *s; s++) {
        if (strchr(safe, *s)) fputc(*s, f);
        else fprintf(f, "%%%02X", (unsigned char)*s);
    }
}

/* Read a whole file; NULL if it cannot be read. */
static unsigned char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    unsigned char *buf = NULL;
    size_t n = 0, cap = 0;
    for (;;) {
        if (n == cap) {
            size_t nc = cap ? 2 * cap : 65536;
            unsigned char *p = realloc(buf, nc);
            if (!p) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = p;
            cap = nc;
        }
        size_t k = fread(buf + n, 1, cap - n, f);
        n += k;
        if (k == 0) break;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

int fl_html_inline_png(FILE *f, const char *base_dir, const char *file, const char *alt)
{
    char path[4096];
    if (base_dir) snprintf(path, sizeof path, "%s/%s", base_dir, file);
    else snprintf(path, sizeof path, "%s", file);
    size_t n = 0;
    unsigned char *bytes = slurp(path, &n);
    if (!bytes) return -1;
    if (n > (size_t)1 << 28) {
        free(bytes);
        return -1;
    }
    unsigned char *b64 = malloc(4 * ((n + 2) / 3) + 1);
    if (!b64) {
        free(bytes);
        return -1;
    }
    EVP_EncodeBlock(b64, bytes, (int)n);
    free(bytes);
    fputs("<img alt=\"", f);
    fl_html_text(f, alt);
    fputs("\" src=\"data:image/png;base64,", f);
    fputs((const char *)b64, f);
    fputs("\">", f);
    free(b64);
    return 0;
}

static const char style[] =
    "body{font-family:sans-serif;max-width:72em;margin:1em auto;padding:0 1em;line-height:1.4}\n"
    "table{border-collapse:collapse;font-size:90%;width:100%}\n"
    "td,th{border:1px solid #ccc;padding:2px 4px;vertical-align:top;text-align:left}\n"
    "table.num td,table.num th{text-align:right}table.num td:first-child{text-align:left}\n"
    "tr.pass td:nth-child(2){color:#060}tr.fail td:nth-child(2){color:#b00;font-weight:bold}\n"
    "tr.disc td:nth-child(2){color:#a60;font-weight:bold}tr.notrun td:nth-child(2){color:#666}\n"
    ".fail{color:#b00}.warn{color:#a40}figure{margin:1em 0}\n"
    "figure img{max-width:100%;border:1px solid #ddd}\n"
    "figcaption{font-style:italic}.ref{font-weight:normal;color:#444}.meta{color:#333}\n"
    "section.task{border-top:1px solid #999;margin-top:2em}\n";

void fl_html_page_begin(FILE *f, const char *title)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", f);
    fl_html_text(f, title);
    fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
    fl_html_text(f, title);
    fputs("</h1>\n", f);
}

void fl_html_page_end(FILE *f)
{
    fputs("</body>\n</html>\n", f);
}

void fl_html_table_begin(FILE *f, const char *cls, const char *const *cols)
{
    fputs("<table", f);
    if (cls) {
        fputs(" class=\"", f);
        fl_html_text(f, cls);
        fputs("\"", f);
    }
    fputs(">\n<tr>", f);
    for (size_t i = 0; cols && cols[i]; i++) {
        fputs("<th>", f);
        fl_html_text(f, cols[i]);
        fputs("</th>", f);
    }
    fputs("</tr>\n", f);
}

void fl_html_cell(FILE *f, const char *text)
{
    fputs("<td>", f);
    fl_html_text(f, text);
    fputs("</td>", f);
}
