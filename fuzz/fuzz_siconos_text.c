/* fuzz_siconos_text.c — libFuzzer harness for the Siconos numerics text
 * reader (io/fl_siconos_text.c, fl_siconos_text_read), dense and sparse
 * in turn.  See fuzz_input.h for the contract. */
#include "fuzz_input.h"
#include "fl_siconos_text.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fl_sparse_ctx ctx;
    if (!ctx.started && fl_sparse_start(&ctx, NULL) != FL_OK) abort();
    const char *path = fuzz_input_file(data, size, ".dat");
    for (int dense = 0; dense <= 1; dense++) {
        fl_local_problem *p = NULL;
        fl_error err;
        fl_error_clear(&err);
        fl_status s = fl_siconos_text_read(path, dense, dense ? NULL : &ctx, &p, &err);
        fuzz_check_error(s, &err, p);
        fl_local_problem_free(p);
    }
    return 0;
}
