/* test_fl_status.c — status codes and error records (core/fl_status.c). */
#include <criterion/criterion.h>
#include <string.h>

#include "fl_status.h"
#include "fl_dense.h"

static const fl_status all_codes[] = {
    FL_OK, FL_EINVAL, FL_ENOMEM, FL_ENOTSPD, FL_EIO, FL_EPARSE, FL_EDIM,
    FL_ENONFINITE, FL_ESINGULAR, FL_ERAY, FL_ENOTFOUND, FL_EUNSUPPORTED,
    FL_ENOCONV, FL_EEXTERNAL, FL_WMAXITER, FL_WNOTUNIQUE, FL_WDEGENERATE, FL_WTIMEOUT,
};

Test(status, signs_follow_the_convention)
{
    cr_assert_eq(FL_OK, 0);
    cr_assert_lt(FL_EINVAL, 0);
    cr_assert_lt(FL_ENOTSPD, 0);
    cr_assert_lt(FL_EEXTERNAL, 0);
    cr_assert_gt(FL_WMAXITER, 0);
    cr_assert_gt(FL_WNOTUNIQUE, 0);
}

Test(status, every_code_has_a_distinct_message)
{
    size_t n = sizeof all_codes / sizeof all_codes[0];
    for (size_t i = 0; i < n; i++) {
        const char *a = fl_strerror(all_codes[i]);
        cr_assert_not_null(a);
        cr_assert_gt(strlen(a), 3);
        for (size_t j = 0; j < i; j++)
            cr_assert_str_neq(a, fl_strerror(all_codes[j]), "codes %d and %d share a message",
                              all_codes[i], all_codes[j]);
    }
    cr_assert_str_eq(fl_strerror((fl_status)-999), "unknown status");
}

Test(status, error_set_formats_and_locates)
{
    fl_error e;
    fl_error_clear(&e);
    cr_assert_eq(e.status, FL_OK);
    fl_status s = fl_error_set(&e, FL_EPARSE, "data/x.json", 12, 7, "field '%s' is %d", "mu", 3);
    cr_assert_eq(s, FL_EPARSE);
    cr_assert_eq(e.status, FL_EPARSE);
    cr_assert_str_eq(e.message, "field 'mu' is 3");
    cr_assert_str_eq(e.file, "data/x.json");
    cr_assert_eq(e.line, 12);
    cr_assert_eq(e.column, 7);
}

Test(status, null_error_record_is_accepted)
{
    cr_assert_eq(fl_error_set(NULL, FL_EIO, "f", 1, 1, "x"), FL_EIO);
    fl_error_clear(NULL);
}

/* Messages name the input, never a path of the library's sources. */
Test(status, fail_macro_records_no_source_location)
{
    fl_error e;
    fl_status s = FL_FAIL(&e, FL_EDIM, "n = %d", 4);
    cr_assert_eq(s, FL_EDIM);
    cr_assert_str_eq(e.file, "");
    cr_assert_eq(e.line, 0);
    cr_assert_eq(e.column, 0);
    cr_assert_str_eq(e.message, "n = 4");
}

/* A library-detected error in a real routine: no ".c" path anywhere. */
Test(status, library_errors_do_not_name_library_sources)
{
    gsl_matrix *A = gsl_matrix_calloc(2, 2);
    gsl_matrix_set(A, 0, 0, 1.0);
    gsl_matrix_set(A, 1, 1, -1.0);
    fl_error e;
    cr_assert_eq(fl_dense_cholesky(A, &e), FL_ENOTSPD);
    cr_assert_str_eq(e.file, "");
    cr_assert_eq(e.line, 0);
    cr_assert_null(strstr(e.message, ".c:"), "%s", e.message);
    cr_assert_null(strstr(e.message, "core/"), "%s", e.message);
    gsl_matrix_free(A);
}

Test(status, long_messages_are_truncated_not_overflowed)
{
    fl_error e;
    char big[2000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    fl_error_set(&e, FL_EINVAL, big, 1, 0, "%s", big);
    cr_assert_eq(strlen(e.message), sizeof e.message - 1);
    cr_assert_eq(strlen(e.file), sizeof e.file - 1);
}

static fl_status try_helper(fl_status inner, int *reached)
{
    FL_TRY(inner);
    *reached = 1;
    return FL_OK;
}

Test(status, try_propagates_errors_and_passes_warnings)
{
    int reached = 0;
    cr_assert_eq(try_helper(FL_ENOMEM, &reached), FL_ENOMEM);
    cr_assert_eq(reached, 0);
    cr_assert_eq(try_helper(FL_WMAXITER, &reached), FL_OK);
    cr_assert_eq(reached, 1);
}

/* fl_error_escape: control bytes and bytes outside well-formed UTF-8 (RFC
 * 3629 §4) become \xNN; printable ASCII and valid UTF-8 stay as they are. */
Test(status, escape_control_and_invalid_utf8)
{
    char out[64];
    fl_error_escape("a\x01" "b\x1b[0m", out, sizeof out);
    cr_assert_str_eq(out, "a\\x01b\\x1b[0m");
    fl_error_escape("\x7f", out, sizeof out);
    cr_assert_str_eq(out, "\\x7f");
    /* valid 2-, 3- and 4-byte characters: é, §, —, U+1F600 */
    const char *ok = "\xc3\xa9 \xc2\xa7 \xe2\x80\x94 \xf0\x9f\x98\x80";
    fl_error_escape(ok, out, sizeof out);
    cr_assert_str_eq(out, ok);
    /* a lone continuation byte, an overlong '/', a surrogate, > U+10FFFF,
     * a sequence cut short */
    fl_error_escape("\x80", out, sizeof out);
    cr_assert_str_eq(out, "\\x80");
    fl_error_escape("\xc0\xaf", out, sizeof out);
    cr_assert_str_eq(out, "\\xc0\\xaf");
    fl_error_escape("\xed\xa0\x80", out, sizeof out);
    cr_assert_str_eq(out, "\\xed\\xa0\\x80");
    fl_error_escape("\xf4\x90\x80\x80", out, sizeof out);
    cr_assert_str_eq(out, "\\xf4\\x90\\x80\\x80");
    fl_error_escape("\xe2\x80", out, sizeof out);
    cr_assert_str_eq(out, "\\xe2\\x80");
}

Test(status, escape_cuts_at_a_character_boundary)
{
    char out[6];
    fl_error_escape("abc\x01", out, sizeof out);   /* \x01 needs 4 bytes: cut before it */
    cr_assert_str_eq(out, "abc");
    fl_error_escape("ab\xe2\x80\x94z", out, sizeof out);
    cr_assert_str_eq(out, "ab\xe2\x80\x94");
    fl_error_escape(NULL, out, sizeof out);
    cr_assert_str_eq(out, "");
}

Test(status, error_set_escapes_message_and_file)
{
    fl_error e;
    fl_error_set(&e, FL_EPARSE, "f\x1b.dat", 3, 0, "token '%s'", "x\x07y");
    cr_assert_str_eq(e.message, "token 'x\\x07y'");
    cr_assert_str_eq(e.file, "f\\x1b.dat");
}
