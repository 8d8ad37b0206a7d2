/* archive_tokenizer.c - splits .jasset text into key/value entries and
 * finds them by key (archive.h, JULIET-SPEC-002 §4.1: tokenize_archive).
 *
 * Loading never copies the text: entries point into the file buffer. One
 * pass finds the line ends (eight bytes at a time), a fast path takes each
 * canonical "; key\nvalue\n" pair at once, and everything else goes line
 * by line through the general rules. */
#include <string.h>

#include "archive/archive_internal.h"

/* archive_internal.h; a table lookup is one load per byte. */
const uint8_t jli_char_class[256] = {
    4, 0, 0, 0, 0, 0, 0, 0, 0, 6, 4, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 4, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static inline bool is_space(char c) { return jli_char_class[(uint8_t)c] & 2; }
static inline bool is_key_char(char c) { return jli_char_class[(uint8_t)c] & 1; }

/* The length of a line of raw bytes (up to its LF) that counts against
 * JL_ARCHIVE_LINE_MAX: without the CR of a CRLF, so a file is held to the
 * same limit whichever line ends it has. */
static inline size_t line_length(const char *line, size_t raw) { return raw - (raw && line[raw - 1] == '\r'); }

/* How many blanks (spaces, tabs) follow a value that ends at value_end on
 * a line whose bytes end at line_end (before its LF). CRs at the line's end
 * are not counted: they are its line end, and written back they would read
 * as one. Kept so an unknown key's line is written back exactly. */
static inline uint16_t trailing_blanks(const char *value_end, const char *line_end)
{
    while (line_end > value_end && line_end[-1] == '\r') line_end--;
    return (uint16_t)(line_end - value_end);
}

/* A cheap key hash for duplicate detection: length and three bytes are
 * enough to keep string compares rare for the dozen keys of a file. */
static inline uint32_t hash_key(const char *key, size_t size)
{
    /* The three bytes and the length packed, mixed by one multiply; its
     * best-mixed top bits are rotated down to the bucket of `seen`. The
     * multiplier puts every key the built-in classes and the world
     * settings write (21 of them) in a bucket of its own, so a canonical
     * file never needs a string compare; any odd multiplier is correct. */
    uint32_t h = ((uint32_t)(uint8_t)key[0] | (uint32_t)(uint8_t)key[size - 1] << 8 |
                  (uint32_t)(uint8_t)key[size / 2] << 16 | (uint32_t)size << 24) *
                 0x75a89295u;
    return h << 6 | h >> 26;
}

/* ---- tokenizer ---- */

/* The tokenizer; with key_argument a key line may also be `; key word`
 * (one blank, then a word of key characters: the key is both, as in the
 * text), which class files use for their fields (class_file.h). */
static inline jl_status tokenize(jl_archive *ar, jl_arena *arena, const char *text, size_t size, const char *path,
                                 bool key_argument, jl_error *err)
{
    *ar = (jl_archive){.loading = true, .path = path, .err = err, .file_version = 1, .class_version = 1};
    jl_archive_entry *entries = jl_arena_push(arena, JL_ARCHIVE_KEYS_MAX * sizeof *entries, _Alignof(jl_archive_entry));
    if (!entries) return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, path, 0, 0, "out of memory tokenizing");
    ar->entries = entries;

    const char *p = text, *end = text + size;
    if (size >= 3 && (uint8_t)p[0] == 0xEF && (uint8_t)p[1] == 0xBB && (uint8_t)p[2] == 0xBF) p += 3;

    /* One fast pass for NUL bytes (libc's memchr is vectorized); the line
     * loop then only looks for line ends. */
    const char *first_nul = memchr(p, '\0', (size_t)(end - p));
    if (!first_nul) first_nul = end;
    uint32_t count = 0, line = 0;
    uint64_t seen = 0;                /* one bit per key hash bucket: most files need no string compare */
    jl_archive_entry *pending = NULL; /* a key waiting for its value line */
    while (p < end) {
        /* Fast path: a canonical pair "; key\nvalue\n" (no indentation,
         * blank or over-long line, NUL or CR before the key's line end).
         * It takes a pair only when every check of the general path below
         * would pass for both lines, so it finds the same entries and
         * reports the same errors (the one it can meet, a duplicate key,
         * with the same text); anything else goes line by line. */
        if (!pending && p[0] == ';' && end - p >= 5 && p[1] == ' ' && count < JL_ARCHIVE_KEYS_MAX) {
            const char *k = p + 2, *ke = k;
            while (end - ke >= 4 && (jli_char_class[(uint8_t)ke[0]] & jli_char_class[(uint8_t)ke[1]] &
                                     jli_char_class[(uint8_t)ke[2]] & jli_char_class[(uint8_t)ke[3]] & 1))
                ke += 4;
            while (ke < end && is_key_char(*ke)) ke++;
            const size_t key_size = (size_t)(ke - k);
            /* key_size in [1, KEY_MAX]; ke + 1 < end: a value byte exists */
            if (key_size - 1 < JL_ARCHIVE_KEY_MAX && end - ke >= 2 && *ke == '\n' &&
                !(jli_char_class[(uint8_t)ke[1]] & 4)) {
                const char *v = ke + 1;
                const size_t raw = jli_scan_line(v, end);
                const char *ve = v + raw;
                if (line_length(v, raw) <= JL_ARCHIVE_LINE_MAX && first_nul >= ve) {
                    /* v[0] is neither blank nor CR: the trimmed value is not empty */
                    const char *e = ve;
                    while (jli_is_trailing_blank(e[-1])) e--;
                    const uint32_t h = hash_key(k, key_size);
                    const uint64_t bit = 1ull << (h & 63);
                    if (seen & bit) {
                        for (uint32_t i = 0; i < count; i++) {
                            if (entries[i].hash == h && entries[i].key_size == key_size &&
                                memcmp(entries[i].key, k, key_size) == 0)
                                return jl_error_set(err, JL_ERR_PARSE, path, line + 1, 3,
                                                    "duplicate key '%.*s' (first on line %u)", (int)key_size, k,
                                                    entries[i].key_line);
                        }
                    }
                    seen |= bit;
                    jl_archive_entry *entry = &entries[count++];
                    entry->key = k;
                    entry->value = v;
                    entry->key_size = (uint32_t)key_size;
                    entry->value_size = (uint32_t)(e - v);
                    entry->key_line = line + 1;
                    entry->value_line = line + 2;
                    entry->key_col = 3;
                    entry->value_col = 1;
                    entry->hash = h;
                    entry->used = false;
                    entry->value_trail = trailing_blanks(e, ve);
                    line += 2;
                    p = ve < end ? ve + 1 : end;
                    continue;
                }
            }
        }
        line++;
        size_t raw = jli_scan_line(p, end);
        if (line_length(p, raw) > JL_ARCHIVE_LINE_MAX)
            return jl_error_set(err, JL_ERR_PARSE, path, line, JL_ARCHIVE_LINE_MAX + 1, "line longer than %d bytes",
                                JL_ARCHIVE_LINE_MAX);
        const char *line_end = p + raw;
        if (first_nul < line_end)
            return jl_error_set(err, JL_ERR_PARSE, path, line, (uint32_t)(first_nul - p) + 1, "embedded NUL byte");
        const char *s = p, *e = line_end;
        while (e > s && jli_is_trailing_blank(e[-1])) e--;
        const char *next = line_end < end ? line_end + 1 : end;
        if (e == s) { /* blank line */
            p = next;
            continue;
        }
        /* A line whose first non-blank character is ';' is a key line, also
         * when indented: kept as a value it would be written back at column
         * 1 and read as a key by the next load. */
        const char *first = s;
        while (first < e && is_space(*first)) first++;
        if (*first == ';') {
            s = first;
            if (pending) {
                return jl_error_set(err, JL_ERR_PARSE, path, pending->key_line, pending->key_col,
                                    "key '%.*s' has no value", (int)pending->key_size, pending->key);
            }
            const char *k = s + 1;
            while (k < e && is_space(*k)) k++;
            const char *ke = k;
            /* Four key characters per step, then the rest one by one. */
            while (e - ke >= 4 && (jli_char_class[(uint8_t)ke[0]] & jli_char_class[(uint8_t)ke[1]] &
                                   jli_char_class[(uint8_t)ke[2]] & jli_char_class[(uint8_t)ke[3]] & 1))
                ke += 4;
            while (ke < e && is_key_char(*ke)) ke++;
            if (key_argument && e - ke >= 2 && *ke == ' ' && is_key_char(ke[1]))
                for (ke += 2; ke < e && is_key_char(*ke);) ke++;
            uint32_t key_col = (uint32_t)(k - p) + 1;
            if (ke == k) return jl_error_set(err, JL_ERR_PARSE, path, line, key_col, "expected a key name after ';'");
            if (ke != e)
                return jl_error_set(err, JL_ERR_PARSE, path, line, (uint32_t)(ke - p) + 1,
                                    "unexpected character after key '%.*s'", (int)(ke - k), k);
            size_t key_size = (size_t)(ke - k);
            if (key_size > JL_ARCHIVE_KEY_MAX)
                return jl_error_set(err, JL_ERR_PARSE, path, line, key_col, "key longer than %d bytes",
                                    JL_ARCHIVE_KEY_MAX);
            if (count == JL_ARCHIVE_KEYS_MAX)
                return jl_error_set(err, JL_ERR_PARSE, path, line, key_col, "more than %d keys in one file",
                                    JL_ARCHIVE_KEYS_MAX);
            uint32_t h = hash_key(k, key_size);
            uint64_t bit = 1ull << (h & 63);
            if (seen & bit) {
                for (uint32_t i = 0; i < count; i++) {
                    if (entries[i].hash == h && entries[i].key_size == key_size &&
                        memcmp(entries[i].key, k, key_size) == 0)
                        return jl_error_set(err, JL_ERR_PARSE, path, line, key_col,
                                            "duplicate key '%.*s' (first on line %u)", (int)key_size, k,
                                            entries[i].key_line);
                }
            }
            seen |= bit;
            pending = &entries[count++];
            *pending = (jl_archive_entry){
                .key = k, .key_size = (uint32_t)key_size, .key_line = line, .key_col = key_col, .hash = h};
        } else {
            if (!pending)
                return jl_error_set(err, JL_ERR_PARSE, path, line, 1, "value without a key (expected '; key')");
            while (s < e && is_space(*s)) s++; /* e > s: the line is not blank */
            pending->value = s;
            pending->value_size = (uint32_t)(e - s);
            pending->value_line = line;
            pending->value_col = (uint32_t)(s - p) + 1;
            pending->value_trail = trailing_blanks(e, line_end);
            pending = NULL;
        }
        p = next;
    }
    if (pending)
        return jl_error_set(err, JL_ERR_PARSE, path, pending->key_line, pending->key_col,
                            "file ends after key '%.*s' (truncated)", (int)pending->key_size, pending->key);
    ar->entry_count = count;
    ar->last_line = line;
    /* Keep exactly the entries (the table may start after alignment padding). */
    jl_arena_pop_to(arena, (size_t)((uint8_t *)(entries + count) - arena->base));
    return JL_OK;
}

/* The line (1-based) of the first git merge-conflict marker in text, or 0:
 * seven '<', '|', '=' or '>' at the start of a line, then a blank or the
 * line's end. */
static uint32_t conflict_marker_line(const char *text, size_t size)
{
    const char *p = text, *end = text + size;
    for (uint32_t line = 1; p < end; line++) {
        const size_t n = jli_scan_line(p, end);
        const char c = *p;
        if ((c == '<' || c == '|' || c == '=' || c == '>') && n >= 7) {
            size_t run = 1;
            while (run < 7 && p[run] == c) run++;
            if (run == 7 && (n == 7 || p[7] == ' ' || p[7] == '\r' || p[7] == '\t')) return line;
        }
        p += n + 1;
    }
    return 0;
}

/* The tokenizer, naming an unresolved git merge conflict where it fails. */
static jl_status tokenize_text(jl_archive *ar, jl_arena *arena, const char *text, size_t size, const char *path,
                               bool key_argument, jl_error *err)
{
    jl_status s = tokenize(ar, arena, text, size, path, key_argument, err);
    /* A file git left with a conflict in it fails somewhere around the
     * markers: say what it really is. Only on failure, so a valid file
     * costs nothing. */
    const uint32_t marker = s == JL_ERR_PARSE ? conflict_marker_line(text, size) : 0;
    if (marker)
        return jl_error_set(err, JL_ERR_PARSE, path, marker, 1,
                            "unresolved git merge conflict: keep the right lines and remove the "
                            "<<<<<<< ======= >>>>>>> markers");
    return s;
}

jl_status jl_archive_tokenize(jl_archive *ar, jl_arena *arena, const char *text, size_t size, const char *path,
                              jl_error *err)
{
    return tokenize_text(ar, arena, text, size, path, false, err);
}

jl_status jli_archive_tokenize_with_arguments(jl_archive *ar, jl_arena *arena, const char *text, size_t size,
                                              const char *path, jl_error *err)
{
    return tokenize_text(ar, arena, text, size, path, true, err);
}

/* ---- lookup ---- */

jl_archive_entry *jl_archive_find(jl_archive *ar, const char *key)
{
    uint32_t n = ar->entry_count;
    if (n == 0) return NULL;
    /* Files are usually in canonical order: start where the last hit ended. */
    uint32_t i = ar->next_lookup < n ? ar->next_lookup : 0;
    for (uint32_t k = 0; k < n; k++) {
        jl_archive_entry *e = &ar->entries[i];
        if (jli_key_is(e, key)) {
            ar->next_lookup = i + 1;
            return e;
        }
        if (++i == n) i = 0;
    }
    return NULL;
}
