/* fl_html_internal.h — the HTML machinery of the report library, shared by
 * every report.html it writes (fl_results_html.c: `frictionlab reproduce`;
 * fl_suite_html.c: `frictionlab bench suite`): one page skeleton and style
 * sheet, text and URL escaping, PNG figures inlined as base64 data URIs
 * (OpenSSL's libcrypto, EVP), table headers.  Not installed. */
#ifndef FL_HTML_INTERNAL_H
#define FL_HTML_INTERNAL_H

#include <stdio.h>

/* s with & < > " escaped (NULL: nothing). */
void fl_html_text(FILE *f, const char *s);

/* An href or id: each byte outside [A-Za-z0-9-_.~/] percent-encoded. */
void fl_html_url(FILE *f, const char *s);

/* <img alt="alt"> with the PNG base_dir/file (base_dir NULL: the file as
 * given) inlined as a base64 data URI; 0 on success, -1 if the file cannot
 * be read or is over 256 MiB (nothing written then). */
int fl_html_inline_png(FILE *f, const char *base_dir, const char *file, const char *alt);

/* The page head (doctype, charset, the shared style sheet, <title>title)
 * and <body><h1>title</h1>; fl_html_page_end closes it. */
void fl_html_page_begin(FILE *f, const char *title);
void fl_html_page_end(FILE *f);

/* <table class="cls"> (cls NULL: none) and its header row: one <th> per
 * name of the NULL-terminated cols, escaped. */
void fl_html_table_begin(FILE *f, const char *cls, const char *const *cols);

/* <td>text</td>, escaped (NULL: an empty cell). */
void fl_html_cell(FILE *f, const char *text);

#endif
