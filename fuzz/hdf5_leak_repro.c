/* hdf5_leak_repro.c — evidence for fuzz/lsan.supp: HDF5 alone (no
 * frictionlab code) leaks on corrupt FCLIB files.  For each file given, in
 * order, it copies the bytes to one temporary path (as the harnesses do),
 * opens it, opens every dataset of the FCLIB layout that exists, and closes
 * everything, checking that no identifier is left open.  Built with
 * -fsanitize=address by fuzz/meson.build; run as
 *   ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
 *     build-fuzz/fuzz/hdf5_leak_repro \
 *       fuzz/regression/fclib_global/hdf5_corrupt_object_header.hdf5
 * LeakSanitizer then reports the 424-byte H5O_t lost under H5O_protect. */
#include <hdf5.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static const char *const names[] = {
    "/fclib_local/spacedim", "/fclib_local/vectors/mu", "/fclib_local/vectors/q",
    "/fclib_local/W/m", "/fclib_local/W/n", "/fclib_local/W/nz", "/fclib_local/W/p",
    "/fclib_local/W/i", "/fclib_local/W/x", "/fclib_global/spacedim",
    "/fclib_global/vectors/mu", "/fclib_global/vectors/f", "/fclib_global/vectors/w",
    "/fclib_global/M/m", "/fclib_global/M/n", "/fclib_global/M/nz", "/fclib_global/M/p",
    "/fclib_global/M/i", "/fclib_global/M/x", "/fclib_global/H/m", "/fclib_global/H/n",
    "/fclib_global/H/nz", "/fclib_global/H/p", "/fclib_global/H/i", "/fclib_global/H/x",
    NULL};

int main(int argc, char **argv)
{
    char tmp[] = "/tmp/fl_h5repro_XXXXXX";
    int fd = mkstemp(tmp);
    if (fd < 0) return 2;
    H5Eset_auto2(H5E_DEFAULT, NULL, NULL);
    static char buf[1 << 20];
    for (int k = 1; k < argc; k++) {
        FILE *in = fopen(argv[k], "rb");
        if (!in) continue;
        size_t n = fread(buf, 1, sizeof buf, in);
        fclose(in);
        if (ftruncate(fd, 0) != 0 || pwrite(fd, buf, n, 0) != (ssize_t)n) return 2;
        if (H5Fis_hdf5(tmp) <= 0) continue;
        hid_t f = H5Fopen(tmp, H5F_ACC_RDONLY, H5P_DEFAULT);
        if (f < 0) continue;
        for (const char *const *nm = names; *nm; nm++) {
            hid_t d = H5Dopen2(f, *nm, H5P_DEFAULT);
            if (d >= 0) H5Dclose(d);
        }
        H5Fclose(f);
        if (H5Fget_obj_count((hid_t)H5F_OBJ_ALL, H5F_OBJ_ALL) != 0) {
            fprintf(stderr, "%s: identifiers left open\n", argv[k]);
            return 1;
        }
    }
    unlink(tmp);
    return 0;
}
