/* fuzz_mm.c — libFuzzer harness for the Matrix Market reader
 * (io/fl_mm.c, fl_mm_read).  See fuzz_input.h for the contract. */
#include "fuzz_input.h"
#include "fl_mm.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fl_sparse_ctx ctx;
    if (!ctx.started && fl_sparse_start(&ctx, NULL) != FL_OK) abort();
    const char *path = fuzz_input_file(data, size, ".mtx");
    cholmod_sparse *A = NULL;
    fl_error err;
    fl_error_clear(&err);
    fl_status s = fl_mm_read(&ctx, path, &A, &err);
    fuzz_check_error(s, &err, A);
    if (A) fl_sparse_free(&ctx, &A);
    return 0;
}
