/* snapshot_decode.c - a snapshot byte stream back into entities (format in
 * snapshot.h). The input is hostile: every read is bounds-checked, every
 * count is bounded before it drives a loop, and nothing touches the target
 * until the whole stream has been checked. The CRC is checked first, right
 * after the magic and version, so damage is reported as damage. */
#include <stdarg.h>
#include <stdio.h>

#include "archive/archive_internal.h"
#include "juliet/snapshot.h"
#include "juliet/world.h"
#include "entity/entity_manager_internal.h"
#include "snapshot/snapshot_internal.h"

/* ---- reading ---- */

bool jli_snap_fail(jli_snap_reader *r, jl_status status, const char *format, ...)
{
    if (r->failed) return false;
    r->failed = true;
    char message[JL_ERROR_MESSAGE_MAX];
    va_list args;
    va_start(args, format);
    vsnprintf(message, sizeof message, format, args);
    va_end(args);
    jl_error_set(r->err, status, NULL, 0, 0, "snapshot byte %zu: %s", (size_t)(r->p - r->start), message);
    r->status = status;
    return false;
}

size_t jli_snap_left(const jli_snap_reader *r) { return (size_t)(r->end - r->p); }

const uint8_t *jli_snap_read_bytes(jli_snap_reader *r, size_t n, const char *what)
{
    if (r->failed) return NULL;
    if (n > jli_snap_left(r)) {
        jli_snap_fail(r, JL_ERR_CORRUPT, "truncated: %s needs %zu bytes, %zu left", what, n, jli_snap_left(r));
        return NULL;
    }
    const uint8_t *p = r->p;
    r->p += n;
    return p;
}

uint8_t jli_snap_read_u8(jli_snap_reader *r, const char *what)
{
    const uint8_t *p = jli_snap_read_bytes(r, 1, what);
    return p ? p[0] : 0;
}

uint32_t jli_snap_read_u32(jli_snap_reader *r, const char *what)
{
    const uint8_t *p = jli_snap_read_bytes(r, 4, what);
    return p ? (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24 : 0;
}

uint64_t jli_snap_read_varint(jli_snap_reader *r, const char *what)
{
    if (r->failed) return 0;
    const uint8_t *start = r->p;
    uint64_t v = 0;
    for (unsigned i = 0; i < JLI_SNAP_VARINT_MAX; i++) {
        if (r->p == r->end) {
            r->p = start;
            jli_snap_fail(r, JL_ERR_CORRUPT, "truncated: %s", what);
            return 0;
        }
        uint8_t b = *r->p++;
        if (i == JLI_SNAP_VARINT_MAX - 1 && b > 1) break;
        v |= (uint64_t)(b & 0x7f) << (7 * i);
        if (!(b & 0x80)) {
            /* Shortest form only, so each value has one encoding. */
            if (b == 0 && i > 0) break;
            return v;
        }
    }
    r->p = start;
    jli_snap_fail(r, JL_ERR_CORRUPT, "malformed varint for %s", what);
    return 0;
}

int64_t jli_snap_read_svarint(jli_snap_reader *r, const char *what)
{
    return jli_snap_unzigzag(jli_snap_read_varint(r, what));
}

/* A count bounded by max and by the bytes left (each counted item takes at
 * least min_bytes), so that no loop runs longer than the input warrants. */
uint32_t jli_snap_read_count(jli_snap_reader *r, uint64_t max, size_t min_bytes, const char *what)
{
    uint64_t v = jli_snap_read_varint(r, what);
    if (r->failed) return 0;
    if (v > max) {
        jli_snap_fail(r, JL_ERR_CORRUPT, "%s %llu exceeds the limit %llu", what, (unsigned long long)v,
                      (unsigned long long)max);
        return 0;
    }
    if (min_bytes && v > jli_snap_left(r) / min_bytes) {
        jli_snap_fail(r, JL_ERR_CORRUPT, "truncated: %llu %s cannot fit in %zu bytes", (unsigned long long)v, what,
                      jli_snap_left(r));
        return 0;
    }
    return (uint32_t)v;
}

/* Reads n byte planes of width bytes each into spans (spans[i] = offset). */
static bool read_planes(jli_snap_reader *r, unsigned width, uint32_t n, uint64_t *spans, const char *what)
{
    for (uint32_t i = 0; i < n; i++) spans[i] = 0;
    for (unsigned plane = 0; plane < width; plane++) {
        const uint8_t *p = jli_snap_read_bytes(r, n, what);
        if (!p) return false;
        for (uint32_t i = 0; i < n; i++) spans[i] |= (uint64_t)p[i] << (8 * plane);
    }
    return true;
}

bool jli_snap_read_int_column(jli_snap_reader *r, uint32_t n, uint64_t max, uint64_t *out, const char *what)
{
    uint64_t base = jli_snap_read_varint(r, what);
    unsigned width = jli_snap_read_u8(r, what);
    if (r->failed) return false;
    if (width > 8) return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: column width %u above 8", what, width);
    if (!read_planes(r, width, n, out, what)) return false;
    for (uint32_t i = 0; i < n; i++) {
        if (out[i] > UINT64_MAX - base || base + out[i] > max)
            return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: value %u out of range (above %llu)", what, i,
                                 (unsigned long long)max);
        out[i] += base;
    }
    return true;
}

bool jli_snap_read_sorted_ids(jli_snap_reader *r, uint32_t n, uint64_t *ids, const char *what)
{
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v = jli_snap_read_varint(r, what);
        if (r->failed) return false;
        if (i == 0) {
            if (v == 0) return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: ID 0", what);
            ids[0] = v;
        } else {
            if (v >= UINT64_MAX - ids[i - 1]) return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: ID past 2^64", what);
            ids[i] = ids[i - 1] + v + 1;
        }
    }
    return true;
}

/* A float column into n slots stride bytes apart from dst. */
bool jli_snap_read_float_column(jli_snap_reader *r, uint32_t n, bool allow_inf, uint8_t *dst, size_t stride,
                                uint64_t *spans, const char *what)
{
    uint8_t mode = jli_snap_read_u8(r, what);
    if (r->failed) return false;
    if (mode == JLI_SNAP_FLOAT_BITS) {
        if (!jli_snap_read_int_column(r, n, UINT32_MAX, spans, what)) return false;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t bits = (uint32_t)spans[i];
            if (jli_snap_bits_nan(bits)) return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: value %u is NaN", what, i);
            if (jli_snap_bits_inf(bits) && !allow_inf)
                return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: value %u is infinite", what, i);
            memcpy(dst + i * stride, &bits, sizeof bits);
        }
        return true;
    }
    if (mode != JLI_SNAP_FLOAT_DECIMAL)
        return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: unknown float column mode %u", what, mode);

    int64_t exponent = jli_snap_read_svarint(r, what);
    int64_t base = jli_snap_read_svarint(r, what);
    unsigned width = jli_snap_read_u8(r, what);
    if (r->failed) return false;
    if (exponent < -JLI_SNAP_EXPONENT_MAX || exponent > JLI_SNAP_EXPONENT_MAX)
        return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: decimal exponent %lld out of range", what, (long long)exponent);
    if (base < -JLI_SNAP_MANTISSA_MAX || base > JLI_SNAP_MANTISSA_MAX)
        return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: mantissa base out of range", what);
    if (width > JLI_SNAP_MANTISSA_WIDTH_MAX)
        return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: mantissa width %u above %d", what, width,
                             JLI_SNAP_MANTISSA_WIDTH_MAX);
    if (!read_planes(r, width, n, spans, what)) return false;
    for (uint32_t i = 0; i < n; i++) {
        /* base >= -2^53 and spans < 2^56: the sum cannot overflow. */
        int64_t m = base + (int64_t)spans[i];
        if (m > JLI_SNAP_MANTISSA_MAX) return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: mantissa %u out of range", what, i);
        float value = jli_snap_decimal_value(m, (int)exponent);
        memcpy(dst + i * stride, &value, sizeof value);
    }
    uint32_t exceptions = jli_snap_read_count(r, n, 5, "float exceptions");
    uint64_t next = 0;
    for (uint32_t x = 0; x < exceptions; x++) {
        uint64_t gap = jli_snap_read_varint(r, what);
        uint32_t bits = jli_snap_read_u32(r, what);
        if (r->failed) return false;
        if (gap >= n - next) return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: exception index out of range", what);
        uint64_t i = next + gap;
        if (jli_snap_bits_nan(bits))
            return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: value %llu is NaN", what, (unsigned long long)i);
        if (jli_snap_bits_inf(bits) && !allow_inf)
            return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: value %llu is infinite", what, (unsigned long long)i);
        memcpy(dst + i * stride, &bits, sizeof bits);
        next = i + 1;
    }
    return !r->failed;
}

/* ---- the entity sections ---- */

static size_t align_up(size_t v, size_t a) { return (v + a - 1) & ~(a - 1); }

/* Checks the CRC32 that ends the stream against every byte before it and
 * ends the reader before it. Done before any content is read: one damaged
 * byte could otherwise pass for anything (an unknown class, a bad count),
 * and a damaged link must be reported as damaged. */
bool jli_snap_read_head(jli_snap_reader *r, const uint8_t magic[3], const char *what, unsigned version, uint64_t known,
                        uint64_t *flags)
{
    const uint8_t *head = jli_snap_read_bytes(r, 3, "magic");
    if (!head) return false;
    if (memcmp(head, magic, 3) != 0) {
        r->p = r->start;
        return jli_snap_fail(r, JL_ERR_CORRUPT, "not a Juliet %s (bad magic)", what);
    }
    uint8_t found = jli_snap_read_u8(r, "version");
    if (r->failed) return false;
    if (found != version) {
        r->p--;
        return jli_snap_fail(r, JL_ERR_CORRUPT, "format version %u, this build reads version %u", found, version);
    }
    /* Magic and version come first: they say how the rest, checksum
     * included, is laid out. */
    if (jli_snap_left(r) < 4) return jli_snap_fail(r, JL_ERR_CORRUPT, "truncated: no checksum");
    const uint8_t *c = r->end - 4;
    uint32_t stored = (uint32_t)c[0] | (uint32_t)c[1] << 8 | (uint32_t)c[2] << 16 | (uint32_t)c[3] << 24;
    if (stored != jl_crc32(r->start, (size_t)(c - r->start))) {
        /* No byte offset: the damage may be anywhere. */
        r->failed = true;
        r->status = JL_ERR_CORRUPT;
        jl_error_set(r->err, JL_ERR_CORRUPT, NULL, 0, 0, "%s: the link is damaged (checksum mismatch)", what);
        return false;
    }
    r->end = c;
    *flags = jli_snap_read_varint(r, "flags");
    if (r->failed) return false;
    if (*flags & ~known) return jli_snap_fail(r, JL_ERR_CORRUPT, "unknown flags 0x%llx", (unsigned long long)*flags);
    return true;
}

/* Reads the class table and takes scratch for everything else. */
static bool read_header(jli_snap_decoder *d)
{
    jli_snap_reader *r = &d->r;
    uint64_t flags;
    if (!jli_snap_read_head(r, jli_snap_magic, "snapshot", JL_SNAPSHOT_VERSION, JLI_SNAP_FLAGS_KNOWN, &flags))
        return false;
    d->flags = (uint32_t)flags;
    if (flags & JLI_SNAP_FLAG_CLASSES) {
        if (!d->read_classes)
            return jli_snap_fail(r, JL_ERR_INVALID_ARGUMENT, "the snapshot carries classes: decode it into a world");
        if (!d->read_classes(d)) return false;
    }

    d->class_count = jli_snap_read_count(r, JL_CLASS_MAX, 10, "class count");
    uint64_t total = 0;
    for (uint32_t c = 0; c < d->class_count; c++) {
        uint32_t crc = jli_snap_read_u32(r, "class name CRC");
        uint64_t version_c = jli_snap_read_varint(r, "class version");
        uint32_t schema = jli_snap_read_u32(r, "class field CRC");
        if (r->failed) return false;
        const jl_class *cls = jl_registry_find_crc(d->registry, crc);
        if (!cls)
            return jli_snap_fail(r, JL_ERR_UNKNOWN_CLASS, "class with name CRC 0x%08x is unknown to this build", crc);
        for (uint32_t prev = 0; prev < c; prev++)
            if (d->classes[prev].cls == cls)
                return jli_snap_fail(r, JL_ERR_CORRUPT, "class %s listed twice", cls->name);
        if (version_c != cls->version)
            return jli_snap_fail(r, JL_ERR_UNKNOWN_CLASS, "class %s version %llu, this build has version %u", cls->name,
                                 (unsigned long long)version_c, cls->version);
        if (schema != jli_snap_schema_crc(cls))
            return jli_snap_fail(r, JL_ERR_UNKNOWN_CLASS,
                                 "class %s has other fields in this build than in the snapshot", cls->name);
        uint32_t count = jli_snap_read_count(r, JL_SNAPSHOT_MAX_ENTITIES, 0, "class entity count");
        if (r->failed) return false;
        if (count == 0) return jli_snap_fail(r, JL_ERR_CORRUPT, "class %s listed with no entity", cls->name);
        total += count;
        if (total > JL_SNAPSHOT_MAX_ENTITIES)
            return jli_snap_fail(r, JL_ERR_CORRUPT, "more than %u entities", (unsigned)JL_SNAPSHOT_MAX_ENTITIES);
        d->classes[c] = (jli_snap_class_entry){.cls = cls, .count = count};
    }
    /* Before any scratch is taken: a world too small fails fast. */
    if (total > d->room)
        return jli_snap_fail(r, JL_ERR_CAPACITY, "snapshot has %llu entities, the world takes %u more",
                             (unsigned long long)total, d->room);
    /* Each ID takes at least one byte. */
    if (total > jli_snap_left(r))
        return jli_snap_fail(r, JL_ERR_CORRUPT, "truncated: %llu entities in %zu bytes", (unsigned long long)total,
                             jli_snap_left(r));
    d->count = (uint32_t)total;

    /* Scratch: per entity an ID, a class index, a position and flags; per
     * class a staging copy of its derived structs; one value column. */
    size_t n = d->count ? d->count : 1;
    size_t input = (size_t)(r->end - r->start);
    size_t need = n * (sizeof(uint64_t) * 2 + sizeof(jl_vec3) + sizeof(uint32_t) + 2) + 64;
    /* World section: unknown-key sizes, the settings, and the text of one
     * entity file at a time (its unknown keys come from the input). */
    need += n * sizeof(uint32_t) + sizeof(jl_world_settings) + 64 * 1024 + 2 * input;
    need += (input < JL_SNAPSHOT_MAX_ENTITIES ? input : JL_SNAPSHOT_MAX_ENTITIES) * sizeof(uint64_t);
    for (uint32_t c = 0; c < d->class_count; c++)
        need += align_up((size_t)d->classes[c].count * d->classes[c].cls->size_of, 16) + 16;
    if (!d->scratch->base) {
        if (jl_arena_init(d->scratch, need + 4096) != JL_OK)
            return jli_snap_fail(r, JL_ERR_OUT_OF_MEMORY, "no memory for %u entities", d->count);
        d->owns_scratch = true;
    }
    d->ids = jl_arena_push(d->scratch, n * sizeof *d->ids, 8);
    d->spans = jl_arena_push(d->scratch, n * sizeof *d->spans, 8);
    d->positions = jl_arena_push(d->scratch, n * sizeof *d->positions, 4);
    d->ranks = jl_arena_push(d->scratch, n * sizeof *d->ranks, 4);
    d->class_of = jl_arena_push(d->scratch, n, 1);
    d->flags_of = jl_arena_push(d->scratch, n, 1);
    if (!d->ids || !d->spans || !d->positions || !d->ranks || !d->class_of || !d->flags_of)
        return jli_snap_fail(r, JL_ERR_OUT_OF_MEMORY, "no memory for %u entities", d->count);
    for (uint32_t c = 0; c < d->class_count; c++) {
        const jl_class *cls = d->classes[c].cls;
        size_t bytes = (size_t)d->classes[c].count * cls->size_of;
        d->classes[c].staging = jl_arena_push(d->scratch, bytes, cls->alignment < 16 ? 16 : cls->alignment);
        if (!d->classes[c].staging)
            return jli_snap_fail(r, JL_ERR_OUT_OF_MEMORY, "no memory for %u entities", d->count);
        /* Field values are copied out one by one, never padding: zero it
         * anyway so the staging copy is deterministic. */
        memset(d->classes[c].staging, 0, bytes);
    }
    return true;
}

bool jli_snap_read_field(jli_snap_decoder *d, jli_snap_class_entry *entry, const jl_field *f)
{
    jli_snap_reader *r = &d->r;
    const jl_class *cls = entry->cls;
    uint32_t n = entry->count;
    uint8_t *dst = entry->staging + f->offset;
    size_t stride = cls->size_of;
    uint64_t *vals = d->spans;
    const char *what = f->name;
    switch (f->type) {
    case JL_FIELD_F32:
        return jli_snap_read_float_column(r, n, (f->flags & JL_FIELD_ALLOW_INF) != 0, dst, stride, vals, what);
    case JL_FIELD_VEC2:
    case JL_FIELD_VEC3:
    case JL_FIELD_QUAT:
        for (size_t c = 0; c < jl_field_type_size(f->type) / sizeof(float); c++)
            if (!jli_snap_read_float_column(r, n, false, dst + c * sizeof(float), stride, vals, what)) return false;
        return true;
    case JL_FIELD_U32:
        if (!jli_snap_read_int_column(r, n, UINT32_MAX, vals, what)) return false;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t v = (uint32_t)vals[i];
            memcpy(dst + i * stride, &v, sizeof v);
        }
        return true;
    case JL_FIELD_I32:
        /* zigzag of an int32 is below 2^32 */
        if (!jli_snap_read_int_column(r, n, UINT32_MAX, vals, what)) return false;
        for (uint32_t i = 0; i < n; i++) {
            int32_t v = (int32_t)jli_snap_unzigzag(vals[i]);
            memcpy(dst + i * stride, &v, sizeof v);
        }
        return true;
    case JL_FIELD_ENUM:
        if (!f->enumeration || f->enumeration->count == 0)
            return jli_snap_fail(r, JL_ERR_CORRUPT, "class %s: enum field %s has no names", cls->name, f->name);
        if (!jli_snap_read_int_column(r, n, f->enumeration->count - 1, vals, what)) return false;
        for (uint32_t i = 0; i < n; i++) {
            jl_enum_value v = (jl_enum_value)vals[i];
            memcpy(dst + i * stride, &v, sizeof v);
        }
        return true;
    case JL_FIELD_STRING: {
        /* Sizes (each at most a line, all within the bytes left), then the
         * bytes: each staged string points into the input, which outlives
         * the decoding, and is checked as the text reader would. */
        if (!jli_snap_read_int_column(r, n, JL_ARCHIVE_LINE_MAX, vals, what)) return false;
        uint64_t total = 0;
        for (uint32_t i = 0; i < n; i++) total += vals[i];
        if (total > jli_snap_left(r))
            return jli_snap_fail(r, JL_ERR_CORRUPT, "truncated: %s needs %llu bytes, %zu left", what,
                                 (unsigned long long)total, jli_snap_left(r));
        for (uint32_t i = 0; i < n; i++) {
            const uint8_t *bytes = jli_snap_read_bytes(r, (size_t)vals[i], what);
            jl_string v = {vals[i] ? (const char *)bytes : "", (uint32_t)vals[i]};
            size_t bad = 0;
            const char *problem = jli_string_problem(&v, &bad);
            if (problem) {
                r->p = bytes + bad;
                return jli_snap_fail(r, JL_ERR_CORRUPT, "%s: value %u: %s", what, i, problem);
            }
            memcpy(dst + i * stride, &v, sizeof v);
        }
        return true;
    }
    case JL_FIELD_INDEX:
        if (!jli_snap_read_int_column(r, n, UINT32_MAX, vals, what)) return false;
        for (uint32_t i = 0; i < n; i++) {
            uint32_t v = (uint32_t)vals[i] - 1u;
            memcpy(dst + i * stride, &v, sizeof v);
        }
        return true;
    case JL_FIELD_BOOL:
        if (!jli_snap_read_int_column(r, n, 1, vals, what)) return false;
        for (uint32_t i = 0; i < n; i++) {
            bool v = vals[i] != 0;
            memcpy(dst + i * stride, &v, sizeof v);
        }
        return true;
    case JL_FIELD_COLOR:
        if (!jli_snap_read_int_column(r, n, 0xffffff, vals, what)) return false;
        for (uint32_t i = 0; i < n; i++) {
            jl_color v = {(uint8_t)(vals[i] >> 16), (uint8_t)(vals[i] >> 8), (uint8_t)vals[i]};
            memcpy(dst + i * stride, &v, sizeof v);
        }
        return true;
    case JL_FIELD_ENTITY_REF: {
        /* References to IDs outside the snapshot: a table of them, then the
         * codes. The table is bounded by the bytes left (one or more per
         * ID) and by the entity cap, and is popped after the column. */
        uint32_t external = jli_snap_read_count(r, JL_SNAPSHOT_MAX_ENTITIES, 1, "external references");
        if (r->failed) return false;
        size_t mark = d->scratch->used;
        uint64_t *table = jl_arena_push(d->scratch, (external ? external : 1) * sizeof *table, 8);
        if (!table) return jli_snap_fail(r, JL_ERR_OUT_OF_MEMORY, "no memory for %u references", external);
        /* Codes: 0 none, 1..X external, then 1 + X + zigzag(target rank -
         * own rank) for an entity of the snapshot (references are mostly
         * to neighbours, so the values stay small). */
        uint64_t max = 1 + (uint64_t)external + 2 * (uint64_t)d->count;
        bool ok = jli_snap_read_sorted_ids(r, external, table, what) && jli_snap_read_int_column(r, n, max, vals, what);
        for (uint32_t i = 0; ok && i < n; i++) {
            uint64_t code = vals[i], id = 0;
            if (code >= 1 && code <= external) {
                id = table[code - 1];
            } else if (code > external) {
                int64_t own = entry->ranks ? (int64_t)entry->ranks[i] : 0;
                int64_t target = own + jli_snap_unzigzag(code - 1 - external);
                if (target < 0 || target >= (int64_t)d->count) {
                    ok = jli_snap_fail(r, JL_ERR_CORRUPT, "%s: value %u refers past the entities", what, i);
                    break;
                }
                id = d->ids[target];
            }
            memcpy(dst + i * stride, &id, sizeof id);
        }
        jl_arena_pop_to(d->scratch, mark);
        return ok;
    }
    default:
        return jli_snap_fail(r, JL_ERR_CORRUPT, "class %s: field %s has a type snapshots cannot hold", cls->name,
                             f->name);
    }
}

bool jli_snap_decode_entities(jli_snap_decoder *d)
{
    jli_snap_reader *r = &d->r;
    if (!read_header(d)) return false;
    uint32_t n = d->count;
    if (!jli_snap_read_sorted_ids(r, n, d->ids, "IDs")) return false;

    if (!jli_snap_read_int_column(r, n, d->class_count ? d->class_count - 1 : 0, d->spans, "class column"))
        return false;
    uint32_t seen[JL_CLASS_MAX] = {0};
    for (uint32_t i = 0; i < n; i++) {
        d->class_of[i] = (uint8_t)d->spans[i];
        seen[d->spans[i]]++;
    }
    for (uint32_t c = 0; c < d->class_count; c++)
        if (seen[c] != d->classes[c].count)
            return jli_snap_fail(r, JL_ERR_CORRUPT, "class column has %u entities of %s, the table %u", seen[c],
                                 d->classes[c].cls->name, d->classes[c].count);
    /* Each class's entities' ranks among all (for relative references). */
    uint32_t start[JL_CLASS_MAX], filled[JL_CLASS_MAX] = {0}, next = 0;
    for (uint32_t c = 0; c < d->class_count; c++) {
        start[c] = next;
        d->classes[c].ranks = d->ranks + next;
        next += d->classes[c].count;
    }
    for (uint32_t i = 0; i < n; i++) {
        uint8_t c = d->class_of[i];
        d->ranks[start[c] + filled[c]++] = i;
    }

    static const char *const axis_name[3] = {"position.x", "position.y", "position.z"};
    for (size_t axis = 0; axis < 3; axis++)
        if (!jli_snap_read_float_column(r, n, false, (uint8_t *)d->positions + axis * sizeof(float), sizeof(jl_vec3),
                                        d->spans, axis_name[axis]))
            return false;

    if (!jli_snap_read_int_column(r, n, JL_ENTITY_READ_ONLY, d->spans, "entity flags")) return false;
    for (uint32_t i = 0; i < n; i++) d->flags_of[i] = (uint8_t)d->spans[i];

    for (uint32_t c = 0; c < d->class_count; c++) {
        const jl_class *cls = d->classes[c].cls;
        for (uint32_t f = 0; f < cls->field_count; f++)
            if (!jli_snap_read_field(d, &d->classes[c], &cls->fields[f])) return false;
    }
    return !r->failed;
}

bool jli_snap_decode_trailer(jli_snap_decoder *d)
{
    jli_snap_reader *r = &d->r;
    if (r->failed) return false;
    /* The checksum was checked first and is outside the reader. */
    if (jli_snap_left(r) > 0) return jli_snap_fail(r, JL_ERR_CORRUPT, "%zu bytes of trailing data", jli_snap_left(r));
    return true;
}

jl_status jli_snap_decoder_apply(jli_snap_decoder *d, jl_entity_manager *m)
{
    /* Staged strings point into the input, which the caller may free: a
     * manager has no arena of its own to copy them into, a world has. */
    for (uint32_t c = 0; c < d->class_count; c++)
        for (uint32_t f = 0; f < d->classes[c].cls->field_count; f++)
            if (d->classes[c].cls->fields[f].type == JL_FIELD_STRING)
                return jl_error_set(d->r.err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0,
                                    "snapshot: class %s has string fields: decode it into a world",
                                    d->classes[c].cls->name);
    if (m->capacity - m->count < d->count)
        return jl_error_set(d->r.err, JL_ERR_CAPACITY, NULL, 0, 0, "snapshot has %u entities, the world takes %u more",
                            d->count, m->capacity - m->count);
    uint32_t pending = m->pending_count;
    uint32_t rank[JL_CLASS_MAX] = {0};
    for (uint32_t i = 0; i < d->count; i++) {
        jli_snap_class_entry *entry = &d->classes[d->class_of[i]];
        const jl_class *cls = entry->cls;
        jl_entity *e = NULL;
        jl_status st = jl_entity_allocate(m, cls, &e);
        if (st == JL_OK) {
            st = jl_entity_set_id(m, e, d->ids[i]);
            if (st != JL_OK) jli_entity_rollback_allocation(m, e);
        }
        if (st != JL_OK) {
            /* Undo the entities made so far; their IDs never had files. */
            for (uint32_t j = 0; j < i; j++) jl_entity_destroy(m, jl_entity_find(m, d->ids[j]));
            m->pending_count = pending;
            return jl_error_set(d->r.err, st, NULL, 0, 0, "snapshot: cannot create entity %u of %u: %s", i + 1,
                                d->count, jl_status_name(st));
        }
        const uint8_t *src = entry->staging + (size_t)rank[d->class_of[i]]++ * cls->size_of;
        for (uint32_t f = 0; f < cls->field_count; f++) {
            const jl_field *field = &cls->fields[f];
            memcpy((uint8_t *)e->derived + field->offset, src + field->offset, jl_field_type_size(field->type));
        }
        e->position = (jl_vec4){d->positions[i].x, d->positions[i].y, d->positions[i].z, 1.0f};
        e->flags = d->flags_of[i];
        e->is_dirty = true;
        jl_manager_note_id(m, d->ids[i]);
    }
    return JL_OK;
}

void jli_snap_decoder_init(jli_snap_decoder *d, const uint8_t *data, size_t size, jl_arena *scratch, uint32_t room,
                           const jl_class_registry *registry, jl_error *err)
{
    *d = (jli_snap_decoder){0};
    d->room = room;
    d->registry = registry;
    d->r = (jli_snap_reader){.start = data, .p = data, .end = data + size, .err = err};
    if (scratch) {
        d->scratch = scratch;
        d->mark = scratch->used;
    } else {
        d->scratch = &d->own_scratch;
    }
}

void jli_snap_decoder_release(jli_snap_decoder *d)
{
    if (d->owns_scratch) jl_arena_release(d->scratch);
    else if (d->scratch) jl_arena_pop_to(d->scratch, d->mark);
}

jl_status jli_snap_check_input(size_t size, uint32_t entity_count, jl_error *err)
{
    if (entity_count != 0)
        return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0,
                            "snapshot: decoding needs an empty world, this one has %u entities", entity_count);
    if (size > JL_SNAPSHOT_MAX_BYTES)
        return jl_error_set(err, JL_ERR_CORRUPT, NULL, 0, 0, "snapshot of %zu bytes exceeds the limit %u", size,
                            (unsigned)JL_SNAPSHOT_MAX_BYTES);
    return JL_OK;
}

jl_status jl_snapshot_decode_manager(const uint8_t *data, size_t size, jl_arena *scratch, jl_entity_manager *manager,
                                     jl_error *err)
{
    if (!manager || (!data && size))
        return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "snapshot: no input or manager");
    jl_status checked = jli_snap_check_input(size, manager->count, err);
    if (checked != JL_OK) return checked;
    jli_snap_decoder d;
    jli_snap_decoder_init(&d, data ? data : (const uint8_t *)"", size, scratch, manager->capacity - manager->count,
                          manager->classes, err);
    jl_status st = JL_OK;
    if (!jli_snap_decode_entities(&d) || !jli_snap_decode_trailer(&d)) st = d.r.status;
    else if (d.flags & JLI_SNAP_FLAG_WORLD)
        st = jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0,
                          "snapshot holds world settings: decode it into a world");
    else st = jli_snap_decoder_apply(&d, manager);
    jli_snap_decoder_release(&d);
    return st;
}
