/* fuzz_fclib_local.c — libFuzzer harness for the FCLIB local-problem reader
 * (io/fl_fclib.c, fl_fclib_kind and fl_fclib_read_local, dense and
 * sparse).  The bytes are the HDF5 file.  See fuzz_input.h. */
#define FUZZ_HDF5
#include "fuzz_input.h"
#include "fl_fclib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static fl_sparse_ctx ctx;
    if (!ctx.started && fl_sparse_start(&ctx, NULL) != FL_OK) abort();
    const char *path = fuzz_input_file(data, size, ".hdf5");
    int kind = 0;
    fl_error err;
    fl_error_clear(&err);
    (void)fl_fclib_kind(path, &kind, &err);
    fuzz_check_hdf5_closed("fl_fclib_kind");
    for (int dense = 0; dense <= 1; dense++) {
        fl_local_problem *p = NULL;
        fl_error_clear(&err);
        fl_status s = fl_fclib_read_local(path, dense, dense ? NULL : &ctx, &p, &err);
        fuzz_check_hdf5_closed("fl_fclib_read_local");
        fuzz_check_error(s, &err, p);
        fl_local_problem_free(p);
    }
    return 0;
}
