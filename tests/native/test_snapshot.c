/* test_snapshot.c - the snapshot codec over an entity manager: exact round
 * trips, canonical output, size of the decimal float columns, base64url,
 * and rejection of hostile input (snapshot.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "juliet/snapshot.h"
#include "sample_classes.h"
#include "test.h"

enum { TAG = 0x5eed0001u };

static jl_entity_manager source, target;
static jl_arena arena;

/* target: a new, empty manager of capacity entities minting IDs from
 * id_tag. */
static bool init_target(uint32_t capacity, uint64_t id_tag)
{
    jl_manager_desc desc = {.capacity = capacity, .id_tag = id_tag};
    return jl_manager_init(&target, &desc) == JL_OK;
}

/* target shut down and made again (init_target): empty, as a test needs it. */
static bool renew_target(uint32_t capacity, uint64_t id_tag)
{
    jl_manager_shutdown(&target);
    return init_target(capacity, id_tag);
}

static bool setup(uint32_t target_capacity)
{
    jl_manager_desc a = {.capacity = 20000, .id_tag = TAG};
    return jl_manager_init(&source, &a) == JL_OK &&
           init_target(target_capacity ? target_capacity : 20000, 0x77777777u) &&
           jl_arena_init(&arena, 256u << 20) == JL_OK;
}

static void teardown(void)
{
    jl_manager_shutdown(&source);
    jl_manager_shutdown(&target);
    jl_arena_release(&arena);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void) { return jt_xorshift(&rng_state); }
static float rnd_float_bits(void)
{
    for (;;) {
        uint32_t bits = (uint32_t)rnd();
        float f;
        memcpy(&f, &bits, 4);
        if (isfinite(f)) return f;
    }
}
static float rnd_decimal(int digits)
{
    int scale = digits == 2 ? 100 : 10;
    return (float)((double)((int64_t)(rnd() % 20001) - 10000) / scale);
}

/* A world with every kind of value: short decimals, arbitrary bit patterns,
 * -0, infinite radii, denormals, references inside and outside, flags. */
static bool fill_varied(jl_entity_manager *m, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++) {
        uint32_t kind = (uint32_t)(rnd() % 3);
        float x = i % 7 == 0 ? rnd_float_bits() : rnd_decimal(2);
        float y = i % 11 == 0 ? -0.0f : rnd_decimal(1);
        float z = i % 13 == 0 ? 1e-40f : rnd_decimal(2);
        jl_entity *e;
        if (kind == 0) {
            sample_inert *d = JL_MAKE_ENTITY(m, sample_inert, x, y, z);
            CHECK_OR_FALSE(d);
            d->mesh_instance = i % 5 == 0 ? JL_INDEX_MAX : (uint32_t)(rnd() % 64);
            e = d->base;
        } else if (kind == 1) {
            sample_light *d = JL_MAKE_ENTITY(m, sample_light, x, y, z);
            CHECK_OR_FALSE(d);
            d->color = (jl_color){(uint8_t)rnd(), (uint8_t)rnd(), (uint8_t)rnd()};
            d->intensity = i % 3 ? rnd_decimal(1) : rnd_float_bits();
            d->radius = i % 4 == 0 ? INFINITY : (i % 9 == 0 ? -INFINITY : rnd_decimal(2));
            d->cast_shadows = rnd() & 1;
            e = d->base;
        } else {
            sample_prop *d = JL_MAKE_ENTITY(m, sample_prop, x, y, z);
            CHECK_OR_FALSE(d);
            d->mesh_instance = (uint32_t)rnd();
            d->density = rnd_decimal(2);
            d->is_static = rnd() & 1;
            d->velocity = (jl_vec3){rnd_decimal(1), i % 2 ? 3.4e38f : 0.0f, rnd_float_bits()};
            d->parent = i % 3 == 0 ? 0 : (i % 3 == 1 ? 0xdead000000000000ull + i % 4 : 0);
            e = d->base;
        }
        e->flags = i % 17 == 0 ? JL_ENTITY_READ_ONLY : 0;
    }
    /* Some props hang from entities of the world. */
    uint32_t k = 0;
    for (sample_prop *p = jl_typed_first(m, &sample_prop_class); p; p = jl_typed_next(m, &sample_prop_class, p))
        if (k++ % 3 == 0) p->parent = m->entities[rnd() % m->slots].id;
    return true;
}

static size_t field_size(jl_field_type type)
{
    switch (type) {
    case JL_FIELD_F32:
        return 4;
    case JL_FIELD_INDEX:
        return 4;
    case JL_FIELD_BOOL:
        return sizeof(bool);
    case JL_FIELD_VEC3:
        return 12;
    case JL_FIELD_COLOR:
        return 3;
    case JL_FIELD_ENTITY_REF:
        return 8;
    default:
        return 0;
    }
}

/* Same IDs, classes, position bits, flags and field bytes. */
static bool same_entities(const jl_entity_manager *a, const jl_entity_manager *b)
{
    CHECK_OR_FALSE(a->count == b->count);
    for (jl_entity *e = jl_entities_first(a); e; e = jl_entities_next(a, e)) {
        jl_entity *f = jl_entity_find(b, e->id);
        CHECK_OR_FALSE(f != NULL);
        CHECK_OR_FALSE(f->derived_kind == e->derived_kind);
        CHECK_OR_FALSE(memcmp(&f->position, &e->position, sizeof(float) * 3) == 0);
        CHECK_OR_FALSE(f->position.w == 1.0f);
        CHECK_OR_FALSE(f->flags == e->flags);
        const jl_class *cls = e->derived_kind;
        for (uint32_t i = 0; i < cls->field_count; i++) {
            const jl_field *fd = &cls->fields[i];
            CHECK_OR_FALSE(
                memcmp((char *)e->derived + fd->offset, (char *)f->derived + fd->offset, field_size(fd->type)) == 0);
        }
    }
    return true;
}

static jl_status encode(const jl_entity_manager *m, jl_snapshot_bytes *out)
{
    jl_error err = {0};
    jl_status st = jl_snapshot_encode_manager(m, &arena, out, &err);
    if (st != JL_OK) fprintf(stderr, "encode: %s\n", err.message);
    return st;
}

static jl_status decode(const uint8_t *data, size_t size, jl_error *err)
{
    return jl_snapshot_decode_manager(data, size, NULL, &target, err);
}

/* The start of a test: setup(target_capacity), and source filled with
 * count varied entities (fill_varied) encoded into *bytes. */
static bool varied_and_encoded(uint32_t target_capacity, uint32_t count, jl_snapshot_bytes *bytes)
{
    CHECK_OR_FALSE(setup(target_capacity));
    CHECK_OR_FALSE(fill_varied(&source, count));
    return encode(&source, bytes) == JL_OK;
}

/* bytes, the snapshot of source, decode into target as the same entities. */
static bool decodes_to_the_source(const jl_snapshot_bytes *bytes, jl_error *err)
{
    CHECK_OR_FALSE(decode(bytes->data, bytes->size, err) == JL_OK);
    return same_entities(&source, &target);
}

TEST(round_trip_keeps_every_id_class_position_flag_and_field)
{
    jl_snapshot_bytes bytes;
    CHECK(varied_and_encoded(0, 3000, &bytes));
    jl_error err = {0};
    CHECK(decodes_to_the_source(&bytes, &err));
    CHECK(jl_manager_check(&target, &err) == JL_OK);
    teardown();
}

TEST(decoded_entities_are_dirty_and_advance_the_id_counter)
{
    jl_snapshot_bytes bytes;
    CHECK(varied_and_encoded(0, 10, &bytes));
    /* Decode into a manager with the source's tag: minting must skip the IDs. */
    CHECK(renew_target(100, TAG));
    CHECK(decode(bytes.data, bytes.size, NULL) == JL_OK);
    for (jl_entity *e = jl_entities_first(&target); e; e = jl_entities_next(&target, e)) CHECK(e->is_dirty);
    uint64_t fresh = jl_manager_mint_id(&target);
    for (jl_entity *e = jl_entities_first(&source); e; e = jl_entities_next(&source, e)) CHECK(e->id < fresh);
    teardown();
}

TEST(empty_world_round_trips)
{
    CHECK(setup(0));
    jl_snapshot_bytes bytes;
    CHECK(encode(&source, &bytes) == JL_OK);
    CHECK(bytes.size < 40);
    CHECK(decode(bytes.data, bytes.size, NULL) == JL_OK);
    CHECK(target.count == 0);
    teardown();
}

TEST(encoding_is_canonical_whatever_the_slot_order)
{
    jl_snapshot_bytes first;
    CHECK(varied_and_encoded(0, 500, &first));
    /* The same entities, created in reverse ID order. */
    CHECK(renew_target(1000, 1));
    for (uint32_t s = source.slots; s-- > 0;) {
        const jl_entity *e = &source.entities[s];
        if (!e->derived) continue;
        jl_entity *copy;
        CHECK(jl_entity_allocate(&target, e->derived_kind, &copy) == JL_OK);
        CHECK(jl_entity_set_id(&target, copy, e->id) == JL_OK);
        memcpy((char *)copy->derived + sizeof(void *), (char *)e->derived + sizeof(void *),
               e->derived_kind->size_of - sizeof(void *));
        copy->position = e->position;
        copy->flags = e->flags;
    }
    jl_snapshot_bytes second;
    CHECK(encode(&target, &second) == JL_OK);
    CHECK(first.size == second.size);
    CHECK(memcmp(first.data, second.data, first.size) == 0);
    teardown();
}

TEST(encode_grows_the_arena_by_exactly_the_output)
{
    CHECK(setup(0));
    CHECK(fill_varied(&source, 200));
    size_t before = arena.used;
    jl_snapshot_bytes bytes;
    CHECK(encode(&source, &bytes) == JL_OK);
    CHECK(arena.used == before + bytes.size);
    CHECK(bytes.data == arena.base + before);
    teardown();
}

TEST(two_decimal_positions_cost_two_bytes_each)
{
    CHECK(setup(0));
    for (int i = 0; i < 1000; i++)
        CHECK(JL_MAKE_ENTITY(&source, sample_inert, rnd_decimal(2), rnd_decimal(2), rnd_decimal(2)));
    jl_snapshot_bytes bytes;
    CHECK(encode(&source, &bytes) == JL_OK);
    /* 3 x 2 bytes of position, 1 of ID gap, 1 of mesh index, and headers. */
    CHECK(bytes.size <= 1000 * 8 + 64);
    CHECK(decodes_to_the_source(&bytes, NULL));
    teardown();
}

TEST(float_bit_patterns_round_trip_exactly)
{
    CHECK(setup(0));
    /* Every third coordinate is an arbitrary finite bit pattern, the others
     * decimals of every length: columns mix decimal values and exceptions. */
    for (int i = 0; i < 15000; i++) {
        float v[3];
        for (int c = 0; c < 3; c++) {
            int digits = (int)(rnd() % 9) + 1;
            double scale = pow(10.0, (double)(int)(rnd() % 30) - 15);
            double mant = (double)(rnd() % 1000000000ull) / pow(10.0, 9 - digits);
            v[c] = (i + c) % 3 == 0 ? rnd_float_bits() : (float)(floor(mant) * scale);
        }
        CHECK(JL_MAKE_ENTITY(&source, sample_inert, v[0], v[1], v[2]));
    }
    jl_snapshot_bytes bytes;
    CHECK(encode(&source, &bytes) == JL_OK);
    CHECK(decodes_to_the_source(&bytes, NULL));
    teardown();
}

TEST(encode_rejects_nan_and_forbidden_infinity)
{
    CHECK(setup(0));
    sample_inert *a = JL_MAKE_ENTITY(&source, sample_inert, 1, 2, 3);
    CHECK(a);
    a->base->position.y = NAN;
    jl_snapshot_bytes bytes;
    jl_error err = {0};
    size_t before = arena.used;
    CHECK(jl_snapshot_encode_manager(&source, &arena, &bytes, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "position.y is NaN") != NULL);
    CHECK(arena.used == before);
    a->base->position.y = 0;
    sample_light *l = JL_MAKE_ENTITY(&source, sample_light, 1, 2, 3);
    CHECK(l);
    l->intensity = INFINITY;
    CHECK(jl_snapshot_encode_manager(&source, &arena, &bytes, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "Light.intensity is infinite") != NULL);
    teardown();
}

TEST(encode_rejects_an_entity_without_id)
{
    CHECK(setup(0));
    jl_entity *e;
    CHECK(jl_entity_allocate(&source, &sample_inert_class, &e) == JL_OK);
    jl_snapshot_bytes bytes;
    jl_error err = {0};
    CHECK(jl_snapshot_encode_manager(&source, &arena, &bytes, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(strstr(err.message, "no ID") != NULL);
    teardown();
}

/* ---- hostile input ---- */

/* A copy of an encoded snapshot that tests may edit, with its CRC fixed up
 * afterwards so the decoder gets past it to the check under test. */
static uint8_t buf[1 << 16];
static size_t buf_size;

static void fix_crc(void)
{
    uint32_t crc = jl_crc32(buf, buf_size - 4);
    for (int i = 0; i < 4; i++) buf[buf_size - 4 + i] = (uint8_t)(crc >> (8 * i));
}

/* buf holds a copy of bytes. */
static bool copied_to_buf(const jl_snapshot_bytes *bytes)
{
    CHECK_OR_FALSE(bytes->size <= sizeof buf);
    memcpy(buf, bytes->data, bytes->size);
    buf_size = bytes->size;
    return true;
}

/* The start of a test: setup(0), and buf a snapshot of one Light. */
static bool small_snapshot(void)
{
    CHECK_OR_FALSE(setup(0));
    sample_light *l = JL_MAKE_ENTITY(&source, sample_light, 1.5f, 2.25f, -3.0f);
    CHECK_OR_FALSE(l);
    jl_snapshot_bytes bytes;
    CHECK_OR_FALSE(encode(&source, &bytes) == JL_OK);
    return copied_to_buf(&bytes);
}

static bool rejected(jl_status expected, const char *fragment)
{
    jl_error err = {0};
    jl_status st = decode(buf, buf_size, &err);
    if (st != expected || (fragment && !strstr(err.message, fragment)))
        fprintf(stderr, "got %s: %s\n", jl_status_name(st), err.message);
    CHECK_OR_FALSE(st == expected);
    CHECK_OR_FALSE(err.status == expected);
    CHECK_OR_FALSE(!fragment || strstr(err.message, fragment) != NULL);
    CHECK_OR_FALSE(target.count == 0);
    return true;
}

TEST(rejects_bad_magic)
{
    CHECK(small_snapshot());
    buf[0] = 'X';
    CHECK(rejected(JL_ERR_CORRUPT, "bad magic"));
    teardown();
}

TEST(rejects_a_newer_format_version)
{
    CHECK(small_snapshot());
    buf[3] = JL_SNAPSHOT_VERSION + 1;
    fix_crc();
    CHECK(rejected(JL_ERR_CORRUPT, "format version 2"));
    teardown();
}

TEST(rejects_unknown_flags)
{
    CHECK(small_snapshot());
    buf[4] = 0x40;
    fix_crc();
    CHECK(rejected(JL_ERR_CORRUPT, "unknown flags"));
    teardown();
}

TEST(rejects_every_truncation)
{
    CHECK(small_snapshot());
    size_t full = buf_size;
    for (buf_size = 0; buf_size < full; buf_size++) CHECK(rejected(JL_ERR_CORRUPT, NULL));
    teardown();
}

TEST(rejects_trailing_bytes)
{
    CHECK(small_snapshot());
    buf[buf_size++] = 0;
    fix_crc(); /* bytes after the entities, under a right checksum */
    CHECK(rejected(JL_ERR_CORRUPT, "1 bytes of trailing data"));
    teardown();
}

TEST(rejects_a_damaged_byte_by_checksum)
{
    CHECK(small_snapshot());
    /* The last byte of the z column's mantissa planes: still parses. */
    buf[buf_size - 8] ^= 0x01;
    CHECK(rejected(JL_ERR_CORRUPT, "checksum mismatch"));
    teardown();
}

TEST(a_damaged_class_byte_is_reported_as_damaged_not_as_an_unknown_class)
{
    CHECK(small_snapshot());
    buf[6] ^= 0xff; /* first byte of the class name CRC, checksum left as it was */
    CHECK(rejected(JL_ERR_CORRUPT, "damaged (checksum mismatch)"));
    teardown();
}

TEST(rejects_an_unknown_class)
{
    CHECK(small_snapshot());
    buf[6] ^= 0xff; /* first byte of the class name CRC */
    fix_crc();
    CHECK(rejected(JL_ERR_UNKNOWN_CLASS, "unknown to this build"));
    teardown();
}

TEST(rejects_another_class_version)
{
    CHECK(small_snapshot());
    CHECK(buf[10] == sample_light_class.version);
    buf[10] = (uint8_t)(sample_light_class.version + 1); /* class version */
    fix_crc();
    char expected[64];
    snprintf(expected, sizeof expected, "Light version %u", sample_light_class.version + 1);
    CHECK(rejected(JL_ERR_UNKNOWN_CLASS, expected));
    teardown();
}

TEST(rejects_another_field_layout)
{
    CHECK(small_snapshot());
    buf[11] ^= 0x01; /* field list CRC */
    fix_crc();
    CHECK(rejected(JL_ERR_UNKNOWN_CLASS, "other fields"));
    teardown();
}

/* Hand-built streams: magic, version, flags 0, one Inert class. */
static void w8(uint8_t v) { buf[buf_size++] = v; }
static void wv(uint64_t v)
{
    while (v >= 0x80) {
        w8((uint8_t)(v | 0x80));
        v >>= 7;
    }
    w8((uint8_t)v);
}
static void w32(uint32_t v)
{
    for (int i = 0; i < 4; i++) w8((uint8_t)(v >> (8 * i)));
}
static uint32_t inert_schema_crc(void)
{
    /* As the encoder computes it: read back from a real snapshot. */
    jl_entity_manager m;
    jl_manager_desc desc = {.capacity = 4, .id_tag = 1};
    if (jl_manager_init(&m, &desc) != JL_OK) return 0;
    JL_MAKE_ENTITY(&m, sample_inert, 0, 0, 0);
    jl_snapshot_bytes b;
    uint32_t crc = 0;
    if (jl_snapshot_encode_manager(&m, &arena, &b, NULL) == JL_OK)
        crc =
            (uint32_t)b.data[11] | (uint32_t)b.data[12] << 8 | (uint32_t)b.data[13] << 16 | (uint32_t)b.data[14] << 24;
    jl_manager_shutdown(&m);
    return crc;
}
static void header(uint32_t count)
{
    uint32_t schema = inert_schema_crc();
    buf_size = 0;
    w8('J'), w8('L'), w8('W'), w8(JL_SNAPSHOT_VERSION);
    wv(0);
    wv(1);
    w32(sample_inert_class.crc);
    wv(sample_inert_class.version);
    w32(schema);
    wv(count);
}
static void int_column_const(uint64_t value) { wv(value), w8(0); }
static void float_column_const(void) { w8(0), wv(0), wv(0), w8(0), wv(0); }
static void finish(void)
{
    buf_size += 4;
    fix_crc();
}

/* The start of a test on a hand-built stream: setup(0), and the header of
 * count entities written. */
static bool stream_of(uint32_t count)
{
    CHECK_OR_FALSE(setup(0));
    header(count);
    return true;
}

/* The same for one entity, ID 5, whose class column holds class_index. */
static bool stream_of_one(uint64_t class_index)
{
    CHECK_OR_FALSE(stream_of(1));
    wv(5);
    int_column_const(class_index);
    return true;
}

/* The columns after the IDs of Inert entities at 0 0 0 with no flags and
 * the constant mesh_instance column mesh (coded: 0 is none). */
static void inert_columns(uint64_t mesh)
{
    int_column_const(0); /* classes */
    float_column_const(), float_column_const(), float_column_const();
    int_column_const(0); /* flags */
    int_column_const(mesh);
}

/* The end of a test on a hand-built stream: finished (its CRC), refused
 * with expected and a message holding fragment; torn down either way. */
static bool stream_refused(jl_status expected, const char *fragment)
{
    finish();
    bool refused = rejected(expected, fragment);
    teardown();
    return refused;
}

TEST(hand_built_stream_decodes)
{
    CHECK(stream_of(2));
    wv(7), wv(0);      /* IDs 7, 8 */
    inert_columns(13); /* mesh_instance 12 */
    finish();
    jl_error err = {0};
    CHECK(decode(buf, buf_size, &err) == JL_OK);
    CHECK(target.count == 2);
    sample_inert *d = JL_DOWNCAST(sample_inert, jl_entity_find(&target, 8));
    CHECK(d && d->mesh_instance == 12);
    teardown();
}

TEST(rejects_id_zero)
{
    CHECK(stream_of(1));
    wv(0);
    inert_columns(0);
    CHECK(stream_refused(JL_ERR_CORRUPT, "ID 0"));
}

/* Gaps are coded minus one, so a repeated ID cannot be written; the only
 * way to reach one is to wrap around 2^64, which is refused. */
TEST(rejects_an_id_gap_that_wraps_to_a_repeat)
{
    CHECK(stream_of(2));
    wv(5), wv(UINT64_MAX);
    inert_columns(0);
    CHECK(stream_refused(JL_ERR_CORRUPT, "past 2^64"));
}

TEST(rejects_a_class_index_out_of_range)
{
    CHECK(stream_of_one(1));
    CHECK(stream_refused(JL_ERR_CORRUPT, "class column: value 0 out of range"));
}

TEST(rejects_nan_position)
{
    CHECK(stream_of_one(0));
    w8(1), int_column_const(0x7fc00000u); /* bits mode: NaN */
    CHECK(stream_refused(JL_ERR_CORRUPT, "position.x: value 0 is NaN"));
}

TEST(rejects_infinite_position_exception)
{
    CHECK(stream_of_one(0));
    w8(0), wv(0), wv(0), w8(0), wv(1), wv(0), w32(0x7f800000u);
    CHECK(stream_refused(JL_ERR_CORRUPT, "position.x: value 0 is infinite"));
}

TEST(rejects_a_decimal_exponent_out_of_range)
{
    CHECK(stream_of_one(0));
    w8(0), wv(46 /* zigzag 23 */), wv(0), w8(0), wv(0);
    CHECK(stream_refused(JL_ERR_CORRUPT, "exponent 23 out of range"));
}

TEST(rejects_a_mantissa_beyond_double_precision)
{
    CHECK(stream_of_one(0));
    w8(0), wv(0), wv((uint64_t)1 << 54 /* zigzag 2^53 */), w8(1);
    w8(1); /* plane: 2^53 + 1 */
    wv(0);
    CHECK(stream_refused(JL_ERR_CORRUPT, "mantissa 0 out of range"));
}

TEST(rejects_a_bool_above_one)
{
    CHECK(setup(0));
    CHECK(small_snapshot()); /* a Light: color, intensity, radius, cast_shadows */
    /* cast_shadows is the last column: base varint 1, width 0, then the CRC. */
    CHECK(buf[buf_size - 6] == 1 && buf[buf_size - 5] == 0);
    buf[buf_size - 6] = 2;
    fix_crc();
    CHECK(rejected(JL_ERR_CORRUPT, "cast_shadows: value 0 out of range"));
    teardown();
}

TEST(references_are_coded_relative_and_checked_against_the_entities)
{
    CHECK(setup(0));
    sample_prop *p = JL_MAKE_ENTITY(&source, sample_prop, 0, 0, 0);
    CHECK(p);
    p->parent = p->base->id; /* itself: relative code 1 + 0 + zigzag(0) */
    jl_snapshot_bytes bytes;
    CHECK(encode(&source, &bytes) == JL_OK);
    CHECK(copied_to_buf(&bytes));
    /* parent is the last column: X = 0 externals, base 1, width 0, CRC. */
    CHECK(buf[buf_size - 7] == 0 && buf[buf_size - 6] == 1 && buf[buf_size - 5] == 0);
    buf[buf_size - 6] = 3; /* zigzag 2 -> one past the only entity */
    fix_crc();
    CHECK(rejected(JL_ERR_CORRUPT, "parent: value 0 refers past the entities"));
    teardown();
}

TEST(rejects_more_entities_than_the_cap)
{
    CHECK(stream_of(JL_SNAPSHOT_MAX_ENTITIES + 1));
    CHECK(stream_refused(JL_ERR_CORRUPT, "exceeds the limit"));
}

TEST(rejects_counts_the_input_cannot_hold)
{
    CHECK(stream_of(15000)); /* 15,000 IDs need at least as many bytes */
    wv(1);
    CHECK(stream_refused(JL_ERR_CORRUPT, "truncated"));
}

TEST(rejects_an_overlong_varint)
{
    CHECK(stream_of(1));
    w8(0x85), w8(0x00); /* 5 in two bytes */
    CHECK(stream_refused(JL_ERR_CORRUPT, "malformed varint"));
}

TEST(rejects_more_entities_than_the_world_takes_before_reading_them)
{
    CHECK(setup(10));
    header(11); /* no IDs at all: the count alone decides */
    CHECK(stream_refused(JL_ERR_CAPACITY, "the world takes 10 more"));
}

TEST(rejects_more_entities_than_the_world_takes)
{
    jl_snapshot_bytes bytes;
    CHECK(varied_and_encoded(3, 4, &bytes));
    CHECK(copied_to_buf(&bytes));
    CHECK(rejected(JL_ERR_CAPACITY, "4 entities"));
    teardown();
}

TEST(refuses_a_world_that_is_not_empty)
{
    CHECK(small_snapshot());
    CHECK(JL_MAKE_ENTITY(&target, sample_inert, 0, 0, 0));
    jl_error err = {0};
    CHECK(decode(buf, buf_size, &err) == JL_ERR_INVALID_ARGUMENT);
    CHECK(target.count == 1);
    teardown();
}

TEST(failed_decode_keeps_pending_deletions)
{
    CHECK(small_snapshot());
    sample_inert *d = JL_MAKE_ENTITY(&target, sample_inert, 0, 0, 0);
    CHECK(d);
    CHECK(jl_entity_destroy(&target, d->base) == JL_OK);
    CHECK(target.pending_count == 1);
    buf[buf_size - 1] ^= 1;
    CHECK(rejected(JL_ERR_CORRUPT, "checksum"));
    CHECK(target.pending_count == 1);
    teardown();
}

/* Random damage (CRC fixed so the parser sees it) never crashes, and
 * whatever decodes leaves a consistent manager. */
TEST(random_damage_is_rejected_or_decodes_consistently)
{
    jl_snapshot_bytes bytes;
    CHECK(varied_and_encoded(0, 40, &bytes));
    for (int round = 0; round < 3000; round++) {
        CHECK(copied_to_buf(&bytes));
        int edits = 1 + (int)(rnd() % 4);
        for (int e = 0; e < edits; e++) buf[rnd() % (buf_size - 4)] = (uint8_t)rnd();
        fix_crc();
        jl_error err = {0};
        jl_status st = decode(buf, buf_size, &err);
        if (st == JL_OK) {
            CHECK(jl_manager_check(&target, &err) == JL_OK);
            CHECK(renew_target(20000, 9));
        } else {
            CHECK(err.message[0] != '\0');
            CHECK(target.count == 0);
        }
    }
    teardown();
}

/* ---- base64url and links ---- */

TEST(base64url_round_trips_every_length)
{
    uint8_t data[70], back[70];
    char text[100];
    for (size_t n = 0; n <= sizeof data; n++) {
        for (size_t i = 0; i < n; i++) data[i] = (uint8_t)rnd();
        size_t chars = jl_base64url_encode(data, n, text);
        CHECK(chars == jl_base64url_encoded_size(n));
        CHECK(jl_base64url_decoded_size_max(chars) == n);
        for (size_t i = 0; i < chars; i++) CHECK(text[i] != '=' && text[i] != '+' && text[i] != '/');
        size_t got;
        CHECK(jl_base64url_decode(text, chars, back, sizeof back, &got, NULL) == JL_OK);
        CHECK(got == n && memcmp(back, data, n) == 0);
    }
}

TEST(base64url_known_vectors)
{
    char text[16];
    CHECK(jl_base64url_encode((const uint8_t *)"\xfb\xff", 2, text) == 3 && memcmp(text, "-_8", 3) == 0);
    CHECK(jl_base64url_encode((const uint8_t *)"foobar", 6, text) == 8 && memcmp(text, "Zm9vYmFy", 8) == 0);
}

/* jl_base64url_decode of text into out_size bytes (16 at most); its
 * status, *err as it leaves it. */
static jl_status base64url_decode(const char *text, size_t out_size, jl_error *err)
{
    uint8_t out[16];
    size_t got;
    return jl_base64url_decode(text, strlen(text), out, out_size, &got, err);
}

TEST(base64url_rejects_a_foreign_character_with_its_column)
{
    jl_error err = {0};
    CHECK(base64url_decode("Zm9v+mFy", 16, &err) == JL_ERR_CORRUPT);
    CHECK(err.col == 5);
    CHECK(strstr(err.message, "not base64url") != NULL);
}

TEST(base64url_rejects_padding)
{
    jl_error err = {0};
    CHECK(base64url_decode("Zm8=", 16, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "padding") != NULL);
}

TEST(base64url_rejects_impossible_length_and_stray_bits)
{
    uint8_t out[16];
    size_t got;
    jl_error err = {0};
    CHECK(base64url_decode("Zm9vY", 16, &err) == JL_ERR_CORRUPT);
    CHECK(jl_base64url_decode("Zm8", 3, out, sizeof out, &got, &err) == JL_OK && got == 2);
    CHECK(memcmp(out, "fo", 2) == 0);
    CHECK(base64url_decode("Zm9", 16, &err) == JL_ERR_CORRUPT);
    CHECK(strstr(err.message, "stray bits") != NULL);
}

TEST(base64url_refuses_output_that_does_not_fit)
{
    jl_error err = {0};
    CHECK(base64url_decode("Zm9vYmFy", 4, &err) == JL_ERR_CAPACITY);
}

TEST(link_payload_is_the_fragment)
{
    size_t n;
    const char *link = "http://localhost:5173/#AbC-_9";
    const char *p = jl_snapshot_link_payload(link, strlen(link), &n);
    CHECK(n == 6 && memcmp(p, "AbC-_9", 6) == 0);
    p = jl_snapshot_link_payload("  AbC \n", 7, &n);
    CHECK(n == 3 && memcmp(p, "AbC", 3) == 0);
    p = jl_snapshot_link_payload("x#y#z", 5, &n);
    CHECK(n == 1 && *p == 'z');
}
