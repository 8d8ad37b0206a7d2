/* snapshot_internal.h - what the snapshot encoder and decoder share: the
 * stream's constants, varints, the decimal form of floats, and the encoder
 * state the world layer extends (snapshot.h describes the format).
 * Internal names carry the jli_ prefix (JLI_ for constants). */
#ifndef JULIET_SNAPSHOT_INTERNAL_H
#define JULIET_SNAPSHOT_INTERNAL_H

#include <float.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "juliet/class.h"
#include "juliet/entity.h"
#include "juliet/class_registry.h"
#include "juliet/snapshot.h"

/* The decimal form must read back the same on every platform: one IEEE
 * double operation, then one conversion to float. Extended-precision
 * evaluation (x87) would round differently. */
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "the snapshot codec needs FLT_EVAL_METHOD == 0 (SSE2 or wasm floating point)"
#endif

enum {
    JLI_SNAP_FLAG_WORLD = 1u << 0,   /* a world section follows the entities */
    JLI_SNAP_FLAG_CLASSES = 1u << 1, /* class files follow the flags (a world's classes from files) */
    JLI_SNAP_FLAG_OPAQUE = 1u << 2,  /* opaque entities follow the world section (which it needs) */
    JLI_SNAP_FLAGS_KNOWN = JLI_SNAP_FLAG_WORLD | JLI_SNAP_FLAG_CLASSES | JLI_SNAP_FLAG_OPAQUE,
    JLI_SNAP_FLOAT_DECIMAL = 0,
    JLI_SNAP_FLOAT_BITS = 1,
    JLI_SNAP_EXPONENT_MAX = 22,      /* 10^22 is the largest power of ten exact in a double */
    JLI_SNAP_MANTISSA_WIDTH_MAX = 7, /* bytes of (M - base) */
    JLI_SNAP_VARINT_MAX = 10,
};

#define JLI_SNAP_MANTISSA_MAX (INT64_C(1) << 53) /* every |M| up to it is exact in a double */

static const uint8_t jli_snap_magic[3] = {'J', 'L', 'W'};

static const double jli_snap_pow10[JLI_SNAP_EXPONENT_MAX + 1] = {
    1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
    1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
};

/* The float a decimal (mantissa, exponent) stands for: M * 10^E rounded
 * once to double (M and 10^|E| are exact doubles), then to float. The
 * encoder only emits pairs it has checked against this very function, so
 * decoding is exact whatever its rounding subtleties. */
static inline float jli_snap_decimal_value(int64_t mantissa, int exponent)
{
    double m = (double)mantissa;
    double d = exponent >= 0 ? m * jli_snap_pow10[exponent] : m / jli_snap_pow10[-exponent];
    return (float)d;
}

static inline uint32_t jli_snap_float_bits(float value)
{
    uint32_t bits;
    memcpy(&bits, &value, sizeof bits);
    return bits;
}

static inline float jli_snap_bits_float(uint32_t bits)
{
    float value;
    memcpy(&value, &bits, sizeof value);
    return value;
}

static inline bool jli_snap_bits_nan(uint32_t bits) { return (bits & 0x7fffffffu) > 0x7f800000u; }
static inline bool jli_snap_bits_inf(uint32_t bits) { return (bits & 0x7fffffffu) == 0x7f800000u; }

static inline uint64_t jli_snap_zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }
static inline int64_t jli_snap_unzigzag(uint64_t u) { return (int64_t)(u >> 1) ^ -(int64_t)(u & 1); }

/* A CRC32 of a class's name and its first `count` fields (names, types,
 * flags, in order, and an enum field's names). Each field's CRC is chained
 * into the next, so the CRC of a prefix is a step of the whole one's. */
static inline uint32_t jli_snap_schema_crc_first(const jl_class *cls, uint32_t count)
{
    uint32_t crc = cls->crc;
    for (uint32_t i = 0; i < count && i < cls->field_count; i++) {
        const jl_field *f = &cls->fields[i];
        uint8_t buf[128];
        size_t len = strlen(f->name);
        if (len > sizeof buf - 7) len = sizeof buf - 7;
        memcpy(buf, f->name, len);
        buf[len] = 0;
        buf[len + 1] = (uint8_t)f->type;
        buf[len + 2] = (uint8_t)f->flags;
        for (int b = 0; b < 4; b++) buf[len + 3 + b] = (uint8_t)(crc >> (8 * b));
        crc = jl_crc32(buf, len + 7);
        if (f->type == JL_FIELD_ENUM && f->enumeration) {
            /* Each name with its NUL, then the previous CRC, chained the same way. */
            for (uint32_t n = 0; n < f->enumeration->count; n++) {
                const char *name = f->enumeration->names[n];
                size_t name_len = strlen(name);
                if (name_len > sizeof buf - 5) name_len = sizeof buf - 5;
                memcpy(buf, name, name_len);
                buf[name_len] = 0;
                for (int b = 0; b < 4; b++) buf[name_len + 1 + b] = (uint8_t)(crc >> (8 * b));
                crc = jl_crc32(buf, name_len + 5);
            }
        }
    }
    return crc;
}

/* The CRC of a class's whole field list: two builds agree on it exactly
 * when they lay out the class's columns alike and give enum values the
 * same names. */
static inline uint32_t jli_snap_schema_crc(const jl_class *cls)
{
    return jli_snap_schema_crc_first(cls, cls->field_count);
}

/* ---- writing (snapshot_encode.c) ---- */

/* Output growing on an arena; after any failure `failed` sticks and later
 * writes do nothing. */
typedef struct jli_snap_writer {
    jl_arena *arena;
    uint8_t *start;
    size_t size;
    size_t capacity;
    bool failed;
} jli_snap_writer;

bool jli_snap_writer_reserve(jli_snap_writer *w, size_t n);
void jli_snap_write_bytes(jli_snap_writer *w, const void *data, size_t n);
void jli_snap_write_u8(jli_snap_writer *w, uint8_t v);
void jli_snap_write_u32(jli_snap_writer *w, uint32_t v);
void jli_snap_write_varint(jli_snap_writer *w, uint64_t v);
void jli_snap_write_svarint(jli_snap_writer *w, int64_t v);
/* An integer column of values[0, n); rewrites values in place. */
void jli_snap_write_int_column(jli_snap_writer *w, uint64_t *values, uint32_t n);
/* Ascending IDs: the first, then each gap minus one. */
void jli_snap_write_sorted_ids(jli_snap_writer *w, const uint64_t *ids, uint32_t n);

/* Per-value scratch of the columns (one slot per entity). */
typedef struct jli_snap_float_scratch {
    uint64_t *spans;
    int64_t *mants;
    int8_t *exps;
} jli_snap_float_scratch;

jl_status jli_snap_write_float_column(jli_snap_writer *w, const jli_snap_float_scratch *s, const float *values,
                                      uint32_t n);

typedef struct jli_snap_encoder {
    const jl_entity_manager *manager;
    jl_arena *arena;
    size_t mark; /* arena->used at the start: failure pops back to it */
    jl_error *err;
    uint32_t count;               /* live entities of described classes */
    uint32_t opaque_count;        /* live opaque entities (jl_class_is_opaque): only the world
                                     layer carries them, as text */
    const jl_entity **order;      /* the count entities by ascending ID, then the opaque
                                     ones by ascending ID */
    uint64_t *ids;                /* their IDs */
    uint64_t *refs;               /* scratch: external IDs of a reference column */
    float *floats;                /* scratch: one float column */
    const jl_entity **class_list; /* scratch: one class's entities by ID */
    const uint8_t **rows;         /* scratch: the structs a column is read from */
    uint32_t *ranks;              /* scratch: their entities' ranks */
    jli_snap_float_scratch scratch;
    jli_snap_writer w;
    /* With JLI_SNAP_FLAG_CLASSES: writes the class files right after the
     * flags (snapshot_world.c); user is its own. */
    jl_status (*write_classes)(struct jli_snap_encoder *enc);
    const void *classes_user;
} jli_snap_encoder;

/* The structs a column's values are read from, and the entities they belong
 * to (for messages; NULL for the world settings). */
typedef struct jli_snap_rows {
    const uint8_t **rows;
    const jl_entity **owners;
    const uint32_t *ranks; /* each row's rank among all entities; NULL: rank 0 */
    uint32_t n;
} jli_snap_rows;

/* The column(s) of field f of cls over rows. */
jl_status jli_snap_write_field(jli_snap_encoder *enc, const jl_class *cls, const jl_field *f,
                               const jli_snap_rows *rows);

/* Sorts the manager's entities by ID, opaque ones apart, and takes scratch
 * from arena (the output is written after it). On failure the arena is as
 * before. */
jl_status jli_snap_encoder_begin(jli_snap_encoder *enc, const jl_entity_manager *m, jl_arena *arena, jl_error *err);
/* Writes magic, version, flags and every entity section. */
jl_status jli_snap_encode_entities(jli_snap_encoder *enc, uint32_t flags);
/* Appends the CRC, moves the output down over the scratch and sets out; on
 * failure pops everything. */
jl_status jli_snap_encoder_finish(jli_snap_encoder *enc, jl_snapshot_bytes *out);
/* Pops everything the encoder pushed. */
void jli_snap_encoder_abort(jli_snap_encoder *enc);

/* ---- reading (snapshot_decode.c) ---- */

/* A bounds-checked cursor; the first failure is recorded (with the byte
 * offset) in err and status, and every later read returns zero. */
typedef struct jli_snap_reader {
    const uint8_t *start;
    const uint8_t *p;
    const uint8_t *end;
    jl_error *err;
    jl_status status;
    bool failed;
} jli_snap_reader;

/* Records a failure at the cursor; returns false. */
bool jli_snap_fail(jli_snap_reader *r, jl_status status, const char *format, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
size_t jli_snap_left(const jli_snap_reader *r);
const uint8_t *jli_snap_read_bytes(jli_snap_reader *r, size_t n, const char *what);
uint8_t jli_snap_read_u8(jli_snap_reader *r, const char *what);
uint32_t jli_snap_read_u32(jli_snap_reader *r, const char *what);
uint64_t jli_snap_read_varint(jli_snap_reader *r, const char *what);
int64_t jli_snap_read_svarint(jli_snap_reader *r, const char *what);
/* The head every link's bytes start with: magic (3 bytes; "not a Juliet
 * <what>" otherwise), the format version (another is refused), the
 * trailing CRC-32, checked before anything else is read (what names the
 * damaged link), then the flags, none outside known. */
bool jli_snap_read_head(jli_snap_reader *r, const uint8_t magic[3], const char *what, unsigned version, uint64_t known,
                        uint64_t *flags);
/* A varint count of at most max items of at least min_bytes each. */
uint32_t jli_snap_read_count(jli_snap_reader *r, uint64_t max, size_t min_bytes, const char *what);
/* n values, each at most max, into out. */
bool jli_snap_read_int_column(jli_snap_reader *r, uint32_t n, uint64_t max, uint64_t *out, const char *what);
/* n ascending nonzero IDs. */
bool jli_snap_read_sorted_ids(jli_snap_reader *r, uint32_t n, uint64_t *ids, const char *what);
/* n floats, stride bytes apart from dst; spans is scratch for n values. */
bool jli_snap_read_float_column(jli_snap_reader *r, uint32_t n, bool allow_inf, uint8_t *dst, size_t stride,
                                uint64_t *spans, const char *what);

typedef struct jli_snap_class_entry {
    const jl_class *cls;
    uint32_t count;
    uint8_t *staging;      /* count derived structs' worth of decoded field values */
    const uint32_t *ranks; /* each one's rank among all entities; NULL: rank 0 */
} jli_snap_class_entry;

typedef struct jli_snap_decoder {
    jli_snap_reader r;
    jl_arena *scratch;
    jl_arena own_scratch;
    bool owns_scratch;
    size_t mark;
    uint32_t room; /* most entities the target takes (checked early) */
    uint32_t flags;
    uint32_t class_count;
    const jl_class_registry *registry; /* where the snapshot's classes are looked up */
    jli_snap_class_entry classes[JL_CLASS_MAX];
    uint32_t count;
    uint64_t *ids;   /* ascending */
    uint64_t *spans; /* scratch: one column */
    jl_vec3 *positions;
    uint32_t *ranks;   /* per class, its entities' ranks (classes[c].ranks) */
    uint8_t *class_of; /* index into classes */
    uint8_t *flags_of;
    /* With JLI_SNAP_FLAG_CLASSES: reads the class files after the flags and
     * may point registry at classes of its own (snapshot_world.c); NULL
     * refuses such a snapshot. user is its own. */
    bool (*read_classes)(struct jli_snap_decoder *d);
    void *classes_user;
} jli_snap_decoder;

/* What every decode checks first: the target holds no entity yet
 * (entity_count) and the input is within JL_SNAPSHOT_MAX_BYTES. */
jl_status jli_snap_check_input(size_t size, uint32_t entity_count, jl_error *err);
/* room: how many entities the target can still take; registry: the
 * target's classes. */
void jli_snap_decoder_init(jli_snap_decoder *d, const uint8_t *data, size_t size, jl_arena *scratch, uint32_t room,
                           const jl_class_registry *registry, jl_error *err);
/* Checks the magic, the version and the checksum (before any content),
 * then reads and checks everything up to the world section. */
bool jli_snap_decode_entities(jli_snap_decoder *d);
/* Reads the column(s) of field f into entry's staging structs. */
bool jli_snap_read_field(jli_snap_decoder *d, jli_snap_class_entry *entry, const jl_field *f);
/* Checks that nothing is left before the CRC (checked by
 * jli_snap_decode_entities). */
bool jli_snap_decode_trailer(jli_snap_decoder *d);
/* Creates the decoded entities in m (empty); on failure m has none again. */
jl_status jli_snap_decoder_apply(jli_snap_decoder *d, jl_entity_manager *m);
/* Returns the scratch memory. */
void jli_snap_decoder_release(jli_snap_decoder *d);

#endif
