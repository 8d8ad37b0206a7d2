/* status.c - names of result codes and filling of error records. */
#include "juliet/status.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static const char *const status_names[JL_STATUS_COUNT] = {
    [JL_OK] = "ok",
    [JL_ERR_INVALID_ARGUMENT] = "invalid_argument",
    [JL_ERR_CAPACITY] = "capacity",
    [JL_ERR_OUT_OF_MEMORY] = "out_of_memory",
    [JL_ERR_NOT_FOUND] = "not_found",
    [JL_ERR_STALE_HANDLE] = "stale_handle",
    [JL_ERR_DUPLICATE_ID] = "duplicate_id",
    [JL_ERR_UNKNOWN_CLASS] = "unknown_class",
    [JL_ERR_PARSE] = "parse",
    [JL_ERR_IO] = "io",
    [JL_ERR_READ_ONLY] = "read_only",
    [JL_ERR_INVARIANT] = "invariant",
    [JL_ERR_CORRUPT] = "corrupt",
    [JL_ERR_LOCKED] = "locked",
    [JL_ERR_EXISTS] = "exists",
};

const char *jl_status_name(jl_status status)
{
    if ((unsigned)status >= JL_STATUS_COUNT) return "unknown_status";
    return status_names[status];
}

jl_status jl_error_set(jl_error *err, jl_status status, const char *path, uint32_t line,
                       uint32_t col, const char *format, ...)
{
    if (!err) return status;
    err->status = status;
    err->line = line;
    err->col = col;
    err->path[0] = '\0';
    if (path) snprintf(err->path, sizeof err->path, "%s", path);
    va_list args;
    va_start(args, format);
    vsnprintf(err->message, sizeof err->message, format, args);
    va_end(args);
    return status;
}

char *jl_error_format(const jl_error *err, char *out, uint32_t out_size)
{
    if (!out || out_size == 0) return out;
    if (!err->path[0])
        snprintf(out, out_size, "%s", err->message);
    else if (err->line == 0)
        snprintf(out, out_size, "%s: %s", err->path, err->message);
    else
        snprintf(out, out_size, "%s:%u:%u: %s", err->path, (unsigned)err->line,
                 (unsigned)err->col, err->message);
    return out;
}
