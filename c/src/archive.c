/* archive.c - the .jasset tokenizer, value parsers and formatters, and the
 * entity reader and writer (archive.h, spec 4).
 *
 * Loading never copies the text: entries point into the file buffer, and
 * values are parsed straight into the entity's arena memory. Saving appends
 * to the top of an arena in large steps, so writing an entity is a run of
 * memcpy and digit loops with no allocation per value. */
#include "juliet/archive.h"

#include <string.h>

#include "entity_manager_internal.h"
#include "float_text_internal.h"
#include "juliet/float_text.h"

/* ---- small helpers ---- */

/* Character classes of the tokenizer: 1 = key character [A-Za-z0-9_],
 * 2 = blank (space, tab), 4 = a byte the fast path does not take as the
 * first of a value line (blank, CR, LF, ';', NUL: those lines need the
 * general rules). A table lookup is one load per byte. */
static const uint8_t char_class[256] = {
    4, 0, 0, 0, 0, 0, 0, 0, 0, 6, 4, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    6, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 4, 0, 0, 0, 0,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 1,
    0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
};

static inline bool is_space(char c) { return char_class[(uint8_t)c] & 2; }
static inline bool is_key_char(char c) { return char_class[(uint8_t)c] & 1; }
/* What is trimmed from a line's end: every CR, not just one, or a value
 * ending in CRs would lose one per save and never reach a canonical form. */
static inline bool is_trailing_blank(char c) { return c == '\r' || is_space(c); }

/* The length of a line of raw bytes (up to its LF) that counts against
 * JL_ARCHIVE_LINE_MAX: without the CR of a CRLF, so a file is held to the
 * same limit whichever line ends it has. */
static inline size_t line_length(const char *line, size_t raw)
{
    return raw - (raw && line[raw - 1] == '\r');
}

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
                  (uint32_t)(uint8_t)key[size / 2] << 16 | (uint32_t)size << 24) * 0x75a89295u;
    return h << 6 | h >> 26;
}

/* Length of the line at p: the offset of the first '\n' in [p, end), or
 * end - p. Eight bytes at a time where the target is little-endian (x86,
 * wasm): files are mostly short lines, and this loop is the tokenizer. */
static size_t scan_line(const char *p, const char *end)
{
    const char *s = p;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    while (end - s >= 8) {
        uint64_t v;
        memcpy(&v, s, sizeof v);
        uint64_t nl = v ^ (ones * '\n');
        uint64_t hit = (nl - ones) & ~nl & highs;
        if (hit) return (size_t)(s - p) + ((size_t)__builtin_ctzll(hit) >> 3);
        s += 8;
    }
#endif
    while (s < end && *s != '\n') s++;
    return (size_t)(s - p);
}

static int hex_value(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static jl_status parse_error(jl_archive *ar, uint32_t line, uint32_t col, const char *format,
                             const char *a, const char *b)
{
    return jl_error_set(ar->err, JL_ERR_PARSE, ar->path, line, col, format, a, b);
}

/* ---- tokenizer ---- */

jl_status jl_archive_tokenize(jl_archive *ar, jl_arena *arena, const char *text, size_t size,
                              const char *path, jl_error *err)
{
    *ar = (jl_archive){.loading = true, .path = path, .err = err, .file_version = 1, .class_version = 1};
    jl_archive_entry *entries =
        jl_arena_push(arena, JL_ARCHIVE_KEYS_MAX * sizeof *entries, _Alignof(jl_archive_entry));
    if (!entries) return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, path, 0, 0, "out of memory tokenizing");
    ar->entries = entries;

    const char *p = text, *end = text + size;
    if (size >= 3 && (uint8_t)p[0] == 0xEF && (uint8_t)p[1] == 0xBB && (uint8_t)p[2] == 0xBF) p += 3;

    /* One fast pass for NUL bytes (libc's memchr is vectorized); the line
     * loop then only looks for line ends. */
    const char *first_nul = memchr(p, '\0', (size_t)(end - p));
    if (!first_nul) first_nul = end;
    uint32_t count = 0, line = 0;
    uint64_t seen = 0; /* one bit per key hash bucket: most files need no string compare */
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
            while (end - ke >= 4 && (char_class[(uint8_t)ke[0]] & char_class[(uint8_t)ke[1]] &
                                     char_class[(uint8_t)ke[2]] & char_class[(uint8_t)ke[3]] & 1))
                ke += 4;
            while (ke < end && is_key_char(*ke)) ke++;
            const size_t key_size = (size_t)(ke - k);
            /* key_size in [1, KEY_MAX]; ke + 1 < end: a value byte exists */
            if (key_size - 1 < JL_ARCHIVE_KEY_MAX && end - ke >= 2 && *ke == '\n' &&
                !(char_class[(uint8_t)ke[1]] & 4)) {
                const char *v = ke + 1;
                const size_t raw = scan_line(v, end);
                const char *ve = v + raw;
                if (line_length(v, raw) <= JL_ARCHIVE_LINE_MAX && first_nul >= ve) {
                    /* v[0] is neither blank nor CR: the trimmed value is not empty */
                    const char *e = ve;
                    while (is_trailing_blank(e[-1])) e--;
                    const uint32_t h = hash_key(k, key_size);
                    const uint64_t bit = 1ull << (h & 63);
                    if (seen & bit) {
                        for (uint32_t i = 0; i < count; i++) {
                            if (entries[i].hash == h && entries[i].key_size == key_size &&
                                memcmp(entries[i].key, k, key_size) == 0)
                                return jl_error_set(err, JL_ERR_PARSE, path, line + 1, 3,
                                                    "duplicate key '%.*s' (first on line %u)", (int)key_size,
                                                    k, entries[i].key_line);
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
        size_t raw = scan_line(p, end);
        if (line_length(p, raw) > JL_ARCHIVE_LINE_MAX)
            return jl_error_set(err, JL_ERR_PARSE, path, line, JL_ARCHIVE_LINE_MAX + 1,
                                "line longer than %d bytes", JL_ARCHIVE_LINE_MAX);
        const char *line_end = p + raw;
        if (first_nul < line_end)
            return jl_error_set(err, JL_ERR_PARSE, path, line, (uint32_t)(first_nul - p) + 1, "embedded NUL byte");
        const char *s = p, *e = line_end;
        while (e > s && is_trailing_blank(e[-1])) e--;
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
            while (e - ke >= 4 && (char_class[(uint8_t)ke[0]] & char_class[(uint8_t)ke[1]] &
                                   char_class[(uint8_t)ke[2]] & char_class[(uint8_t)ke[3]] & 1))
                ke += 4;
            while (ke < e && is_key_char(*ke)) ke++;
            uint32_t key_col = (uint32_t)(k - p) + 1;
            if (ke == k)
                return jl_error_set(err, JL_ERR_PARSE, path, line, key_col,
                                    "expected a key name after ';'");
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
            *pending = (jl_archive_entry){.key = k, .key_size = (uint32_t)key_size, .key_line = line,
                                          .key_col = key_col, .hash = h};
        } else {
            if (!pending)
                return jl_error_set(err, JL_ERR_PARSE, path, line, 1,
                                    "value without a key (expected '; key')");
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

/* True if the entry's key is the NUL-terminated key. Keys are short: an
 * inline loop beats strlen plus memcmp. */
static inline bool key_is(const jl_archive_entry *e, const char *key)
{
    const uint32_t n = e->key_size;
    /* The first byte rejects almost every miss; key is NUL-terminated, so a
     * mismatch stops the loop before it reads past key's end. */
    if (e->key[0] != key[0]) return false;
    uint32_t i = 1;
    for (; i < n; i++)
        if (e->key[i] != key[i]) return false;
    return key[n] == '\0';
}

static jl_archive_entry *find_entry(jl_archive *ar, const char *key)
{
    uint32_t n = ar->entry_count;
    if (n == 0) return NULL;
    /* Files are usually in canonical order: start where the last hit ended. */
    uint32_t i = ar->next_lookup < n ? ar->next_lookup : 0;
    for (uint32_t k = 0; k < n; k++) {
        jl_archive_entry *e = &ar->entries[i];
        if (key_is(e, key)) {
            ar->next_lookup = i + 1;
            return e;
        }
        if (++i == n) i = 0;
    }
    return NULL;
}

jl_archive_entry *jl_archive_find(jl_archive *ar, const char *key) { return find_entry(ar, key); }

/* find_entry for a key spelled out here: the compiler turns the compare of
 * a known size into a couple of word compares. */
static inline jl_archive_entry *find_sized(jl_archive *ar, const char *key, uint32_t size)
{
    const uint32_t n = ar->entry_count;
    uint32_t i = ar->next_lookup < n ? ar->next_lookup : 0;
    for (uint32_t k = 0; k < n; k++) {
        jl_archive_entry *e = &ar->entries[i];
        if (e->key_size == size && memcmp(e->key, key, size) == 0) {
            ar->next_lookup = i + 1;
            return e;
        }
        if (++i == n) i = 0;
    }
    return NULL;
}
#define FIND_KNOWN(ar, literal) find_sized((ar), (literal), (uint32_t)sizeof(literal) - 1)

/* ---- values ---- */

const char *jl_field_type_name(jl_field_type type)
{
    static const char *names[JL_FIELD_TYPE_COUNT] = {"f32", "index", "bool", "vec3", "color", "entity_ref"};
    return (unsigned)type < JL_FIELD_TYPE_COUNT ? names[type] : "unknown";
}

/* Parses one float token; *msg says why on failure, *bad the offset. */
static bool parse_f32(const char *t, size_t n, uint32_t flags, float *out, size_t *bad, const char **msg)
{
    if (n != 0 && jli_f32_parse_plain(t, n, out) == n) return true; /* "12.5": no checks to make */
    size_t at = 0;
    switch (jl_f32_parse(t, n, out, &at)) {
    case JL_F32_OK: return true;
    case JL_F32_INF:
        if (flags & JL_FIELD_ALLOW_INF) return true;
        *bad = 0;
        *msg = "infinity is not allowed here";
        return false;
    case JL_F32_NAN:
        *bad = 0;
        *msg = "NaN is not allowed";
        return false;
    case JL_F32_RANGE:
        *bad = 0;
        *msg = "number out of float32 range";
        return false;
    case JL_F32_SYNTAX:
    default:
        *bad = at;
        *msg = at == 0 ? "expected a number" : "unexpected character in number";
        return false;
    }
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 hex digits at t (first digit most significant), eight bytes at a
 * time; false if any byte is not a hex digit (the caller's byte loop then
 * says which). Per byte, for ASCII x: a digit is x in [0x30, 0x3a), a
 * letter (x | 0x20) in [0x61, 0x67); bytes are biased by 0x80 so the
 * subtractions never borrow across bytes. */
static inline bool hex8(const char *t, uint32_t *out)
{
    const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    uint64_t x;
    memcpy(&x, t, sizeof x);
    if (x & highs) return false;
    const uint64_t lower = x | (0x20 * ones);
    const uint64_t digit = ((x | highs) - 0x30 * ones) & ~((x | highs) - 0x3a * ones);
    const uint64_t letter = ((lower | highs) - 0x61 * ones) & ~((lower | highs) - 0x67 * ones);
    if (((digit | letter) & highs) != highs) return false;
    /* Nibble per byte: the low four bits, plus 9 for a letter. */
    uint64_t v = (x & 0x0f * ones) + ((letter & highs) >> 7) * 9;
    /* Byte 0 holds the most significant nibble: pack pairs, quads, halves. */
    v = ((v & 0x000f000f000f000full) << 4) | ((v >> 8) & 0x000f000f000f000full);
    v = ((v & 0x000000ff000000ffull) << 8) | ((v >> 16) & 0x000000ff000000ffull);
    v = ((v & 0x000000000000ffffull) << 16) | ((v >> 32) & 0x000000000000ffffull);
    *out = (uint32_t)v;
    return true;
}
#endif

static bool parse_hex64(const char *t, size_t n, uint64_t *out, size_t *bad, const char **msg)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    /* The canonical 0x + 16 digits in two steps; errors take the loop. */
    uint32_t hi, lo;
    if (n == 18 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X') && hex8(t + 2, &hi) && hex8(t + 10, &lo)) {
        *out = (uint64_t)hi << 32 | lo;
        return true;
    }
#endif
    if (n < 3 || t[0] != '0' || (t[1] != 'x' && t[1] != 'X')) {
        *bad = 0;
        *msg = "expected 0x and hex digits";
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 2; i < n; i++) {
        int h = hex_value(t[i]);
        if (h < 0) {
            *bad = i;
            *msg = "unexpected character in hex number";
            return false;
        }
        if (i >= 18) {
            *bad = 0;
            *msg = "ID longer than 16 hex digits";
            return false;
        }
        v = (v << 4) | (uint64_t)h;
    }
    *out = v;
    return true;
}

static bool parse_u32(const char *t, size_t n, uint32_t *out, size_t *bad, const char **msg)
{
    if (n == 0 || t[0] < '0' || t[0] > '9') {
        *bad = 0;
        *msg = "expected a whole number";
        return false;
    }
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (t[i] < '0' || t[i] > '9') {
            *bad = i;
            *msg = "unexpected character in whole number";
            return false;
        }
        v = v * 10 + (uint64_t)(t[i] - '0');
        if (v > UINT32_MAX) {
            *bad = 0;
            *msg = "number out of range (max 4294967295)";
            return false;
        }
    }
    *out = (uint32_t)v;
    return true;
}

static bool word_is(const char *t, size_t n, const char *word)
{
    size_t w = strlen(word);
    return n == w && memcmp(t, word, w) == 0;
}

static bool parse_value(jl_field_type type, uint32_t flags, const char *t, size_t n, void *dst,
                        size_t *bad, const char **msg)
{
    switch (type) {
    case JL_FIELD_F32: return parse_f32(t, n, flags, dst, bad, msg);
    case JL_FIELD_INDEX:
        if (word_is(t, n, "none")) {
            *(uint32_t *)dst = JL_INDEX_MAX;
            return true;
        }
        return parse_u32(t, n, dst, bad, msg);
    case JL_FIELD_BOOL:
        if (word_is(t, n, "true")) *(bool *)dst = true;
        else if (word_is(t, n, "false")) *(bool *)dst = false;
        else {
            *bad = 0;
            *msg = "expected true or false";
            return false;
        }
        return true;
    case JL_FIELD_VEC3: {
        float v[3];
        {
            /* Fast path: three plain numbers separated by blanks ("1.5 -2 0"),
             * parsed in one pass; anything else takes the checks below. */
            size_t i = jli_f32_parse_plain(t, n, &v[0]), used;
            if (i != 0 && i < n && is_space(t[i])) {
                do i++; while (i < n && is_space(t[i]));
                if ((used = jli_f32_parse_plain(t + i, n - i, &v[1])) != 0 && (i += used) < n && is_space(t[i])) {
                    do i++; while (i < n && is_space(t[i]));
                    if ((used = jli_f32_parse_plain(t + i, n - i, &v[2])) == n - i) {
                        memcpy(dst, v, sizeof v);
                        return true;
                    }
                }
            }
        }
        size_t i = 0;
        for (int c = 0; c < 3; c++) {
            if (c > 0) {
                if (i >= n) {
                    *bad = i;
                    *msg = "expected 3 numbers";
                    return false;
                }
                if (!is_space(t[i])) {
                    /* the float parser stopped here: junk inside a number */
                    *bad = i;
                    *msg = "unexpected character in number";
                    return false;
                }
                while (i < n && is_space(t[i])) i++;
                if (i >= n) {
                    *bad = i;
                    *msg = "expected 3 numbers";
                    return false;
                }
            }
            size_t start = i;
            while (i < n && !is_space(t[i])) i++;
            size_t at = 0;
            if (!parse_f32(t + start, i - start, 0, &v[c], &at, msg)) {
                *bad = start + at;
                return false;
            }
        }
        if (i != n) {
            *bad = i;
            while (*bad < n && is_space(t[*bad])) (*bad)++;
            *msg = "unexpected text after 3 numbers";
            return false;
        }
        memcpy(dst, v, sizeof v); /* jl_vec3 and jl_vec4's first three are 3 packed floats */
        return true;
    }
    case JL_FIELD_COLOR: {
        if (n != 7 || t[0] != '#') {
            *bad = 0;
            *msg = "expected a color #rrggbb";
            return false;
        }
        uint8_t rgb[3];
        for (int c = 0; c < 3; c++) {
            int hi = hex_value(t[1 + 2 * c]), lo = hex_value(t[2 + 2 * c]);
            if (hi < 0 || lo < 0) {
                *bad = (size_t)(hi < 0 ? 1 + 2 * c : 2 + 2 * c);
                *msg = "expected a hex digit in color";
                return false;
            }
            rgb[c] = (uint8_t)(hi * 16 + lo);
        }
        jl_color *color = dst;
        color->r = rgb[0];
        color->g = rgb[1];
        color->b = rgb[2];
        return true;
    }
    case JL_FIELD_ENTITY_REF:
        if (word_is(t, n, "none")) {
            *(uint64_t *)dst = 0;
            return true;
        }
        return parse_hex64(t, n, dst, bad, msg);
    default:
        *bad = 0;
        *msg = "field of unknown type";
        return false;
    }
}

jl_status jl_value_parse(jl_field_type type, uint32_t flags, const char *text, size_t size,
                         void *dst, uint32_t *bad_col, jl_error *err)
{
    /* Parse into a temporary so a failure leaves dst untouched. */
    union {
        float f;
        uint32_t u;
        bool b;
        jl_vec3 v;
        jl_color c;
        uint64_t id;
    } tmp;
    size_t bad = 0;
    const char *msg = "";
    if (!parse_value(type, flags, text, size, &tmp, &bad, &msg)) {
        if (bad_col) *bad_col = (uint32_t)bad + 1;
        return jl_error_set(err, JL_ERR_PARSE, NULL, 0, (uint32_t)bad + 1, "%s", msg);
    }
    memcpy(dst, &tmp, jl_field_type_size(type));
    if (bad_col) *bad_col = 0;
    return JL_OK;
}

static uint32_t format_u32(uint32_t v, char *out)
{
    char buf[10];
    uint32_t n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    for (uint32_t i = 0; i < n; i++) out[i] = buf[n - 1 - i];
    return n;
}

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
/* The 8 lower-case hex digits of v at out, all at once: each nibble is
 * spread to its own byte (most significant first, as a little-endian store
 * wants it), then 0-9 and a-f become ASCII by adding '0' and, where the
 * nibble is 10 or more, the distance from '9' + 1 to 'a'. */
static inline void hex8_format(uint32_t v, char *out)
{
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t x = v;
    x = ((x >> 16) | (x << 32)) & 0x0000ffff0000ffffull;
    x = ((x >> 8) & 0x000000ff000000ffull) | ((x & 0x000000ff000000ffull) << 16);
    x = ((x >> 4) & 0x000f000f000f000full) | ((x & 0x000f000f000f000full) << 8);
    x += 0x30 * ones + (((x + 0x06 * ones) >> 4) & ones) * ('a' - '9' - 1);
    memcpy(out, &x, sizeof x);
}
#endif

static uint32_t format_hex64(uint64_t v, char *out)
{
    out[0] = '0';
    out[1] = 'x';
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    hex8_format((uint32_t)(v >> 32), out + 2);
    hex8_format((uint32_t)v, out + 10);
#else
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) out[2 + i] = digits[(v >> (60 - 4 * i)) & 15];
#endif
    return 18;
}

uint32_t jl_value_format(jl_field_type type, const void *src, char *out)
{
    static const char hex[] = "0123456789abcdef";
    switch (type) {
    case JL_FIELD_F32: return jl_f32_format(*(const float *)src, out);
    case JL_FIELD_INDEX: {
        uint32_t v = *(const uint32_t *)src;
        if (v == JL_INDEX_MAX) {
            memcpy(out, "none", 4);
            return 4;
        }
        return format_u32(v, out);
    }
    case JL_FIELD_BOOL:
        if (*(const bool *)src) {
            memcpy(out, "true", 4);
            return 4;
        }
        memcpy(out, "false", 5);
        return 5;
    case JL_FIELD_VEC3: {
        const float *v = src;
        uint32_t n = jl_f32_format(v[0], out);
        out[n++] = ' ';
        n += jl_f32_format(v[1], out + n);
        out[n++] = ' ';
        n += jl_f32_format(v[2], out + n);
        return n;
    }
    case JL_FIELD_COLOR: {
        const jl_color *c = src;
        out[0] = '#';
        out[1] = hex[c->r >> 4];
        out[2] = hex[c->r & 15];
        out[3] = hex[c->g >> 4];
        out[4] = hex[c->g & 15];
        out[5] = hex[c->b >> 4];
        out[6] = hex[c->b & 15];
        return 7;
    }
    case JL_FIELD_ENTITY_REF: {
        uint64_t id = *(const uint64_t *)src;
        if (id == 0) {
            memcpy(out, "none", 4);
            return 4;
        }
        return format_hex64(id, out);
    }
    default: return 0;
    }
}

/* ---- reading fields ---- */

static jl_status entry_value_error(jl_archive *ar, const jl_archive_entry *e, size_t bad, const char *msg)
{
    return jl_error_set(ar->err, JL_ERR_PARSE, ar->path, e->value_line, e->value_col + (uint32_t)bad,
                        "%.*s: %s", (int)e->key_size, e->key, msg);
}

static jl_status read_entry(jl_archive *ar, jl_archive_entry *e, jl_field_type type, uint32_t flags,
                            void *dst)
{
    e->used = true;
    size_t bad = 0;
    const char *msg = "";
    if (!parse_value(type, flags, e->value, e->value_size, dst, &bad, &msg))
        return entry_value_error(ar, e, bad, msg);
    return JL_OK;
}

jl_status jl_archive_read_field(jl_archive *ar, const jl_field *field, void *derived)
{
    jl_archive_entry *e = find_entry(ar, field->name);
    if (!e) return JL_OK; /* absent: the default stays (spec 3.3) */
    return read_entry(ar, e, field->type, field->flags, (char *)derived + field->offset);
}

jl_status jl_archive_read_f32(jl_archive *ar, const char *key, float *out, uint32_t flags)
{
    jl_archive_entry *e = jl_archive_find(ar, key);
    if (!e) return JL_ERR_NOT_FOUND;
    return read_entry(ar, e, JL_FIELD_F32, flags, out);
}

/* ---- writing ---- */

enum { WRITE_STEP = 64 * 1024 };

void jl_archive_begin_write(jl_archive *ar, jl_arena *out)
{
    *ar = (jl_archive){.loading = false, .out = out};
    char *p = (char *)out->base + out->used;
    ar->out_begin = ar->out_cursor = ar->out_limit = p;
}

/* Makes room for n more bytes at the cursor. The text stays contiguous
 * because nothing else pushes on the arena while writing. */
static bool reserve(jl_archive *ar, size_t n)
{
    if ((size_t)(ar->out_limit - ar->out_cursor) >= n) return true;
    if (ar->out_failed) return false;
    size_t step = n > WRITE_STEP ? n : WRITE_STEP;
    char *more = jl_arena_push(ar->out, step, 1);
    if (!more || more != ar->out_limit) {
        ar->out_failed = true;
        return false;
    }
    ar->out_limit += step;
    return true;
}

void jl_archive_write_raw(jl_archive *ar, const char *data, size_t size)
{
    if (!reserve(ar, size)) return;
    memcpy(ar->out_cursor, data, size);
    ar->out_cursor += size;
}

void jl_archive_write_key(jl_archive *ar, const char *key)
{
    size_t n = strlen(key);
    if (!reserve(ar, n + 3)) return;
    ar->out_cursor[0] = ';';
    ar->out_cursor[1] = ' ';
    memcpy(ar->out_cursor + 2, key, n);
    ar->out_cursor[2 + n] = '\n';
    ar->out_cursor += n + 3;
}

enum { FIELD_TEXT_MAX = 3 + JL_ARCHIVE_KEY_MAX + JL_VALUE_TEXT_MAX + 1 }; /* "; key\nvalue\n" */

/* Writes one field at the cursor, which has FIELD_TEXT_MAX bytes of room.
 * The key is cut at JL_ARCHIVE_KEY_MAX bytes (what that room allows);
 * strlen and memcpy beat a byte loop that tests both ends. */
static inline void write_field_unchecked(jl_archive *ar, const jl_field *field, const void *derived)
{
    char *c = ar->out_cursor;
    size_t n = strlen(field->name);
    if (n > JL_ARCHIVE_KEY_MAX) n = JL_ARCHIVE_KEY_MAX;
    c[0] = ';';
    c[1] = ' ';
    memcpy(c + 2, field->name, n);
    c += 2 + n;
    *c++ = '\n';
    c += jl_value_format(field->type, (const char *)derived + field->offset, c);
    *c++ = '\n';
    ar->out_cursor = c;
}

void jl_archive_write_field(jl_archive *ar, const jl_field *field, const void *derived)
{
    if (!reserve(ar, FIELD_TEXT_MAX)) return;
    write_field_unchecked(ar, field, derived);
}

jl_status jl_archive_end_write(jl_archive *ar, const char **text, size_t *size)
{
    jl_arena *out = ar->out;
    size_t used = (size_t)(ar->out_cursor - (char *)out->base);
    jl_arena_pop_to(out, used);
    ar->out_limit = ar->out_cursor;
    *text = ar->out_begin;
    *size = (size_t)(ar->out_cursor - ar->out_begin);
    if (ar->out_failed) return jl_error_set(ar->err, JL_ERR_OUT_OF_MEMORY, ar->path, 0, 0, "out of memory writing");
    return JL_OK;
}

jl_status jl_serialize_fields(jl_archive *ar, const jl_class *cls, void *derived)
{
    if (ar->loading) {
        for (uint32_t i = 0; i < cls->field_count; i++) {
            const jl_field *f = &cls->fields[i];
            /* A canonical file has the fields in table order, right after
             * the last key found: try that entry inline before a search
             * (keys are unique, so both find the same entry). */
            const uint32_t at = ar->next_lookup;
            jl_archive_entry *e;
            if (at < ar->entry_count && key_is(&ar->entries[at], f->name)) {
                e = &ar->entries[at];
                ar->next_lookup = at + 1;
            } else if ((e = find_entry(ar, f->name)) == NULL) {
                continue; /* absent: the default stays (spec 3.3) */
            }
            jl_status s = read_entry(ar, e, f->type, f->flags, (char *)derived + f->offset);
            if (s != JL_OK) return s;
        }
    } else {
        /* One room check for every field when the current step has room
         * for all of them at their worst (the usual case: the text grows in
         * 64 KiB steps); otherwise field by field, growing as needed. */
        const uint32_t n = cls->field_count;
        if ((size_t)(ar->out_limit - ar->out_cursor) / FIELD_TEXT_MAX >= n) {
            for (uint32_t i = 0; i < n; i++) write_field_unchecked(ar, &cls->fields[i], derived);
        } else {
            for (uint32_t i = 0; i < n; i++) jl_archive_write_field(ar, &cls->fields[i], derived);
        }
    }
    return JL_OK;
}

/* ---- entities ---- */

jl_status jl_archive_write_entity(jl_archive *ar, const jl_entity *entity, const char *extra,
                                  size_t extra_size)
{
    const jl_class *cls = entity->derived_kind;
    size_t name = strlen(cls->name);
    /* The fixed header in one reservation: keys, ID, name, two versions, position. */
    if (!reserve(ar, 160 + name + 3 * JL_F32_TEXT_MAX)) return JL_ERR_OUT_OF_MEMORY;
    char *c = ar->out_cursor;
    static const char h1[] = "; asset_type\nentity_instance\n; id\n";
    memcpy(c, h1, sizeof h1 - 1);
    c += sizeof h1 - 1;
    c += format_hex64(entity->id, c);
    static const char h2[] = "\n; class\n";
    memcpy(c, h2, sizeof h2 - 1);
    c += sizeof h2 - 1;
    memcpy(c, cls->name, name);
    c += name;
    static const char h3[] = "\n; version\n";
    memcpy(c, h3, sizeof h3 - 1);
    c += sizeof h3 - 1;
    c += format_u32(JL_ENTITY_BASE_VERSION, c);
    static const char h4[] = "\n; class_version\n";
    memcpy(c, h4, sizeof h4 - 1);
    c += sizeof h4 - 1;
    c += format_u32(cls->version, c);
    static const char h5[] = "\n; position\n";
    memcpy(c, h5, sizeof h5 - 1);
    c += sizeof h5 - 1;
    c += jl_value_format(JL_FIELD_VEC3, &entity->position, c);
    *c++ = '\n';
    ar->out_cursor = c;
    jl_status s = cls->serialize(ar, cls, entity->derived);
    if (s != JL_OK) return s;
    if (extra_size) jl_archive_write_raw(ar, extra, extra_size);
    return ar->out_failed ? JL_ERR_OUT_OF_MEMORY : JL_OK;
}

static jl_status read_version(jl_archive *ar, jl_archive_entry *e, uint32_t *out)
{
    if (!e) {
        *out = 1;
        return JL_OK;
    }
    jl_status s = read_entry(ar, e, JL_FIELD_INDEX, 0, out);
    if (s != JL_OK) return s;
    if (*out == 0 || *out == JL_INDEX_MAX) return entry_value_error(ar, e, 0, "version must be a number from 1");
    return JL_OK;
}

jl_status jl_archive_read_entity(jl_archive *ar, jl_entity *entity, uint64_t *id_out)
{
    const jl_class *cls = entity->derived_kind;
    jl_status s;
    /* Look keys up in canonical order: each search then hits at once. */
    ar->next_lookup = 0;
    jl_archive_entry *e = FIND_KNOWN(ar, "asset_type");
    if (e) {
        e->used = true;
        if (!word_is(e->value, e->value_size, "entity_instance"))
            return entry_value_error(ar, e, 0, "expected entity_instance");
    }
    jl_archive_entry *id_entry = FIND_KNOWN(ar, "id");
    e = FIND_KNOWN(ar, "class");
    if (e) e->used = true;
    if (!id_entry) return parse_error(ar, 0, 0, "missing key '%s'%s", "id", "");
    uint64_t id = 0;
    if ((s = read_entry(ar, id_entry, JL_FIELD_ENTITY_REF, 0, &id)) != JL_OK) return s;
    if (id == 0) return entry_value_error(ar, id_entry, 0, "an entity ID of zero is not allowed");
    if ((s = read_version(ar, FIND_KNOWN(ar, "version"), &ar->file_version)) != JL_OK) return s;
    if ((s = read_version(ar, FIND_KNOWN(ar, "class_version"), &ar->class_version)) != JL_OK) return s;
    entity->position.w = 1.0f; /* spec 3.6: w is 1 whether or not the file has a position */
    e = FIND_KNOWN(ar, "position");
    if (e) {
        jl_vec3 p;
        if ((s = read_entry(ar, e, JL_FIELD_VEC3, 0, &p)) != JL_OK) return s;
        entity->position = (jl_vec4){p.x, p.y, p.z, 1.0f};
    }
    if ((s = cls->serialize(ar, cls, entity->derived)) != JL_OK) return s;
    if (ar->file_version > JL_ENTITY_BASE_VERSION || ar->class_version > cls->version) {
        entity->flags |= JL_ENTITY_READ_ONLY;
    } else if (ar->class_version < cls->version && cls->migrate) {
        if ((s = cls->migrate(ar, cls, entity->derived, ar->class_version)) != JL_OK) return s;
    }
    *id_out = id;
    return JL_OK;
}

/* The spec's find_class_by_name, with a direct name compare first: a
 * handful of classes, so comparing names beats hashing one. */
static const jl_class *find_class(const char *name, size_t size)
{
    uint32_t n = jl_class_count();
    for (uint32_t k = 0; k < n; k++) {
        const jl_class *cls = jl_class_at(k);
        /* The first byte (size >= 1: values are never empty) skips most
         * strncmp calls. */
        if (cls && cls->name[0] == name[0] && strncmp(cls->name, name, size) == 0 && cls->name[size] == '\0')
            return cls;
    }
    return jl_class_find_by_name(name, size);
}

jl_status jl_entity_deserialize_in_place(jl_entity_manager *manager, jl_archive *ar, jl_entity **out)
{
    *out = NULL;
    /* 1. The class first: it decides what to allocate. */
    jl_archive_entry *e = FIND_KNOWN(ar, "class");
    if (!e) return parse_error(ar, 0, 0, "missing key '%s'%s", "class", "");
    const jl_class *cls = find_class(e->value, e->value_size);
    if (!cls)
        return jl_error_set(ar->err, JL_ERR_UNKNOWN_CLASS, ar->path, e->value_line, e->value_col,
                            "unknown class '%.*s'", (int)e->value_size, e->value);
    /* 2. Memory in its final place (spec 3). */
    jl_entity *entity;
    jl_status s = jl_entity_allocate(manager, cls, &entity);
    if (s != JL_OK)
        return jl_error_set(ar->err, s, ar->path, 0, 0, "cannot allocate a %s: %s", cls->name,
                            jl_status_name(s));
    /* 3. Stream every field into it. */
    uint64_t id = 0;
    s = jl_archive_read_entity(ar, entity, &id);
    if (s == JL_OK) {
        s = jl_entity_set_id(manager, entity, id);
        if (s == JL_ERR_DUPLICATE_ID) {
            jl_archive_entry *ide = FIND_KNOWN(ar, "id");
            jl_error_set(ar->err, s, ar->path, ide ? ide->value_line : 0, ide ? ide->value_col : 0,
                         "duplicate entity ID 0x%016llx", (unsigned long long)id);
        } else if (s != JL_OK) {
            jl_error_set(ar->err, s, ar->path, 0, 0, "cannot index entity: %s", jl_status_name(s));
        }
    }
    if (s != JL_OK) {
        jli_entity_rollback_allocation(manager, entity); /* the manager is as before the file */
        return s;
    }
    /* 4. Never mint this ID again; 5. it matches its file. */
    jl_manager_note_id(manager, id);
    entity->is_dirty = false;
    *out = entity;
    return JL_OK;
}

/* The value's whole line as the file has it, without its line end: the
 * blanks before the value (value_col - 1 of them: a value line holds
 * nothing else before its value), the value, the blanks after it. */
static const char *entry_line(const jl_archive_entry *e, size_t *size)
{
    *size = (size_t)(e->value_col - 1) + e->value_size + e->value_trail;
    return e->value - (e->value_col - 1);
}

size_t jl_archive_collect_unknown(jl_archive *ar, jl_arena *out, const char **text)
{
    size_t total = 0, line_size;
    for (uint32_t i = 0; i < ar->entry_count; i++) {
        if (ar->entries[i].used) continue;
        entry_line(&ar->entries[i], &line_size);
        total += 2 + ar->entries[i].key_size + 1 + line_size + 1;
    }
    *text = NULL;
    if (total == 0) return 0;
    char *c = jl_arena_push(out, total, 1);
    if (!c) return 0;
    *text = c;
    for (uint32_t i = 0; i < ar->entry_count; i++) {
        const jl_archive_entry *e = &ar->entries[i];
        if (e->used) continue;
        *c++ = ';';
        *c++ = ' ';
        memcpy(c, e->key, e->key_size);
        c += e->key_size;
        *c++ = '\n';
        const char *line = entry_line(e, &line_size);
        memcpy(c, line, line_size);
        c += line_size;
        *c++ = '\n';
    }
    return total;
}
