/* fuzz_fclib_global.c — libFuzzer harness for the FCLIB global-problem
 * reader (io/fl_fclib.c, fl_fclib_read_global, dense and sparse).  The
 * bytes are the HDF5 file.  See fuzz_input.h. */
#define FUZZ_HDF5
#include "fuzz_input.h"
#include "fl_fclib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fl_sparse_ctx ctx;
    if (!ctx.started && fl_sparse_start(&ctx, NULL) != FL_OK) abort();
    const char *path = fuzz_input_file(data, size, ".hdf5");
    for (int dense = 0; dense <= 1; dense++) {
        fl_global_problem *g = NULL;
        fl_error err;
        fl_error_clear(&err);
        fl_status s = fl_fclib_read_global(path, dense, dense ? NULL : &ctx, &g, &err);
        fuzz_check_hdf5_closed("fl_fclib_read_global");
        fuzz_check_error(s, &err, g);
        fl_global_problem_free(g);
    }
    return 0;
}
