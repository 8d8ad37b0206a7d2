/* status.h - result codes and the error record every fallible call fills.
 *
 * User data never aborts the program: functions that read it return a
 * jl_status and, where the caller passes one, fill a jl_error with the source
 * path, line, column and a message. The record is fixed-size so the error
 * path never allocates. */
#ifndef JULIET_STATUS_H
#define JULIET_STATUS_H

#include <stddef.h>
#include <stdint.h>

typedef enum jl_status {
    JL_OK = 0,
    JL_ERR_INVALID_ARGUMENT, /* a caller broke a documented precondition */
    JL_ERR_CAPACITY,         /* the entity capacity chosen at init is reached */
    JL_ERR_OUT_OF_MEMORY,    /* an arena's reservation is used up or the system refused to commit */
    JL_ERR_NOT_FOUND,        /* no entity, class, field or file of that name */
    JL_ERR_STALE_HANDLE,     /* the handle's entity was destroyed */
    JL_ERR_DUPLICATE_ID,     /* an entity with that 64-bit ID already exists */
    JL_ERR_UNKNOWN_CLASS,    /* a class name or (kind, crc) pair no build knows */
    JL_ERR_PARSE,            /* malformed text: see the error's line and column */
    JL_ERR_IO,               /* the file system failed: see the error's path */
    JL_ERR_READ_ONLY,        /* the entity came from a newer format and is never rewritten */
    JL_ERR_INVARIANT,        /* the manager's invariants do not hold (a bug, reported as data) */
    JL_ERR_CORRUPT,          /* an encoded snapshot is damaged, hostile or from a newer version */
    JL_ERR_LOCKED,           /* another process holds the world's lock (or left it behind) */
    JL_ERR_EXISTS,           /* the directory a new world goes into is not empty */
    JL_ERR_CONFLICT,         /* a file changed on disk since it was read: not overwritten */
    JL_STATUS_COUNT
} jl_status;

/* Stable lower-case name of a status ("capacity", "parse", ...); never NULL. */
const char *jl_status_name(jl_status status);

enum {
    JL_ERROR_PATH_MAX = 512,
    JL_ERROR_MESSAGE_MAX = 256,
    /* Room for any record formatted by jl_error_format: escaping turns a
     * byte into at most 4 characters, plus ":line:col: " and the NUL. */
    JL_ERROR_TEXT_MAX = 4 * (JL_ERROR_PATH_MAX + JL_ERROR_MESSAGE_MAX) + 32,
};

/* Where and why an operation failed. line and col are 1-based; 0 means
 * "not tied to a position" (an I/O error, a whole-file problem). */
typedef struct jl_error {
    jl_status status;
    uint32_t line;
    uint32_t col;
    char path[JL_ERROR_PATH_MAX];
    char message[JL_ERROR_MESSAGE_MAX];
} jl_error;

/* Fills err (which may be NULL) and returns status, so callers can write
 * `return jl_error_set(err, JL_ERR_PARSE, path, line, col, "bad %s", what);`.
 * path may be NULL. Strings that do not fit are truncated, never overflowed. */
jl_status jl_error_set(jl_error *err, jl_status status, const char *path, uint32_t line, uint32_t col,
                       const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;

/* Formats err as "path:line:col: message" (parts that are unknown are left
 * out) into out, truncating to out_size (JL_ERROR_TEXT_MAX always fits).
 * Path and message are escaped with JL_ESCAPE_TERMINAL: a file name or a
 * value quoted from a file can never send control sequences to a
 * terminal. Returns out. */
char *jl_error_format(const jl_error *err, char *out, uint32_t out_size);

/* How jl_text_escape writes text for an output. Both keep valid UTF-8
 * unchanged except where listed; "control" means C0 (0x00-0x1f), DEL and
 * C1 (U+0080-U+009F). */
typedef enum jl_escape_style {
    /* For a terminal or a log: a control byte and a byte that is not part
     * of valid UTF-8 become \xNN, a C1 control \u00NN. A backslash is
     * kept, so names print as typed; the escapes are for showing, not for
     * reading back. */
    JL_ESCAPE_TERMINAL,
    /* The inside of a JSON string: " and \ get a backslash, a control
     * becomes \u00NN, and a byte that is not part of valid UTF-8 becomes
     * \u00NN of its value (the byte read as Latin-1), so the output is
     * always valid JSON and different byte strings stay different unless a
     * name mixes such bytes with the characters they read as. */
    JL_ESCAPE_JSON,
} jl_escape_style;

/* The one place where text from outside (file names, values quoted in
 * messages) is made safe to print. Writes text[0, size) escaped in style
 * into out and NUL-terminates it (if out_size > 0), cutting only between
 * whole characters or escapes. Returns the length of the whole escaped
 * text, as snprintf does: a result >= out_size means it was cut. */
size_t jl_text_escape(const char *text, size_t size, jl_escape_style style, char *out, size_t out_size);

#endif
