/* world_read.c - reading one file of a world through its jl_fs table, and
 * the diagnostic for a file that cannot be read. */
#include <errno.h>

#include "archive/archive_internal.h"
#include "world/world_internal.h"

jl_status jli_world_io_diagnostic(jl_world *w, const char *path, const char *op, int code)
{
    jl_error e;
    jl_fs_error(&e, path, op, code);
    jli_world_add_diagnostic(w, &e);
    return e.status;
}

/* A diagnostic for a directory entry that is not a regular file: never
 * opened, since reading a FIFO or a device may block forever. */
static jl_status special_file_diagnostic(jl_world *w, const char *path)
{
    jl_error e;
    jl_error_set(&e, JL_ERR_IO, path, 0, 0, "not a regular file (a FIFO, socket or device): skipped");
    jli_world_add_diagnostic(w, &e);
    return e.status;
}

jl_status jli_world_read_file(jl_world *w, const char *path, jl_fs_kind kind, char **text, size_t *size,
                              jl_fs_stamp *stamp)
{
    if (kind == JL_FS_SPECIAL) return special_file_diagnostic(w, path);
    int code = w->fs->read_file(w->fs, path, JL_ARCHIVE_FILE_MAX, &w->scratch, text, size, stamp);
    return jli_world_read_status(w, path, code);
}

jl_status jli_world_read_status(jl_world *w, const char *path, int code)
{
    if (code == 0) return JL_OK;
    if (code == ENOENT) return JL_ERR_NOT_FOUND;
    if (code == EFBIG) {
        jl_error e;
        jl_error_set(&e, JL_ERR_PARSE, path, 0, 0, "file too large: a .jasset file holds at most %u bytes",
                     (unsigned)JL_ARCHIVE_FILE_MAX);
        jli_world_add_diagnostic(w, &e);
        return e.status;
    }
    return jli_world_io_diagnostic(w, path, "read_file", code);
}
