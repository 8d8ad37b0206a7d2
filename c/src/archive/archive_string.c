/* archive_string.c - the text form of STRING values (archive.h).
 *
 * A string is one line of UTF-8 with no control character. Its canonical
 * text is the string itself, unless a value line could not hold it as it
 * is: the empty string, one that starts or ends with a space (the reader
 * trims blanks around a value), one that starts with ';' (a key line) or
 * with '"' (a quoted string). Those are written in double quotes, with \"
 * for a quote and \\ for a backslash inside them; nothing else is escaped.
 * The reader also takes the quoted form of a string that needs no quotes.
 * So every valid string has exactly one canonical text, and reading it
 * gives the same bytes. */
#include <stdio.h>

#include "archive/archive_internal.h"

static jl_status refuse(jli_value_fail *fail, size_t bad, const char *msg)
{
    fail->bad = bad;
    fail->msg = msg;
    return JL_ERR_PARSE;
}

/* The length (1 to 4) of the UTF-8 character at t[i] (i < n), or 0 if the
 * bytes there are not UTF-8 (overlong forms, surrogates and code points
 * past U+10FFFF included) or encode a control character (C0, DEL, C1);
 * *msg then says which. */
static size_t char_length(const unsigned char *t, size_t i, size_t n, const char **msg)
{
    const unsigned c = t[i];
    if (c < 0x80) {
        if (c >= 0x20 && c != 0x7f) return 1;
        *msg = "control character in string";
        return 0;
    }
    /* The lead byte gives the length and the top bits of the code point. */
    const size_t len = c >= 0xf0 ? (c <= 0xf4 ? 4 : 0) : c >= 0xe0 ? 3 : c >= 0xc2 ? 2 : 0;
    uint32_t cp = c & (0x7fu >> len);
    *msg = "invalid UTF-8 in string";
    if (len == 0 || n - i < len) return 0;
    for (size_t k = 1; k < len; k++) {
        if ((t[i + k] & 0xc0) != 0x80) return 0;
        cp = cp << 6 | (t[i + k] & 0x3fu);
    }
    if (len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) return 0;
    if (len == 4 && (cp < 0x10000 || cp > 0x10ffff)) return 0;
    if (cp <= 0x9f) {
        *msg = "control character in string";
        return 0;
    }
    return len;
}

/* Whether a string of n bytes, the first and last as given, must be
 * quoted (see the file comment). */
static bool needs_quotes(size_t n, char first, char last)
{
    return n == 0 || first == ' ' || first == ';' || first == '"' || last == ' ';
}

static jl_status too_long(jli_value_fail *fail, size_t text_size)
{
    snprintf(fail->text, sizeof fail->text, "string too long: its text is %zu bytes, a line holds %d", text_size,
             JL_ARCHIVE_LINE_MAX);
    fail->bad = 0;
    fail->msg = fail->text;
    return JL_ERR_PARSE;
}

jl_status jli_string_parse(const char *t, size_t n, jl_string *out, jl_arena *strings, jli_value_fail *fail)
{
    const unsigned char *u = (const unsigned char *)t;
    size_t size = 0; /* bytes of the value */
    bool quoted = n > 0 && t[0] == '"';
    if (!quoted) {
        if (n == 0) return refuse(fail, 0, "expected a string (the empty string is written \"\")");
        if (t[0] == ';') return refuse(fail, 0, "a string starting with ';' is written in quotes");
        if (t[0] == ' ') return refuse(fail, 0, "a string starting with a space is written in quotes");
        if (t[n - 1] == ' ') return refuse(fail, n - 1, "a string ending with a space is written in quotes");
        for (size_t i = 0, len; i < n; i += len)
            if ((len = char_length(u, i, n, &fail->msg)) == 0) return refuse(fail, i, fail->msg);
        if (n > JL_ARCHIVE_LINE_MAX) return too_long(fail, n);
        size = n;
    } else {
        size_t i = 1;
        bool closed = false;
        char first = 0, last = 0;
        while (i < n) {
            if (t[i] == '"') {
                if (i != n - 1) return refuse(fail, i + 1, "unexpected text after the closing quote");
                closed = true;
                break;
            }
            size_t len = 1;
            char byte = t[i];
            if (t[i] == '\\') {
                if (i + 1 == n) break; /* no closing quote */
                if (t[i + 1] != '"' && t[i + 1] != '\\')
                    return refuse(fail, i, "unknown escape in string (only \\\" and \\\\)");
                byte = t[i + 1];
                len = 2;
            } else if ((len = char_length(u, i, n, &fail->msg)) == 0) {
                return refuse(fail, i, fail->msg);
            }
            if (size == 0) first = byte;
            last = len == 2 && t[i] == '\\' ? byte : t[i + len - 1];
            size += len == 2 && t[i] == '\\' ? 1 : len;
            i += len;
        }
        if (!closed) return refuse(fail, n, "string has no closing quote");
        /* Quoted, the text is as long as its canonical form (escapes are the
         * canonical ones); unquoted, the value's own size. */
        size_t canonical = needs_quotes(size, first, last) ? n : size;
        if (canonical > JL_ARCHIVE_LINE_MAX) return too_long(fail, canonical);
    }
    if (size == 0) {
        *out = (jl_string){"", 0};
        return JL_OK;
    }
    if (!strings) {
        fail->bad = 0;
        fail->msg = "a string value needs a strings arena";
        return JL_ERR_INVALID_ARGUMENT;
    }
    char *copy = jl_arena_push(strings, size + 1, 1);
    if (!copy) {
        fail->bad = 0;
        fail->msg = "no memory left for strings";
        return JL_ERR_OUT_OF_MEMORY;
    }
    if (!quoted) {
        memcpy(copy, t, size);
    } else {
        size_t k = 0;
        for (size_t i = 1; i < n - 1; i++) copy[k++] = t[i] == '\\' ? t[++i] : t[i];
    }
    copy[size] = '\0';
    *out = (jl_string){copy, (uint32_t)size};
    return JL_OK;
}

const char *jli_string_problem(const jl_string *s, size_t *bad)
{
    const size_t n = s->size;
    if (n && !s->data) {
        *bad = 0;
        return "string with no bytes";
    }
    const unsigned char *u = (const unsigned char *)s->data;
    const char *msg = NULL;
    size_t escapes = 0;
    for (size_t i = 0, len; i < n; i += len) {
        if ((len = char_length(u, i, n, &msg)) == 0) {
            *bad = i;
            return msg;
        }
        escapes += u[i] == '"' || u[i] == '\\';
    }
    size_t text = n == 0 || needs_quotes(n, s->data[0], s->data[n - 1]) ? 2 + n + escapes : n;
    if (text > JL_ARCHIVE_LINE_MAX) {
        *bad = 0;
        return "string too long for a line";
    }
    return NULL;
}

uint32_t jli_string_format(const jl_string *s, char *out)
{
    const char *data = s->data ? s->data : "";
    const size_t n = s->data ? s->size : 0;
    /* A valid string needs no cut and has no control byte; anything else
     * (set by C code directly) is written so that reading it fails: a
     * control byte as an escape the reader refuses (it would otherwise
     * break the line), a text past the line limit cut with no closing
     * quote. */
    bool plain = n > 0 && !needs_quotes(n, data[0], data[n - 1]) && n <= JL_ARCHIVE_LINE_MAX;
    for (size_t i = 0; plain && i < n; i++) plain = (unsigned char)data[i] >= 0x20 && data[i] != 0x7f;
    if (plain) {
        memcpy(out, data, n);
        return (uint32_t)n;
    }
    static const char hex[] = "0123456789abcdef";
    size_t k = 0;
    out[k++] = '"';
    for (size_t i = 0; i < n; i++) {
        const unsigned char c = (unsigned char)data[i];
        char piece[4] = {'\\', (char)c, 0, 0};
        size_t len = 2;
        if (c < 0x20 || c == 0x7f) {
            piece[1] = 'x';
            piece[2] = hex[c >> 4];
            piece[3] = hex[c & 15];
            len = 4;
        } else if (c != '"' && c != '\\') {
            piece[0] = (char)c;
            len = 1;
        }
        if (k + len + 1 > JL_ARCHIVE_LINE_MAX) {
            /* Cut: the closing quote is left out, so the text never reads. */
            if (k + len <= JL_ARCHIVE_LINE_MAX) {
                memcpy(out + k, piece, len);
                k += len;
            }
            return (uint32_t)k;
        }
        memcpy(out + k, piece, len);
        k += len;
    }
    out[k++] = '"';
    return (uint32_t)k;
}
