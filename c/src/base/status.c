/* status.c - names of result codes and filling of error records. */
#include "juliet/status.h"

#include <stdarg.h>
#include <stdbool.h>
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
    [JL_ERR_CONFLICT] = "conflict",
};

const char *jl_status_name(jl_status status)
{
    if ((unsigned)status >= JL_STATUS_COUNT) return "unknown_status";
    return status_names[status];
}

jl_status jl_error_set(jl_error *err, jl_status status, const char *path, uint32_t line, uint32_t col,
                       const char *format, ...)
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

/* The length of the valid UTF-8 sequence at p (shortest form, no
 * surrogates, at most U+10FFFF), or 0 if the byte at p does not start one. */
static size_t utf8_length(const unsigned char *p, const unsigned char *end)
{
    unsigned char b = p[0];
    size_t n;
    unsigned char lo = 0x80, hi = 0xbf; /* range of the second byte */
    if (b < 0x80) return 1;
    if (b >= 0xc2 && b <= 0xdf) n = 2;
    else if (b >= 0xe0 && b <= 0xef) {
        n = 3;
        if (b == 0xe0) lo = 0xa0;      /* overlong */
        else if (b == 0xed) hi = 0x9f; /* surrogates */
    } else if (b >= 0xf0 && b <= 0xf4) {
        n = 4;
        if (b == 0xf0) lo = 0x90;      /* overlong */
        else if (b == 0xf4) hi = 0x8f; /* past U+10FFFF */
    } else {
        return 0;
    }
    if ((size_t)(end - p) < n || p[1] < lo || p[1] > hi) return 0;
    for (size_t i = 2; i < n; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    return n;
}

size_t jl_text_escape(const char *text, size_t size, jl_escape_style style, char *out, size_t out_size)
{
    static const char hex[] = "0123456789abcdef";
    const unsigned char *p = (const unsigned char *)text, *end = p + size;
    size_t n = 0;       /* length of the whole escaped text */
    size_t written = 0; /* of it in out: once a piece does not fit, no more */
    while (p < end) {
        size_t take = utf8_length(p, end);
        const bool valid = take != 0;
        if (!valid) take = 1;
        /* What to write as an escape, or -1: a byte that is not UTF-8, a C0
         * control or DEL, or the code point of a C1 control (U+0080-U+009F,
         * two bytes in UTF-8: some terminals act on U+009B as on ESC [). */
        int escape = -1;
        if (!valid || (take == 1 && (p[0] < 0x20 || p[0] == 0x7f))) escape = p[0];
        else if (take == 2 && p[0] == 0xc2 && p[1] < 0xa0) escape = p[1];
        char piece[6];
        const char *src = (const char *)p;
        size_t piece_size = take;
        if (escape >= 0) {
            /* A byte is \xNN on a terminal; a C1 code point is \u00NN, and in
             * JSON everything is (a stray byte read as Latin-1). */
            bool byte = style == JL_ESCAPE_TERMINAL && (!valid || escape < 0x80);
            memcpy(piece, byte ? "\\x" : "\\u00", byte ? 2 : 4);
            piece_size = byte ? 4 : 6;
            piece[piece_size - 2] = hex[escape >> 4];
            piece[piece_size - 1] = hex[escape & 15];
            src = piece;
        } else if (style == JL_ESCAPE_JSON && (p[0] == '"' || p[0] == '\\')) {
            piece[0] = '\\';
            piece[1] = (char)p[0];
            piece_size = 2;
            src = piece;
        }
        if (written == n && piece_size < out_size - n) {
            memcpy(out + n, src, piece_size);
            written += piece_size;
        }
        n += piece_size;
        p += take;
    }
    if (out_size > 0) out[written] = '\0';
    return n;
}

char *jl_error_format(const jl_error *err, char *out, uint32_t out_size)
{
    if (!out || out_size == 0) return out;
    size_t n = 0;
    out[0] = '\0';
    if (err->path[0]) {
        char where[32] = ": ";
        if (err->line != 0) snprintf(where, sizeof where, ":%u:%u: ", (unsigned)err->line, (unsigned)err->col);
        n = jl_text_escape(err->path, strlen(err->path), JL_ESCAPE_TERMINAL, out, out_size);
        if (n >= out_size) return out;
        n += jl_text_escape(where, strlen(where), JL_ESCAPE_TERMINAL, out + n, out_size - n);
        if (n >= out_size) return out;
    }
    jl_text_escape(err->message, strlen(err->message), JL_ESCAPE_TERMINAL, out + n, out_size - n);
    return out;
}
