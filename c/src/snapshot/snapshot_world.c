/* snapshot_world.c - the world section of snapshots: settings, unknown keys
 * and read-only flags, opaque entities as text, and decoding into the
 * world as its own loader would (checked values straight in, the rest
 * through the loader) so a decoded world saves exactly the files the source
 * would (snapshot.h). */
#include <math.h>
#include <stdio.h>

#include "archive/archive_internal.h"
#include "juliet/archive.h"
#include "juliet/snapshot.h"
#include "juliet/world.h"
#include "class_file/class_file_internal.h"
#include "class/class_registry_internal.h"
#include "entity/entity_manager_internal.h"
#include "snapshot/snapshot_internal.h"
#include "world/world_internal.h"

enum { SETTINGS_READ_ONLY = 1u << 0 };

/* ---- class files ---- */

/* Whether kind k of the world has live entities and came from a class
 * file: such a class travels with the snapshot. */
static const jli_class_file *carried_class(const jl_world *world, uint32_t k)
{
    const jl_class *cls = jl_registry_at(&world->classes, k);
    return world->manager.by_type[k].cls && world->manager.by_type[k].count ? jli_class_file_of(world, cls) : NULL;
}

/* The class files of the classes with entities, in kind order: varint
 * count, then each file's varint size and bytes (its text verbatim). */
static jl_status write_class_files(jli_snap_encoder *enc)
{
    const jl_world *world = enc->classes_user;
    uint32_t kinds = jl_registry_count(&world->classes), count = 0;
    for (uint32_t k = 0; k < kinds; k++) count += carried_class(world, k) != NULL;
    jli_snap_write_varint(&enc->w, count);
    for (uint32_t k = 0; k < kinds; k++) {
        const jli_class_file *cf = carried_class(world, k);
        if (!cf) continue;
        jli_snap_write_varint(&enc->w, cf->text_size);
        jli_snap_write_bytes(&enc->w, cf->text, cf->text_size);
    }
    return enc->w.failed ? JL_ERR_OUT_OF_MEMORY : JL_OK;
}

/* What the decoder read of the class files: their texts (in the input)
 * and the classes parsed from them, which the snapshot's class table is
 * resolved against until they join the world (apply_world). */
typedef struct carried_classes {
    const jl_world *world;
    jl_class_registry registry; /* the world's classes and the carried ones */
    jl_arena arena;             /* the parsed records */
    jl_arena tokens;            /* one file's tokens at a time */
    uint32_t count;
    const uint8_t *text[JL_CLASS_MAX];
    uint32_t size[JL_CLASS_MAX];
    const char *name[JL_CLASS_MAX];
} carried_classes;

static bool read_class_files(jli_snap_decoder *d)
{
    carried_classes *c = d->classes_user;
    jli_snap_reader *r = &d->r;
    c->count = jli_snap_read_count(r, JL_CLASS_MAX, 1, "class file count");
    size_t total = 0;
    for (uint32_t i = 0; i < c->count && !r->failed; i++) {
        c->size[i] = jli_snap_read_count(r, JL_ARCHIVE_FILE_MAX, 1, "class file size");
        c->text[i] = jli_snap_read_bytes(r, c->size[i], "class file");
        total += c->size[i];
    }
    if (r->failed) return false;
    /* Every record takes its text and a small multiple of it. */
    if (c->count && (jl_arena_init(&c->arena, 16 * total + (size_t)c->count * 4096) != JL_OK ||
                     jl_arena_init(&c->tokens, (JL_ARCHIVE_KEYS_MAX + 1) * sizeof(jl_archive_entry)) != JL_OK))
        return jli_snap_fail(r, JL_ERR_OUT_OF_MEMORY, "no memory for %u classes", c->count);
    c->registry = c->world->classes;
    for (uint32_t i = 0; i < c->count; i++) {
        jl_error why;
        jli_class_file *cf;
        if (jli_class_file_parse(&c->arena, &c->tokens, NULL, (const char *)c->text[i], c->size[i], NULL, &cf, &why) !=
            JL_OK)
            return jli_snap_fail(r, JL_ERR_CORRUPT, "class file %u: line %u: %s", i + 1, why.line, why.message);
        c->name[i] = cf->cls.name;
        const jl_class *known = jl_registry_find(&c->registry, cf->cls.name, strlen(cf->cls.name));
        if (known) {
            /* The world knows the class already: the snapshot's must be it. */
            if (!jli_class_file_agrees(cf, known, "this world's", &why))
                return jli_snap_fail(r, JL_ERR_UNKNOWN_CLASS, "%s", why.message);
            c->name[i] = NULL;
        } else if (jli_registry_add(&c->registry, &cf->cls) != JL_OK) {
            return jli_snap_fail(r, JL_ERR_CORRUPT, "class %s cannot be added", cf->cls.name);
        }
    }
    d->registry = &c->registry;
    return true;
}

/* The carried classes join the world (those it did not know). */
static jl_status add_class_files(const carried_classes *c, jl_world *world, jl_error *err)
{
    for (uint32_t i = 0; i < c->count; i++) {
        if (!c->name[i]) continue;
        char path[JL_CLASS_NAME_MAX + 32];
        snprintf(path, sizeof path, "%s/%s%s", JL_CLASS_FILES_DIR, c->name[i], JL_CLASS_FILE_SUFFIX);
        jl_error why;
        if (jli_class_file_add(world, path, (const char *)c->text[i], c->size[i], c->name[i], &why) != JL_OK)
            return jl_error_set(err, why.status, NULL, 0, 0, "snapshot: %s", why.message);
    }
    return JL_OK;
}

/* ---- encoding ---- */

static jl_status encode_world_section(jli_snap_encoder *enc, const jl_world *world)
{
    jli_snap_writer *w = &enc->w;
    const jl_class *cls = &jl_world_settings_class;
    jli_snap_write_varint(w, cls->version);
    jli_snap_write_u32(w, jli_snap_schema_crc(cls));
    jli_snap_write_u8(w, world->settings_read_only ? SETTINGS_READ_ONLY : 0);
    const uint8_t *row = (const uint8_t *)&world->settings;
    jli_snap_rows rows = {.rows = &row, .owners = NULL, .n = 1};
    for (uint32_t f = 0; f < cls->field_count; f++) {
        jl_status st = jli_snap_write_field(enc, cls, &cls->fields[f], &rows);
        if (st != JL_OK) return st;
    }
    const jli_entity_record *kept = &world->settings_record;
    jli_snap_write_varint(w, kept->unknown_size);
    if (kept->unknown_size) jli_snap_write_bytes(w, jli_record_unknown(world, kept), kept->unknown_size);

    uint64_t *sizes = enc->scratch.spans;
    for (uint32_t i = 0; i < enc->count; i++) {
        uint32_t size = 0;
        jl_world_unknown_keys(world, enc->ids[i], &size);
        sizes[i] = size;
    }
    jli_snap_write_int_column(w, sizes, enc->count);
    for (uint32_t i = 0; i < enc->count; i++) {
        uint32_t size = 0;
        const char *text = jl_world_unknown_keys(world, enc->ids[i], &size);
        if (text && size) jli_snap_write_bytes(w, text, size);
    }
    return w->failed ? JL_ERR_OUT_OF_MEMORY : JL_OK;
}

/* The opaque entities (JLI_SNAP_FLAG_OPAQUE), by ascending ID: what their
 * files hold, for the loader to read back. */
static void encode_opaque(jli_snap_encoder *enc, const jl_world *world)
{
    jli_snap_writer *w = &enc->w;
    jli_snap_write_varint(w, enc->opaque_count);
    for (uint32_t i = 0; i < enc->opaque_count; i++) {
        const jl_entity *e = enc->order[enc->count + i];
        const char *name = e->derived_kind->name;
        jli_snap_write_varint(w, e->id);
        jli_snap_write_varint(w, strlen(name));
        jli_snap_write_bytes(w, name, strlen(name));
        jli_snap_write_varint(w, jli_entity_class_version(e));
        jli_snap_write_u32(w, jli_snap_float_bits(e->position.x));
        jli_snap_write_u32(w, jli_snap_float_bits(e->position.y));
        jli_snap_write_u32(w, jli_snap_float_bits(e->position.z));
        jli_snap_write_u8(w, e->flags);
        uint32_t size = 0;
        const char *kept = jl_world_unknown_keys(world, e->id, &size);
        jli_snap_write_varint(w, size);
        if (size) jli_snap_write_bytes(w, kept, size);
    }
}

jl_status jl_snapshot_encode_world(const jl_world *world, jl_arena *arena, jl_snapshot_bytes *out, jl_error *err)
{
    *out = (jl_snapshot_bytes){0};
    if (!world || !arena || !arena->base)
        return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "snapshot: no world or arena");
    jli_snap_encoder enc;
    jl_status st = jli_snap_encoder_begin(&enc, &world->manager, arena, err);
    if (st != JL_OK) return st;
    uint32_t flags = JLI_SNAP_FLAG_WORLD | (enc.opaque_count ? JLI_SNAP_FLAG_OPAQUE : 0u);
    for (uint32_t k = 0; k < jl_registry_count(&world->classes); k++)
        if (carried_class(world, k)) flags |= JLI_SNAP_FLAG_CLASSES;
    enc.write_classes = write_class_files;
    enc.classes_user = world;
    st = jli_snap_encode_entities(&enc, flags);
    if (st == JL_OK) st = encode_world_section(&enc, world);
    if (st == JL_OK && enc.opaque_count) encode_opaque(&enc, world);
    if (st == JL_OK && enc.w.failed) st = JL_ERR_OUT_OF_MEMORY;
    if (st != JL_OK) {
        jli_snap_encoder_abort(&enc);
        if (st == JL_ERR_OUT_OF_MEMORY) jl_error_set(err, st, NULL, 0, 0, "snapshot: out of memory");
        return st;
    }
    return jli_snap_encoder_finish(&enc, out);
}

jl_status jl_snapshot_encode_world_scratch(jl_world *world, jl_snapshot_bytes *out, jl_error *err)
{
    *out = (jl_snapshot_bytes){0};
    if (!world) return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "snapshot: no world");
    jl_arena_pop_to(&world->scratch, 0); /* as jl_world_write_entity: the last text goes */
    return jl_snapshot_encode_world(world, &world->scratch, out, err);
}

/* ---- decoding ---- */

typedef struct world_section {
    jl_world_settings settings;
    bool settings_read_only;
    const uint8_t *settings_extra;
    uint32_t settings_extra_size;
    uint32_t *extra_size;      /* per entity, ID order */
    const uint8_t *extra_text; /* all entities' unknown keys back to back */
    uint32_t opaque_count;     /* opaque entities (JLI_SNAP_FLAG_OPAQUE) */
    const uint8_t *opaque;     /* their records (encode_opaque), checked by read_opaque */
    uint64_t *opaque_ids;      /* their IDs, as they are made (for a rollback) */
} world_section;

/* One opaque entity of the stream, its bytes pointing into the input. */
typedef struct opaque_record {
    uint64_t id;
    const uint8_t *name;
    uint32_t name_size;
    uint64_t class_version;
    jl_vec3 position;
    uint8_t flags;
    const uint8_t *kept;
    uint32_t kept_size;
} opaque_record;

/* Reads one opaque entity's record at r's cursor, checking what the
 * loader would not see: the loader checks the rest (the name, a kept
 * key's text, the position's value) when it reads the text made of it. */
static bool read_opaque(jli_snap_reader *r, opaque_record *o)
{
    o->id = jli_snap_read_varint(r, "opaque entity ID");
    o->name_size = jli_snap_read_count(r, JL_CLASS_NAME_MAX, 1, "opaque class name size");
    o->name = jli_snap_read_bytes(r, o->name_size, "opaque class name");
    o->class_version = jli_snap_read_varint(r, "opaque class version");
    float *axis = &o->position.x;
    for (int i = 0; i < 3; i++) axis[i] = jli_snap_bits_float(jli_snap_read_u32(r, "opaque entity position"));
    o->flags = jli_snap_read_u8(r, "opaque entity flags");
    o->kept_size = jli_snap_read_count(r, UINT32_MAX, 1, "opaque entity kept-key bytes");
    o->kept = jli_snap_read_bytes(r, o->kept_size, "opaque entity kept keys");
    if (r->failed) return false;
    if (o->id == 0) return jli_snap_fail(r, JL_ERR_CORRUPT, "opaque entity with ID 0");
    if (o->name_size == 0) return jli_snap_fail(r, JL_ERR_CORRUPT, "opaque entity without a class name");
    if (o->class_version == 0 || o->class_version >= JL_INDEX_MAX)
        return jli_snap_fail(r, JL_ERR_CORRUPT, "opaque entity class version %llu out of range",
                             (unsigned long long)o->class_version);
    if (o->flags & ~(uint32_t)JL_ENTITY_READ_ONLY)
        return jli_snap_fail(r, JL_ERR_CORRUPT, "opaque entity flags 0x%x", o->flags);
    for (int i = 0; i < 3; i++)
        if (!isfinite(axis[i])) return jli_snap_fail(r, JL_ERR_CORRUPT, "opaque entity position not finite");
    return true;
}

static bool decode_world_section(jli_snap_decoder *d, world_section *ws)
{
    jli_snap_reader *r = &d->r;
    const jl_class *cls = &jl_world_settings_class;
    uint64_t version = jli_snap_read_varint(r, "settings version");
    uint32_t schema = jli_snap_read_u32(r, "settings field CRC");
    uint8_t flags = jli_snap_read_u8(r, "settings flags");
    if (r->failed) return false;
    if (version != cls->version)
        return jli_snap_fail(r, JL_ERR_UNKNOWN_CLASS, "world settings version %llu, this build has %u",
                             (unsigned long long)version, cls->version);
    /* Settings fields are only ever appended: a snapshot made before the
     * last ones were added carries the first of this build's fields, and
     * the others keep their defaults. */
    uint32_t fields = cls->field_count;
    while (fields > 0 && schema != jli_snap_schema_crc_first(cls, fields)) fields--;
    if (fields == 0)
        return jli_snap_fail(r, JL_ERR_UNKNOWN_CLASS,
                             "world settings have other fields in this build than in the snapshot");
    if (flags & ~SETTINGS_READ_ONLY) return jli_snap_fail(r, JL_ERR_CORRUPT, "unknown settings flags 0x%x", flags);
    ws->settings_read_only = (flags & SETTINGS_READ_ONLY) != 0;

    /* Defaults first, so bytes the reflection does not cover are defined. */
    jl_world_settings defaults;
    memset(&defaults, 0, sizeof defaults);
    if (cls->default_init) cls->default_init(&defaults);
    ws->settings = defaults;
    jli_snap_class_entry entry = {.cls = cls, .count = 1, .staging = (uint8_t *)&ws->settings};
    for (uint32_t f = 0; f < fields; f++)
        if (!jli_snap_read_field(d, &entry, &cls->fields[f])) return false;

    uint32_t settings_extra = jli_snap_read_count(r, UINT32_MAX, 1, "settings unknown-key bytes");
    ws->settings_extra = jli_snap_read_bytes(r, settings_extra, "settings unknown keys");
    ws->settings_extra_size = settings_extra;
    if (r->failed) return false;

    uint32_t n = d->count;
    ws->extra_size = jl_arena_push(d->scratch, (n ? n : 1) * sizeof *ws->extra_size, 4);
    if (!ws->extra_size) return jli_snap_fail(r, JL_ERR_OUT_OF_MEMORY, "no memory for %u entities", n);
    if (!jli_snap_read_int_column(r, n, jli_snap_left(r), d->spans, "unknown-key sizes")) return false;
    uint64_t total = 0;
    for (uint32_t i = 0; i < n; i++) {
        total += d->spans[i];
        if (total > jli_snap_left(r))
            return jli_snap_fail(r, JL_ERR_CORRUPT, "truncated: unknown keys need more than %zu bytes",
                                 jli_snap_left(r));
        ws->extra_size[i] = (uint32_t)d->spans[i];
    }
    ws->extra_text = jli_snap_read_bytes(r, (size_t)total, "unknown keys");
    if (r->failed || !(d->flags & JLI_SNAP_FLAG_OPAQUE)) return !r->failed;

    /* Checked in full now, made in apply_world: a failure then changes nothing. */
    ws->opaque_count = jli_snap_read_count(r, JL_SNAPSHOT_MAX_ENTITIES, 18, "opaque entities");
    ws->opaque = r->p;
    ws->opaque_ids = jl_arena_push(d->scratch, (ws->opaque_count ? ws->opaque_count : 1) * sizeof(uint64_t), 8);
    if (!ws->opaque_ids) return jli_snap_fail(r, JL_ERR_OUT_OF_MEMORY, "no memory for %u entities", ws->opaque_count);
    opaque_record o;
    for (uint32_t i = 0; i < ws->opaque_count; i++)
        if (!read_opaque(r, &o)) return false;
    return !r->failed;
}

/* What a failed decode restores. The settings are applied last, once every
 * entity loaded, so only the entities are taken back. */
typedef struct world_backup {
    uint32_t diagnostic_count, diagnostic_total;
    jl_world_stats stats;
} world_backup;

static void rollback(jl_world *world, const world_backup *b, const uint64_t *ids, uint32_t made)
{
    for (uint32_t i = 0; i < made; i++) {
        jl_entity *e = jl_world_find(world, ids[i]);
        if (!e) continue;
        /* Made by this decode: undone as if never made (no file to delete). */
        jli_entity_record *r = jli_record_for(world, e);
        if (r) jli_record_release(world, r);
        jli_entity_rollback_allocation(&world->manager, e);
    }
    world->diagnostic_count = b->diagnostic_count;
    world->diagnostic_total = b->diagnostic_total;
    world->stats = b->stats;
}

/* Writes the .jasset text of one decoded entity (a stand-in base entity
 * over its staged fields) plus its unknown keys, on the scratch arena. */
static jl_status entity_text(jli_snap_decoder *d, uint32_t i, const uint8_t *derived, const char *extra,
                             uint32_t extra_size, const char **text, size_t *size)
{
    jl_entity stand_in = {
        .id = d->ids[i],
        .derived_kind = d->classes[d->class_of[i]].cls,
        .derived = (void *)derived,
        .position = {d->positions[i].x, d->positions[i].y, d->positions[i].z, 1.0f},
    };
    jl_archive ar = {0};
    jl_archive_begin_write(&ar, d->scratch);
    jl_status st = jl_archive_write_entity(&ar, &stand_in, extra, extra_size);
    jl_status end = jl_archive_end_write(&ar, text, size);
    return st != JL_OK ? st : end;
}

/* Makes the opaque entities of ws through the loader, from the text their
 * files would hold. On failure the ones made are taken back by the caller
 * (ws->opaque_ids[0, *made)). */
static jl_status apply_opaque(jli_snap_decoder *d, world_section *ws, jl_world *world, uint32_t *made, jl_error *why)
{
    jli_snap_reader r = {.start = ws->opaque, .p = ws->opaque, .end = d->r.end, .err = why};
    for (*made = 0; *made < ws->opaque_count; (*made)++) {
        opaque_record o;
        if (!read_opaque(&r, &o)) return r.status; /* checked already: not reached */
        /* A stand-in entity of an unregistered class of that name: the
         * writer needs only the name and the class_version. */
        char name[JL_CLASS_NAME_MAX + 1];
        memcpy(name, o.name, o.name_size);
        name[o.name_size] = '\0';
        jl_class cls;
        jli_opaque_class_init(&cls, name);
        jli_opaque_entity derived = {.class_version = (uint32_t)o.class_version};
        jl_entity stand_in = {
            .id = o.id,
            .derived_kind = &cls,
            .derived = &derived,
            .position = {o.position.x, o.position.y, o.position.z, 1.0f},
        };
        const size_t mark = d->scratch->used;
        jl_archive ar = {0};
        jl_archive_begin_write(&ar, d->scratch);
        jl_status st = jl_archive_write_entity(&ar, &stand_in, (const char *)o.kept, o.kept_size);
        const char *text;
        size_t size;
        jl_status end = jl_archive_end_write(&ar, &text, &size);
        if (st == JL_OK) st = end;
        jl_entity *e = NULL;
        if (st == JL_OK) st = jli_world_load_entity(world, NULL, NULL, 0, text, size, true, &e, why);
        jl_arena_pop_to(d->scratch, mark);
        if (st != JL_OK) return st;
        /* A name that is a described class, or not a class name at all,
         * is no opaque entity: not what an encoder writes. */
        if (!jl_class_is_opaque(e->derived_kind)) {
            ws->opaque_ids[(*made)++] = o.id;
            return jl_error_set(why, JL_ERR_CORRUPT, NULL, 0, 0, "class %s is not unknown to this build",
                                e->derived_kind->name);
        }
        ws->opaque_ids[*made] = o.id;
        e->flags = o.flags;
        e->is_dirty = true;
    }
    return JL_OK;
}

/* True if a string field of settings holds text: decoded, its bytes are
 * in the snapshot's input, which the world must not point into. */
static bool settings_hold_text(const jl_world_settings *settings)
{
    const jl_class *cls = &jl_world_settings_class;
    for (uint32_t f = 0; f < cls->field_count; f++) {
        if (cls->fields[f].type != JL_FIELD_STRING) continue;
        jl_string v;
        memcpy(&v, (const char *)settings + cls->fields[f].offset, sizeof v);
        if (v.size) return true;
    }
    return false;
}

/* The settings of the snapshot: straight in, or through the loader when
 * they carry unknown keys (so those are checked and kept as a file's
 * would be) or text (copied into the world's strings as a file's is). On
 * failure the settings are as before. */
static jl_status apply_settings(jli_snap_decoder *d, const world_section *ws, jl_world *world, jl_error *why)
{
    if (!ws->settings_extra_size && !settings_hold_text(&ws->settings)) {
        jli_record_release(world, &world->settings_record);
        world->settings = ws->settings;
        world->settings_record.file = JLI_FILE_UNKNOWN; /* no file: dirty */
    } else {
        const size_t mark = d->scratch->used;
        jl_archive ar = {0};
        jl_archive_begin_write(&ar, d->scratch);
        jli_settings_write_text(&ar, &ws->settings, (const char *)ws->settings_extra, ws->settings_extra_size);
        const char *text;
        size_t size;
        jl_status st = jl_archive_end_write(&ar, &text, &size);
        const bool read_only = world->settings_read_only;
        world->settings_read_only = false; /* replaced as a whole, whatever it was */
        if (st == JL_OK) st = jl_world_load_settings_text(world, NULL, text, size, true, why);
        jl_arena_pop_to(d->scratch, mark);
        if (st != JL_OK) {
            world->settings_read_only = read_only;
            return st;
        }
    }
    world->settings_read_only = ws->settings_read_only;
    world->settings_dirty = true;
    return JL_OK;
}

/* The world's class of the decoder's class cls if staged structs of cls
 * can be its entities as they are (serialized by its fields, with the same
 * layout: a class carried as a file is the world's own parse of the same
 * text); NULL if they go through the loader. */
static const jl_class *world_class(const jl_world *world, const jl_class *cls)
{
    const jl_class *own = jl_registry_find(&world->classes, cls->name, strlen(cls->name));
    if (!own || own->serialize != jl_serialize_fields || own->size_of != cls->size_of ||
        own->field_count != cls->field_count)
        return NULL;
    for (uint32_t f = 0; f < own->field_count; f++) {
        const jl_field *a = &own->fields[f], *b = &cls->fields[f];
        if (a->type != b->type || a->offset != b->offset || a->flags != b->flags ||
            (a->type == JL_FIELD_ENUM &&
             (!a->enumeration || !b->enumeration || a->enumeration->count != b->enumeration->count)))
            return NULL;
    }
    return own;
}

static jl_status apply_world(jli_snap_decoder *d, world_section *ws, jl_world *world)
{
    jl_error *err = d->r.err;
    if (world->manager.capacity - world->manager.count < d->count + ws->opaque_count)
        return jl_error_set(err, JL_ERR_CAPACITY, NULL, 0, 0, "snapshot has %u entities, the world takes %u more",
                            d->count + ws->opaque_count, world->manager.capacity - world->manager.count);
    world_backup backup = {
        .diagnostic_count = world->diagnostic_count,
        .diagnostic_total = world->diagnostic_total,
        .stats = world->stats,
    };
    jl_error why = {0};
    jl_status st = JL_OK;

    uint32_t rank[JL_CLASS_MAX] = {0};
    const jl_class *direct_class[JL_CLASS_MAX];
    for (uint32_t c = 0; c < d->class_count; c++) direct_class[c] = world_class(world, d->classes[c].cls);
    size_t extra_at = 0;
    for (uint32_t i = 0; i < d->count; i++) {
        jli_snap_class_entry *entry = &d->classes[d->class_of[i]];
        const uint8_t *derived = entry->staging + (size_t)rank[d->class_of[i]]++ * entry->cls->size_of;
        jl_entity *e = NULL;
        const jl_class *direct = direct_class[d->class_of[i]];
        /* Neither way takes the place of a removed entity's file: a failed
         * decode then leaves the pending deletions as they were. */
        if (direct && !ws->extra_size[i]) {
            /* Its values were checked as a file's would be: straight in. */
            st = jli_world_add_entity(world, direct, d->ids[i], derived, d->positions[i], &e, &why);
        } else {
            /* Unknown keys to check and keep, or a class not laid out as
             * staged: through the loader, from the text its file would hold. */
            size_t mark = d->scratch->used;
            const char *text;
            size_t size;
            const char *extra = ws->extra_size[i] ? (const char *)ws->extra_text + extra_at : NULL;
            st = entity_text(d, i, derived, extra, ws->extra_size[i], &text, &size);
            if (st == JL_OK) st = jli_world_load_entity(world, NULL, NULL, 0, text, size, true, &e, &why);
            jl_arena_pop_to(d->scratch, mark);
        }
        extra_at += ws->extra_size[i];
        if (st != JL_OK) {
            rollback(world, &backup, d->ids, i);
            if (st == JL_ERR_OUT_OF_MEMORY || st == JL_ERR_CAPACITY)
                return jl_error_set(err, st, NULL, 0, 0, "snapshot: cannot create entity %u of %u", i + 1, d->count);
            return jl_error_set(err, JL_ERR_CORRUPT, NULL, 0, 0, "snapshot: entity 0x%016llx does not load: %s",
                                (unsigned long long)d->ids[i], why.message);
        }
        e->flags = d->flags_of[i];
        e->is_dirty = true;
    }

    uint32_t opaque_made = 0;
    st = apply_opaque(d, ws, world, &opaque_made, &why);
    if (st != JL_OK) {
        rollback(world, &backup, ws->opaque_ids, opaque_made);
        rollback(world, &backup, d->ids, d->count);
        if (st == JL_ERR_OUT_OF_MEMORY || st == JL_ERR_CAPACITY)
            return jl_error_set(err, st, NULL, 0, 0,
                                "snapshot: cannot create an entity of a class this build "
                                "does not describe: %s",
                                why.message);
        return jl_error_set(err, JL_ERR_CORRUPT, NULL, 0, 0,
                            "snapshot: an entity of a class this build does "
                            "not describe does not load: %s",
                            why.message);
    }

    st = apply_settings(d, ws, world, &why);
    if (st != JL_OK) {
        rollback(world, &backup, ws->opaque_ids, ws->opaque_count);
        rollback(world, &backup, d->ids, d->count);
        return jl_error_set(err, st == JL_ERR_OUT_OF_MEMORY ? st : JL_ERR_CORRUPT, NULL, 0, 0,
                            "snapshot: world settings: %s", why.message);
    }
    return JL_OK;
}

jl_status jl_snapshot_decode_world(const uint8_t *data, size_t size, jl_world *world, jl_error *err)
{
    if (!world || !world->initialized || (!data && size))
        return jl_error_set(err, JL_ERR_INVALID_ARGUMENT, NULL, 0, 0, "snapshot: no input or world");
    jl_status checked = jli_snap_check_input(size, jl_world_count(world), err);
    if (checked != JL_OK) return checked;
    jli_snap_decoder d;
    jli_snap_decoder_init(&d, data ? data : (const uint8_t *)"", size, NULL,
                          world->manager.capacity - world->manager.count, &world->classes, err);
    carried_classes carried = {.world = world};
    d.read_classes = read_class_files;
    d.classes_user = &carried;
    world_section ws = {0};
    jl_status st = JL_OK;
    bool ok = jli_snap_decode_entities(&d);
    if (ok && (d.flags & JLI_SNAP_FLAG_OPAQUE) && !(d.flags & JLI_SNAP_FLAG_WORLD))
        ok = jli_snap_fail(&d.r, JL_ERR_CORRUPT, "opaque entities without a world section");
    if (ok && (d.flags & JLI_SNAP_FLAG_WORLD)) {
        ok = decode_world_section(&d, &ws);
    } else if (ok) {
        /* A manager-only snapshot: default settings, no unknown keys. */
        const jl_class *cls = &jl_world_settings_class;
        memset(&ws.settings, 0, sizeof ws.settings);
        if (cls->default_init) cls->default_init(&ws.settings);
        ws.extra_size = jl_arena_push(d.scratch, (d.count ? d.count : 1) * sizeof *ws.extra_size, 4);
        if (ws.extra_size) memset(ws.extra_size, 0, (d.count ? d.count : 1) * sizeof *ws.extra_size);
        else ok = jli_snap_fail(&d.r, JL_ERR_OUT_OF_MEMORY, "no memory for %u entities", d.count);
    }
    if (ok) ok = jli_snap_decode_trailer(&d);
    /* The classes join the world before their entities are created; a
     * later failure leaves them known to it (they describe no entity). */
    if (ok) st = add_class_files(&carried, world, err);
    if (ok && st == JL_OK) st = apply_world(&d, &ws, world);
    else if (!ok) st = d.r.status;
    jli_snap_decoder_release(&d);
    if (carried.count) {
        jl_arena_release(&carried.arena);
        jl_arena_release(&carried.tokens);
    }
    return st;
}
