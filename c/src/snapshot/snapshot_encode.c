/* snapshot_encode.c - a world's live entities as a snapshot byte stream
 * (format in snapshot.h). Output is canonical: the same entities give the
 * same bytes whatever their slot order. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "archive/archive_internal.h"
#include "juliet/snapshot.h"
#include "snapshot/snapshot_internal.h"

/* ---- growing output on an arena ---- */

/* Bytes pushed at a time: the writer extends its block in place, which
 * works because nothing else pushes on the arena while it writes. */
enum { WRITER_CHUNK = 64 * 1024 };

bool jli_snap_writer_reserve(jli_snap_writer *w, size_t n)
{
    if (w->failed) return false;
    if (n <= w->capacity - w->size) return true;
    size_t grow = n > WRITER_CHUNK ? n : WRITER_CHUNK;
    uint8_t *more = jl_arena_push(w->arena, grow, 1);
    if (!more || (w->start && more != w->start + w->capacity)) {
        w->failed = true;
        return false;
    }
    if (!w->start) w->start = more;
    w->capacity += grow;
    return true;
}

void jli_snap_write_bytes(jli_snap_writer *w, const void *data, size_t n)
{
    if (!jli_snap_writer_reserve(w, n)) return;
    if (n) memcpy(w->start + w->size, data, n);
    w->size += n;
}

void jli_snap_write_u8(jli_snap_writer *w, uint8_t v) { jli_snap_write_bytes(w, &v, 1); }

void jli_snap_write_u32(jli_snap_writer *w, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    jli_snap_write_bytes(w, b, 4);
}

void jli_snap_write_varint(jli_snap_writer *w, uint64_t v)
{
    uint8_t b[JLI_SNAP_VARINT_MAX];
    size_t n = 0;
    while (v >= 0x80) {
        b[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[n++] = (uint8_t)v;
    jli_snap_write_bytes(w, b, n);
}

void jli_snap_write_svarint(jli_snap_writer *w, int64_t v) { jli_snap_write_varint(w, jli_snap_zigzag(v)); }

/* ---- columns ---- */

static unsigned width_of(uint64_t span)
{
    unsigned width = 0;
    while (span) {
        width++;
        span >>= 8;
    }
    return width;
}

static void write_planes(jli_snap_writer *w, const uint64_t *spans, uint32_t n, unsigned width)
{
    for (unsigned plane = 0; plane < width; plane++) {
        if (!jli_snap_writer_reserve(w, n)) return;
        uint8_t *out = w->start + w->size;
        for (uint32_t i = 0; i < n; i++) out[i] = (uint8_t)(spans[i] >> (8 * plane));
        w->size += n;
    }
}

/* Integer column of values[0, n): base = the minimum; values is rewritten
 * in place to the offsets from it. */
void jli_snap_write_int_column(jli_snap_writer *w, uint64_t *values, uint32_t n)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (values[i] < lo) lo = values[i];
        if (values[i] > hi) hi = values[i];
    }
    if (n == 0) lo = hi = 0;
    for (uint32_t i = 0; i < n; i++) values[i] -= lo;
    unsigned width = width_of(hi - lo);
    jli_snap_write_varint(w, lo);
    jli_snap_write_u8(w, (uint8_t)width);
    write_planes(w, values, n, width);
}

/* ---- float columns ---- */

enum { EXP_NONE = -128, EXP_ZERO = 127 };

static const int64_t pow10_int[16] = {
    1,
    10,
    100,
    1000,
    10000,
    100000,
    1000000,
    10000000,
    100000000,
    1000000000,
    INT64_C(10000000000),
    INT64_C(100000000000),
    INT64_C(1000000000000),
    INT64_C(10000000000000),
    INT64_C(100000000000000),
    INT64_C(1000000000000000),
};

/* Whether some mantissa M with |M| <= 2^53 gives back exactly `bits` at
 * exponent e, and which. Complete: where the float's spacing exceeds 10^e
 * the multiple of 10^e nearest the value lies inside its rounding interval,
 * and where it is finer only that nearest multiple can; the double quotient
 * is within an ulp of the exact one, so the nearest is the rounded quotient
 * or a neighbour. */
static bool decimal_works(double v, uint32_t bits, int e, int64_t *mantissa)
{
    double scaled = e >= 0 ? v / jli_snap_pow10[e] : v * jli_snap_pow10[-e];
    if (fabs(scaled) >= (double)JLI_SNAP_MANTISSA_MAX) return false;
    int64_t m = (int64_t)llround(scaled);
    const int64_t tries[3] = {m, m - 1, m + 1};
    for (int t = 0; t < 3; t++) {
        if (tries[t] == 0) continue;
        if (jli_snap_float_bits(jli_snap_decimal_value(tries[t], e)) == bits) {
            *mantissa = tries[t];
            return true;
        }
    }
    return false;
}

/* The shortest decimal (mantissa, exponent) that jli_snap_decimal_value turns
 * back into exactly this float, with the exponent in [-22, 22] and
 * |mantissa| <= 2^53: EXP_ZERO for +0 (any exponent), EXP_NONE if there is
 * none (-0, infinities, NaN, very large or tiny magnitudes).
 * The exponents that work are all those up to the shortest one (M * 10 at
 * e - 1 is the same number), so the search starts at hint (the previous
 * value's exponent: columns tend to share one) and walks up or down. */
static int shortest_decimal(float value, int hint, int64_t *mantissa)
{
    uint32_t bits = jli_snap_float_bits(value);
    *mantissa = 0;
    if (bits == 0) return EXP_ZERO;
    if (!isfinite(value) || value == 0.0f) return EXP_NONE;
    double v = (double)value;
    int k = (int)floor(log10(fabs(v)));
    int top = k + 1 < JLI_SNAP_EXPONENT_MAX ? k + 1 : JLI_SNAP_EXPONENT_MAX;
    int bottom = k - 10 > -JLI_SNAP_EXPONENT_MAX ? k - 10 : -JLI_SNAP_EXPONENT_MAX;
    int64_t m;
    if (hint >= bottom && hint <= top && decimal_works(v, bits, hint, &m)) {
        int e = hint;
        *mantissa = m;
        while (e < top && decimal_works(v, bits, e + 1, &m)) {
            e++;
            *mantissa = m;
        }
        return e;
    }
    int start = hint >= bottom && hint <= top ? hint - 1 : top;
    for (int e = start; e >= bottom; e--) {
        if (decimal_works(v, bits, e, &m)) {
            *mantissa = m;
            return e;
        }
        double scaled = e >= 0 ? v / jli_snap_pow10[e] : v * jli_snap_pow10[-e];
        if (fabs(scaled) * 10 >= (double)JLI_SNAP_MANTISSA_MAX) break; /* only grows from here */
    }
    return EXP_NONE;
}

/* The mantissa of value (shortest form (m, e)) at the column exponent E, or
 * false if it has none there. */
static bool mantissa_at(int e, int64_t m, int column_e, int64_t *out)
{
    if (e == EXP_ZERO) {
        *out = 0;
        return true;
    }
    if (e == EXP_NONE || e < column_e) return false;
    int shift = e - column_e;
    if (shift > 15) return false;
    int64_t scale = pow10_int[shift];
    int64_t limit = JLI_SNAP_MANTISSA_MAX / scale;
    if (m > limit || m < -limit) return false;
    *out = m * scale;
    return true;
}

/* Bytes a decimal column at exponent column_e would take (approximately:
 * exceptions counted at 5 bytes), and its base and width. */
static uint64_t decimal_cost(const jli_snap_float_scratch *s, uint32_t n, int column_e, int64_t *base, unsigned *width)
{
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    uint64_t exceptions = 0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t m;
        if (!mantissa_at(s->exps[i], s->mants[i], column_e, &m)) {
            exceptions++;
            continue;
        }
        if (m < lo) lo = m;
        if (m > hi) hi = m;
    }
    if (lo > hi) lo = hi = 0;
    *base = lo;
    *width = width_of((uint64_t)(hi - lo));
    return (uint64_t)n * *width + exceptions * 5 + 4;
}

jl_status jli_snap_write_float_column(jli_snap_writer *w, const jli_snap_float_scratch *s, const float *values,
                                      uint32_t n)
{
    int8_t *exps = s->exps;
    int64_t *mants = s->mants;
    uint32_t hist[2 * JLI_SNAP_EXPONENT_MAX + 1] = {0};
    uint32_t lo_bits = UINT32_MAX, hi_bits = 0;
    int hint = EXP_NONE;
    for (uint32_t i = 0; i < n; i++) {
        int64_t m;
        int e = shortest_decimal(values[i], hint, &m);
        if (e != EXP_NONE && e != EXP_ZERO) hint = e;
        exps[i] = (int8_t)e;
        mants[i] = m;
        if (e != EXP_NONE && e != EXP_ZERO) hist[e + JLI_SNAP_EXPONENT_MAX]++;
        uint32_t bits = jli_snap_float_bits(values[i]);
        if (bits < lo_bits) lo_bits = bits;
        if (bits > hi_bits) hi_bits = bits;
    }

    /* Candidate exponents are the ones values actually have; the smallest
     * covers every value, larger ones trade exceptions for width. */
    int best_e = 0;
    int64_t best_base = 0;
    unsigned best_width = 0;
    uint64_t best_cost = UINT64_MAX;
    bool any = false;
    for (int e = -JLI_SNAP_EXPONENT_MAX; e <= JLI_SNAP_EXPONENT_MAX; e++) {
        if (!hist[e + JLI_SNAP_EXPONENT_MAX]) continue;
        any = true;
        int64_t base;
        unsigned width;
        uint64_t cost = decimal_cost(s, n, e, &base, &width);
        if (cost < best_cost) {
            best_cost = cost;
            best_e = e;
            best_base = base;
            best_width = width;
        }
    }
    if (!any) best_cost = decimal_cost(s, n, 0, &best_base, &best_width);
    uint64_t bits_cost = n ? (uint64_t)n * width_of(hi_bits - lo_bits) + 2 : 2;

    if (bits_cost < best_cost) {
        jli_snap_write_u8(w, JLI_SNAP_FLOAT_BITS);
        uint64_t *spans = s->spans;
        for (uint32_t i = 0; i < n; i++) spans[i] = jli_snap_float_bits(values[i]);
        jli_snap_write_int_column(w, spans, n);
        return w->failed ? JL_ERR_OUT_OF_MEMORY : JL_OK;
    }

    jli_snap_write_u8(w, JLI_SNAP_FLOAT_DECIMAL);
    jli_snap_write_svarint(w, best_e);
    jli_snap_write_svarint(w, best_base);
    jli_snap_write_u8(w, (uint8_t)best_width);
    uint64_t *spans = s->spans;
    uint32_t exceptions = 0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t m;
        if (mantissa_at(exps[i], mants[i], best_e, &m)) {
            spans[i] = (uint64_t)(m - best_base);
        } else {
            spans[i] = 0;
            exceptions++;
        }
    }
    write_planes(w, spans, n, best_width);
    jli_snap_write_varint(w, exceptions);
    uint32_t next = 0;
    for (uint32_t i = 0; i < n; i++) {
        int64_t m;
        if (mantissa_at(exps[i], mants[i], best_e, &m)) continue;
        jli_snap_write_varint(w, i - next);
        jli_snap_write_u32(w, jli_snap_float_bits(values[i]));
        next = i + 1;
    }
    return w->failed ? JL_ERR_OUT_OF_MEMORY : JL_OK;
}

/* ---- sorting ---- */

static int compare_ids(const void *a, const void *b)
{
    uint64_t x = (*(const jl_entity *const *)a)->id, y = (*(const jl_entity *const *)b)->id;
    return x < y ? -1 : x > y;
}

static int compare_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Index of id in sorted[0, n), or -1. */
static int64_t find_sorted(const uint64_t *sorted, uint32_t n, uint64_t id)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (sorted[mid] < id) lo = mid + 1;
        else hi = mid;
    }
    return (lo < n && sorted[lo] == id) ? (int64_t)lo : -1;
}

void jli_snap_write_sorted_ids(jli_snap_writer *w, const uint64_t *ids, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) jli_snap_write_varint(w, i == 0 ? ids[0] : ids[i] - ids[i - 1] - 1);
}

/* ---- the manager's entities ---- */

/* A value the decoder would refuse: JL_ERR_INVALID_ARGUMENT naming the
 * entity (none for the settings), the field and the problem. */
static jl_status value_error(jl_error *err, const jl_entity *owner, const char *what, const char *problem)
{
    if (!owner) return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "%s %s", what, problem);
    return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "entity 0x%016llx: %s %s",
                        (unsigned long long)owner->id, what, problem);
}

/* The checks the decoder makes on a float, made before writing so that
 * every snapshot the encoder produces decodes. */
static jl_status check_float(jl_error *err, const jl_entity *owner, const char *what, float value, bool allow_inf)
{
    const char *problem = isnan(value) ? "is NaN" : (isinf(value) && !allow_inf) ? "is infinite" : NULL;
    return problem ? value_error(err, owner, what, problem) : JL_OK;
}

static const jl_entity *owner_of(const jli_snap_rows *rows, uint32_t i)
{
    return rows->owners ? rows->owners[i] : NULL;
}

static jl_status write_float_values(jli_snap_encoder *enc, const jli_snap_rows *rows, size_t offset, bool allow_inf,
                                    const char *what)
{
    float *values = enc->floats;
    for (uint32_t i = 0; i < rows->n; i++) {
        memcpy(&values[i], rows->rows[i] + offset, sizeof(float));
        jl_status st = check_float(enc->err, owner_of(rows, i), what, values[i], allow_inf);
        if (st != JL_OK) return st;
    }
    return jli_snap_write_float_column(&enc->w, &enc->scratch, values, rows->n);
}

jl_status jli_snap_write_field(jli_snap_encoder *enc, const jl_class *cls, const jl_field *f, const jli_snap_rows *rows)
{
    uint64_t *vals = enc->scratch.spans;
    uint32_t n = rows->n;
    char what[160];
    snprintf(what, sizeof what, "%s.%s", cls->name, f->name);
    switch (f->type) {
    case JL_FIELD_F32:
        return write_float_values(enc, rows, f->offset, (f->flags & JL_FIELD_ALLOW_INF) != 0, what);
    case JL_FIELD_VEC2:
    case JL_FIELD_VEC3:
    case JL_FIELD_QUAT: {
        const size_t count = jl_field_type_size(f->type) / sizeof(float);
        for (size_t c = 0; c < count; c++) {
            jl_status st = write_float_values(enc, rows, f->offset + c * sizeof(float), false, what);
            if (st != JL_OK) return st;
        }
        return JL_OK;
    }
    case JL_FIELD_U32:
        for (uint32_t i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, rows->rows[i] + f->offset, sizeof v);
            vals[i] = v;
        }
        break;
    case JL_FIELD_I32:
        for (uint32_t i = 0; i < n; i++) {
            int32_t v;
            memcpy(&v, rows->rows[i] + f->offset, sizeof v);
            vals[i] = jli_snap_zigzag(v);
        }
        break;
    case JL_FIELD_ENUM:
        for (uint32_t i = 0; i < n; i++) {
            jl_enum_value v;
            memcpy(&v, rows->rows[i] + f->offset, sizeof v);
            if (!f->enumeration || v >= f->enumeration->count)
                return value_error(enc->err, owner_of(rows, i), what, "is not a name of its enum");
            vals[i] = v;
        }
        break;
    case JL_FIELD_STRING: {
        /* Sizes as an integer column, then the bytes back to back. */
        for (uint32_t i = 0; i < n; i++) {
            jl_string v;
            memcpy(&v, rows->rows[i] + f->offset, sizeof v);
            size_t bad;
            const char *problem = jli_string_problem(&v, &bad);
            if (problem) {
                char why[96];
                snprintf(why, sizeof why, "is not a valid string (%s at byte %zu)", problem, bad);
                return value_error(enc->err, owner_of(rows, i), what, why);
            }
            vals[i] = v.size;
        }
        jli_snap_write_int_column(&enc->w, vals, n);
        for (uint32_t i = 0; i < n; i++) {
            jl_string v;
            memcpy(&v, rows->rows[i] + f->offset, sizeof v);
            jli_snap_write_bytes(&enc->w, v.data, v.size);
        }
        return enc->w.failed ? JL_ERR_OUT_OF_MEMORY : JL_OK;
    }
    case JL_FIELD_INDEX:
        for (uint32_t i = 0; i < n; i++) {
            uint32_t v;
            memcpy(&v, rows->rows[i] + f->offset, sizeof v);
            vals[i] = (uint32_t)(v + 1u);
        }
        break;
    case JL_FIELD_BOOL:
        for (uint32_t i = 0; i < n; i++) {
            bool v;
            memcpy(&v, rows->rows[i] + f->offset, sizeof v);
            vals[i] = v ? 1 : 0;
        }
        break;
    case JL_FIELD_COLOR:
        for (uint32_t i = 0; i < n; i++) {
            jl_color v;
            memcpy(&v, rows->rows[i] + f->offset, sizeof v);
            vals[i] = (uint64_t)v.r << 16 | (uint64_t)v.g << 8 | v.b;
        }
        break;
    case JL_FIELD_ENTITY_REF: {
        /* References to entities outside the snapshot keep their IDs in a
         * small sorted table of their own. */
        uint64_t *external = enc->refs;
        uint32_t external_count = 0;
        for (uint32_t i = 0; i < n; i++) {
            uint64_t id;
            memcpy(&id, rows->rows[i] + f->offset, sizeof id);
            if (id && find_sorted(enc->ids, enc->count, id) < 0) external[external_count++] = id;
        }
        qsort(external, external_count, sizeof *external, compare_u64);
        uint32_t unique = 0;
        for (uint32_t i = 0; i < external_count; i++)
            if (unique == 0 || external[unique - 1] != external[i]) external[unique++] = external[i];
        jli_snap_write_varint(&enc->w, unique);
        jli_snap_write_sorted_ids(&enc->w, external, unique);
        /* 0 none, 1..X external, 1 + X + zigzag(target rank - own rank). */
        for (uint32_t i = 0; i < n; i++) {
            uint64_t id;
            memcpy(&id, rows->rows[i] + f->offset, sizeof id);
            int64_t rank = id ? find_sorted(enc->ids, enc->count, id) : -1;
            int64_t own = rows->ranks ? (int64_t)rows->ranks[i] : 0;
            if (!id) vals[i] = 0;
            else if (rank < 0) vals[i] = 1 + (uint64_t)find_sorted(external, unique, id);
            else vals[i] = 1 + (uint64_t)unique + jli_snap_zigzag(rank - own);
        }
        break;
    }
    default:
        return jl_error_set(enc->err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0,
                            "class %s: field %s has type %s, which snapshots cannot hold", cls->name, f->name,
                            jl_field_type_name(f->type));
    }
    jli_snap_write_int_column(&enc->w, vals, n);
    return enc->w.failed ? JL_ERR_OUT_OF_MEMORY : JL_OK;
}

jl_status jli_snap_encoder_begin(jli_snap_encoder *enc, const jl_entity_manager *m, jl_arena *arena, jl_error *err)
{
    *enc = (jli_snap_encoder){.manager = m, .arena = arena, .mark = arena->used, .err = err};
    uint32_t n = m->count;
    if (n > JL_SNAPSHOT_MAX_ENTITIES)
        return jl_error_set(err, JL_ERR_CAPACITY, NULL, 0, 0, "%u entities: a snapshot holds at most %u", n,
                            (unsigned)JL_SNAPSHOT_MAX_ENTITIES);
    size_t slots = n ? n : 1;
    enc->count = n;
    enc->order = jl_arena_push(arena, slots * sizeof *enc->order, _Alignof(jl_entity *));
    enc->ids = jl_arena_push(arena, slots * sizeof *enc->ids, 8);
    enc->refs = jl_arena_push(arena, slots * sizeof *enc->refs, 8);
    enc->floats = jl_arena_push(arena, slots * sizeof *enc->floats, 4);
    enc->scratch.spans = jl_arena_push(arena, slots * sizeof *enc->scratch.spans, 8);
    enc->scratch.mants = jl_arena_push(arena, slots * sizeof *enc->scratch.mants, 8);
    enc->scratch.exps = jl_arena_push(arena, slots, 1);
    enc->class_list = jl_arena_push(arena, slots * sizeof *enc->class_list, _Alignof(jl_entity *));
    enc->rows = jl_arena_push(arena, slots * sizeof *enc->rows, _Alignof(uint8_t *));
    enc->ranks = jl_arena_push(arena, slots * sizeof *enc->ranks, 4);
    if (!enc->order || !enc->ids || !enc->refs || !enc->floats || !enc->scratch.spans || !enc->scratch.mants ||
        !enc->scratch.exps || !enc->class_list || !enc->rows || !enc->ranks) {
        jl_arena_pop_to(arena, enc->mark);
        return jl_error_set(err, JL_ERR_OUT_OF_MEMORY, NULL, 0, 0, "snapshot: out of memory for %u entities", n);
    }
    enc->w.arena = arena;

    /* Opaque entities have no columns: they go last, for the world layer. */
    uint32_t i = 0, last = n;
    for (jl_entity *e = jl_entities_first(m); e && i < last; e = jl_entities_next(m, e)) {
        if (jl_class_is_opaque(e->derived_kind)) enc->order[--last] = e;
        else enc->order[i++] = e;
    }
    n = enc->count = i;
    enc->opaque_count = m->count - n;
    qsort(enc->order, n, sizeof *enc->order, compare_ids);
    qsort(enc->order + n, enc->opaque_count, sizeof *enc->order, compare_ids);
    for (i = 0; i < n + enc->opaque_count; i++) {
        const jl_entity *e = enc->order[i];
        if (e->id == 0) {
            jl_arena_pop_to(arena, enc->mark);
            return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "an entity of class %s has no ID yet",
                                e->derived_kind->name);
        }
        if (i < n) enc->ids[i] = e->id;
    }
    return JL_OK;
}

jl_status jli_snap_encode_entities(jli_snap_encoder *enc, uint32_t flags)
{
    jli_snap_writer *w = &enc->w;
    jl_error *err = enc->err;
    uint32_t n = enc->count;
    jl_status st;

    jli_snap_write_bytes(w, jli_snap_magic, sizeof jli_snap_magic);
    jli_snap_write_u8(w, JL_SNAPSHOT_VERSION);
    jli_snap_write_varint(w, flags);
    if ((flags & JLI_SNAP_FLAG_CLASSES) && (st = enc->write_classes(enc)) != JL_OK) return st;

    /* Class table: the classes that have entities, in kind order. */
    const jl_class_registry *registry = enc->manager->classes;
    uint32_t kinds = jl_registry_count(registry);
    uint32_t per_kind[256] = {0};
    uint8_t table_index[256];
    uint32_t classes = 0;
    for (uint32_t i = 0; i < n; i++) per_kind[enc->order[i]->derived_kind->kind]++;
    for (uint32_t k = 0; k < kinds && k < 256; k++)
        if (per_kind[k]) table_index[k] = (uint8_t)classes++;
    jli_snap_write_varint(w, classes);
    for (uint32_t k = 0; k < kinds && k < 256; k++) {
        if (!per_kind[k]) continue;
        const jl_class *cls = jl_registry_at(registry, k);
        jli_snap_write_u32(w, cls->crc);
        jli_snap_write_varint(w, cls->version);
        jli_snap_write_u32(w, jli_snap_schema_crc(cls));
        jli_snap_write_varint(w, per_kind[k]);
    }

    jli_snap_write_sorted_ids(w, enc->ids, n);

    uint64_t *vals = enc->scratch.spans;
    for (uint32_t i = 0; i < n; i++) vals[i] = table_index[enc->order[i]->derived_kind->kind];
    jli_snap_write_int_column(w, vals, n);

    static const char *const axis_name[3] = {"position.x", "position.y", "position.z"};
    for (uint32_t i = 0; i < n; i++) enc->rows[i] = (const uint8_t *)enc->order[i];
    jli_snap_rows base_rows = {.rows = enc->rows, .owners = enc->order, .n = n};
    for (size_t axis = 0; axis < 3; axis++) {
        st = write_float_values(enc, &base_rows, offsetof(jl_entity, position) + axis * sizeof(float), false,
                                axis_name[axis]);
        if (st != JL_OK) return st;
    }

    for (uint32_t i = 0; i < n; i++) {
        const jl_entity *e = enc->order[i];
        if (e->flags & ~(uint32_t)JL_ENTITY_READ_ONLY)
            return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "entity 0x%016llx: unknown flags 0x%x",
                                (unsigned long long)e->id, e->flags);
        vals[i] = e->flags;
    }
    jli_snap_write_int_column(w, vals, n);

    for (uint32_t k = 0; k < kinds && k < 256; k++) {
        if (!per_kind[k]) continue;
        const jl_class *cls = jl_registry_at(registry, k);
        uint32_t count = 0;
        for (uint32_t i = 0; i < n; i++) {
            if (enc->order[i]->derived_kind != cls) continue;
            enc->class_list[count] = enc->order[i];
            enc->ranks[count] = i;
            enc->rows[count++] = enc->order[i]->derived;
        }
        jli_snap_rows rows = {.rows = enc->rows, .owners = enc->class_list, .ranks = enc->ranks, .n = count};
        for (uint32_t f = 0; f < cls->field_count; f++) {
            st = jli_snap_write_field(enc, cls, &cls->fields[f], &rows);
            if (st != JL_OK) return st;
        }
    }
    return w->failed ? JL_ERR_OUT_OF_MEMORY : JL_OK;
}

jl_status jli_snap_encoder_finish(jli_snap_encoder *enc, jl_snapshot_bytes *out)
{
    jli_snap_writer *w = &enc->w;
    if (!w->failed) jli_snap_write_u32(w, jl_crc32(w->start, w->size));
    if (w->failed) {
        jl_arena_pop_to(enc->arena, enc->mark);
        return jl_error_set(enc->err, JL_ERR_OUT_OF_MEMORY, NULL, 0, 0, "snapshot: out of memory after %zu bytes",
                            w->size);
    }
    if (w->size > JL_SNAPSHOT_MAX_BYTES) {
        jl_arena_pop_to(enc->arena, enc->mark);
        return jl_error_set(enc->err, JL_ERR_CAPACITY, NULL, 0, 0, "snapshot of %zu bytes: the limit is %u", w->size,
                            (unsigned)JL_SNAPSHOT_MAX_BYTES);
    }
    /* Slide the bytes down over the scratch so the arena grows by exactly
     * the output. */
    uint8_t *dest = enc->arena->base + enc->mark;
    memmove(dest, w->start, w->size);
    jl_arena_pop_to(enc->arena, enc->mark + w->size);
    out->data = dest;
    out->size = w->size;
    return JL_OK;
}

void jli_snap_encoder_abort(jli_snap_encoder *enc) { jl_arena_pop_to(enc->arena, enc->mark); }

jl_status jl_snapshot_encode_manager(const jl_entity_manager *manager, jl_arena *arena, jl_snapshot_bytes *out,
                                     jl_error *err)
{
    *out = (jl_snapshot_bytes){0};
    if (!manager || !arena || !arena->base)
        return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "snapshot: no manager or arena");
    jli_snap_encoder enc;
    jl_status st = jli_snap_encoder_begin(&enc, manager, arena, err);
    if (st != JL_OK) return st;
    if (enc.opaque_count) {
        jli_snap_encoder_abort(&enc);
        return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0,
                            "snapshot: %u entities of classes this build does not describe: encode the world",
                            enc.opaque_count);
    }
    st = jli_snap_encode_entities(&enc, 0);
    if (st != JL_OK) {
        jli_snap_encoder_abort(&enc);
        if (st == JL_ERR_OUT_OF_MEMORY) jl_error_set(err, st, NULL, 0, 0, "snapshot: out of memory");
        return st;
    }
    return jli_snap_encoder_finish(&enc, out);
}
