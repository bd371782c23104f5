/* fuzz_fclib_solution.c — libFuzzer harness for the FCLIB solution and
 * guesses readers (io/fl_fclib.c, fl_fclib_read_solution and
 * fl_fclib_read_guesses), what `crosscheck --solver-cmd` reads from a
 * user's program.  The bytes are the HDF5 file.  See fuzz_input.h. */
#define FUZZ_HDF5
#include "fuzz_input.h"
#include "fl_fclib.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_input_file(data, size, ".hdf5");
    fl_fclib_solution *sol = NULL;
    fl_error err;
    fl_error_clear(&err);
    fl_status s = fl_fclib_read_solution(path, &sol, &err);
    fuzz_check_hdf5_closed("fl_fclib_read_solution");
    if (s != FL_ENOTFOUND) fuzz_check_error(s, &err, sol);
    fl_fclib_solution_free(sol);
    fl_fclib_solution **g = NULL;
    size_t count = 0;
    fl_error_clear(&err);
    s = fl_fclib_read_guesses(path, &g, &count, &err);
    fuzz_check_hdf5_closed("fl_fclib_read_guesses");
    if (s != FL_ENOTFOUND) fuzz_check_error(s, &err, g);
    fl_fclib_guesses_free(g, count);
    return 0;
}
