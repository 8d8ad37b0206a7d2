/* test_registry.c - the class registry as data: registration (kinds in
 * order, refusals), constant-time lookups, typed arrays reserved at a
 * class's first entity, and worlds holding entities of a class this test
 * registers itself (load, save, reload, snapshot, stats). */
#include "disk_util.h" /* first: it sets the feature macros */

#include "class/class_registry_internal.h" /* jli_registry_add: registries of the test's own */
#include "juliet/archive.h"
#include "juliet/class_registry.h"
#include "juliet/entity_manager.h"
#include "juliet/snapshot.h"
#include "juliet/private/world_manager.h" /* white-box: the world's manager */
#include "juliet/world.h"
#include "sample_classes.h"
#include "test.h"

/* ---- classes of this test ---- */

typedef struct test_door {
    JL_ENTITY_BASE;
    float width;       /* default 1.5 */
    bool locked;       /* default false */
    uint64_t leads_to; /* an entity reference */
    jl_vec3 hinge;
} test_door;

static const jl_field door_fields[] = {
    JL_FIELD(test_door, width, JL_FIELD_F32, 0),
    JL_FIELD(test_door, locked, JL_FIELD_BOOL, 0),
    JL_FIELD(test_door, leads_to, JL_FIELD_ENTITY_REF, 0),
    JL_FIELD(test_door, hinge, JL_FIELD_VEC3, 0),
};
JL_DEFINE_ENTITY(test_door, "Door", 3, door_fields, NULL, {.width = 1.5f});

/* Registered only after a world exists (a_world_knows_the_classes_registered_before_it). */
typedef struct test_gate {
    JL_ENTITY_BASE;
    uint32_t lane;
} test_gate;
static const jl_field gate_fields[] = {JL_FIELD(test_gate, lane, JL_FIELD_INDEX, 0)};
JL_DEFINE_ENTITY(test_gate, "Gate", 1, gate_fields, NULL, {.lane = 7});

/* A record with the given name and otherwise the shape of test_gate, for
 * registries of the test's own. */
static jl_class record_named(const char *name)
{
    jl_class cls = test_gate_class;
    cls.name = name;
    cls.kind = JL_CLASS_KIND_NONE;
    cls.crc = 0;
    return cls;
}

static bool register_door(void)
{
    return jl_class_register(&test_door_class) == JL_OK && jl_class_at(test_door_class.kind) == &test_door_class;
}

/* ---- registration ---- */

TEST(kinds_are_assigned_in_registration_order_with_the_crc_of_the_name)
{
    jl_class_registry reg = {0};
    jl_class a = record_named("Alpha"), b = record_named("Beta"), c = record_named("Gamma");
    CHECK(jli_registry_add(&reg, &a) == JL_OK);
    CHECK(jli_registry_add(&reg, &b) == JL_OK);
    CHECK(jli_registry_add(&reg, &c) == JL_OK);
    CHECK(a.kind == 0 && b.kind == 1 && c.kind == 2);
    CHECK(jl_registry_count(&reg) == 3);
    CHECK(jl_registry_at(&reg, 0) == &a && jl_registry_at(&reg, 2) == &c && jl_registry_at(&reg, 3) == NULL);
    CHECK(b.crc == jl_crc32("Beta", 4));
}

TEST(a_name_already_registered_is_refused_and_the_same_record_again_changes_nothing)
{
    jl_class_registry reg = {0};
    jl_class first = record_named("Door"), other = record_named("Door");
    CHECK(jli_registry_add(&reg, &first) == JL_OK);
    CHECK(jli_registry_add(&reg, &other) == JL_ERR_EXISTS);
    CHECK(other.kind == JL_CLASS_KIND_NONE && other.crc == 0); /* the record is unchanged */
    CHECK(jli_registry_add(&reg, &first) == JL_OK);
    CHECK(jl_registry_count(&reg) == 1 && first.kind == 0);
    CHECK(jl_registry_find(&reg, "Door", 4) == &first);
}

TEST(a_name_with_the_crc_of_a_registered_one_is_refused)
{
    /* CRC32("Class29685295") == CRC32("Class32060020") == 0x662dc19f: a
     * registry never holds two names with one CRC, so a kind and a CRC
     * name one class. */
    CHECK(jl_crc32("Class29685295", 13) == jl_crc32("Class32060020", 13));
    jl_class_registry reg = {0};
    jl_class a = record_named("Class29685295"), b = record_named("Class32060020");
    CHECK(jli_registry_add(&reg, &a) == JL_OK);
    CHECK(jli_registry_add(&reg, &b) == JL_ERR_EXISTS);
    CHECK(jl_registry_find(&reg, "Class32060020", 13) == NULL);
    CHECK(jl_registry_find(&reg, "Class29685295", 13) == &a);
}

TEST(a_full_registry_refuses_the_next_class_and_finds_all_it_holds)
{
    static char names[JL_CLASS_MAX + 1][16];
    static jl_class records[JL_CLASS_MAX + 1];
    jl_class_registry reg = {0};
    for (uint32_t i = 0; i <= JL_CLASS_MAX; i++) {
        snprintf(names[i], sizeof names[i], "Class%u", i);
        records[i] = record_named(names[i]);
    }
    for (uint32_t i = 0; i < JL_CLASS_MAX; i++) CHECK(jli_registry_add(&reg, &records[i]) == JL_OK);
    CHECK(jl_registry_count(&reg) == JL_CLASS_MAX && records[JL_CLASS_MAX - 1].kind == JL_CLASS_MAX - 1);
    CHECK(jli_registry_add(&reg, &records[JL_CLASS_MAX]) == JL_ERR_CAPACITY);
    CHECK(records[JL_CLASS_MAX].kind == JL_CLASS_KIND_NONE && jl_registry_count(&reg) == JL_CLASS_MAX);
    /* Every name and CRC is found among the colliding buckets of a full table. */
    for (uint32_t i = 0; i < JL_CLASS_MAX; i++) {
        CHECK(jl_registry_find(&reg, names[i], strlen(names[i])) == &records[i]);
        CHECK(jl_registry_find_crc(&reg, records[i].crc) == &records[i]);
        CHECK(jl_registry_resolve(&reg, (uint8_t)i, records[i].crc) == &records[i]);
    }
    CHECK(jl_registry_find(&reg, names[JL_CLASS_MAX], strlen(names[JL_CLASS_MAX])) == NULL);
}

TEST(invalid_records_are_refused_and_left_unchanged)
{
    static const jl_field past_end[] = {{"lane", JL_FIELD_INDEX, sizeof(test_gate) - 2, 0, NULL}};
    static const jl_field over_header[] = {{"lane", JL_FIELD_INDEX, 0, 0, NULL}};
    static const jl_field unknown_type[] = {{"lane", JL_FIELD_TYPE_COUNT, sizeof(void *), 0, NULL}};
    static const jl_field unnamed[] = {{"", JL_FIELD_INDEX, sizeof(void *), 0, NULL}};
    static const jl_field base_key[] = {{"position", JL_FIELD_INDEX, sizeof(void *), 0, NULL}};
    static const jl_field twice[] = {{"lane", JL_FIELD_INDEX, sizeof(void *), 0, NULL},
                                     {"lane", JL_FIELD_INDEX, sizeof(void *), 0, NULL}};
    jl_class bad[16];
    int n = 0;
    bad[n] = record_named("Small"), bad[n++].size_of = sizeof(jl_entity_header) - 1;
    bad[n] = record_named("Odd"), bad[n++].alignment = 3;
    bad[n] = record_named("Zero"), bad[n++].alignment = 0;
    bad[n] = record_named("Huge"), bad[n++].alignment = 8192;
    bad[n] = record_named("PastEnd"), bad[n].fields = past_end, bad[n++].field_count = 1;
    bad[n] = record_named("OverHeader"), bad[n].fields = over_header, bad[n++].field_count = 1;
    bad[n] = record_named("Unknown"), bad[n].fields = unknown_type, bad[n++].field_count = 1;
    bad[n] = record_named("Unnamed"), bad[n].fields = unnamed, bad[n++].field_count = 1;
    bad[n] = record_named("BaseKey"), bad[n].fields = base_key, bad[n++].field_count = 1;
    bad[n] = record_named("Twice"), bad[n].fields = twice, bad[n++].field_count = 2;
    bad[n] = record_named("NoFields"), bad[n].fields = NULL, bad[n++].field_count = 1;
    bad[n] = record_named("NoSerialize"), bad[n++].serialize = NULL;
    bad[n] = record_named("Unversioned"), bad[n++].version = 0;
    bad[n++] = record_named("");
    bad[n++] = record_named("9Lives");
    bad[n++] = record_named("Two Words");
    jl_class_registry reg = {0};
    for (int i = 0; i < n; i++) {
        CHECK(jli_registry_add(&reg, &bad[i]) == JL_ERR_INVALID_ARGUMENT);
        CHECK(bad[i].kind == JL_CLASS_KIND_NONE && bad[i].crc == 0);
    }
    jl_class unnamed_record = record_named(NULL);
    CHECK(jli_registry_add(&reg, &unnamed_record) == JL_ERR_INVALID_ARGUMENT);
    char long_name[JL_CLASS_NAME_MAX + 2];
    memset(long_name, 'A', sizeof long_name - 1);
    long_name[sizeof long_name - 1] = '\0';
    jl_class too_long = record_named(long_name);
    CHECK(jli_registry_add(&reg, &too_long) == JL_ERR_INVALID_ARGUMENT);
    CHECK(jli_registry_add(&reg, NULL) == JL_ERR_INVALID_ARGUMENT);
    CHECK(jl_class_register(NULL) == JL_ERR_INVALID_ARGUMENT);
    CHECK(jl_registry_count(&reg) == 0);
    long_name[JL_CLASS_NAME_MAX] = '\0'; /* the longest name is fine */
    CHECK(jli_registry_add(&reg, &too_long) == JL_OK);
}

TEST(a_class_registered_at_run_time_resolves_by_kind_and_crc_and_by_name)
{
    CHECK(register_door());
    const jl_class *door = &test_door_class;
    CHECK(door->kind < jl_class_count() && door->crc == jl_crc32("Door", 4));
    CHECK(jl_class_resolve(door->kind, door->crc) == door);
    CHECK(jl_class_resolve(door->kind, door->crc ^ 1u) == NULL);
    CHECK(jl_class_resolve(sample_inert_class.kind, door->crc) == NULL);
    CHECK(jl_class_find_by_name("Door", 4) == door);
    CHECK(jl_class_find_by_name("Doors", 4) == door); /* sized, not NUL-terminated */
    CHECK(jl_class_find_by_name("door", 4) == NULL);
    CHECK(jl_registry_find_crc(jl_program_classes(), door->crc) == door);
    /* The sample classes stay where they were. */
    CHECK(jl_class_find_by_name("Light", 5) == &sample_light_class);
    /* Registering another record under a compiled class's name is refused. */
    jl_class impostor = test_door_class;
    impostor.kind = JL_CLASS_KIND_NONE;
    CHECK(jl_class_register(&impostor) == JL_ERR_EXISTS);
}

/* ---- managers ---- */

TEST(typed_arrays_are_reserved_at_the_first_entity_of_their_class)
{
    CHECK(register_door());
    jl_entity_manager m;
    CHECK(jl_manager_init(&m, &(jl_manager_desc){.capacity = 64}) == JL_OK);
    for (uint32_t k = 0; k < JL_CLASS_MAX; k++) CHECK(m.by_type[k].arena.base == NULL && m.by_type[k].cls == NULL);
    test_door *d = JL_MAKE_ENTITY(&m, test_door, 1, 2, 3);
    CHECK(d && d->width == 1.5f && !d->locked && JL_DOWNCAST(test_door, d->base) == d);
    for (uint32_t k = 0; k < JL_CLASS_MAX; k++) CHECK((m.by_type[k].arena.base != NULL) == (k == test_door_class.kind));
    CHECK(jl_typed_first(&m, &test_door_class) == d && jl_typed_first(&m, &sample_inert_class) == NULL);
    jl_error err;
    CHECK(jl_manager_check(&m, &err) == JL_OK);
    jl_manager_shutdown(&m);
}

TEST(a_manager_allocates_only_the_classes_of_its_registry)
{
    jl_class_registry reg = {0};
    jl_class local = record_named("Local");
    CHECK(jli_registry_add(&reg, &local) == JL_OK);
    jl_entity_manager m;
    CHECK(jl_manager_init(&m, &(jl_manager_desc){.capacity = 16, .classes = &reg}) == JL_OK);
    jl_entity *e;
    CHECK(jl_entity_allocate(&m, &local, &e) == JL_OK);
    CHECK(((test_gate *)e->derived)->lane == 7); /* the default-init of the record's shape */
    /* Inert has kind 0 in the program's registry, as Local has in this one. */
    CHECK(sample_inert_class.kind == local.kind);
    CHECK(jl_entity_allocate(&m, &sample_inert_class, &e) == JL_ERR_INVALID_ARGUMENT && e == NULL);
    CHECK(m.count == 1);
    jl_error err;
    CHECK(jl_manager_check(&m, &err) == JL_OK);
    jl_manager_shutdown(&m);
}

/* ---- worlds ---- */

static jl_world *new_world(void)
{
    jl_world *w = NULL;
    jl_world_new(&(jl_world_desc){.capacity = 256}, &w);
    return w;
}

TEST(a_world_knows_the_classes_registered_before_it)
{
    jl_world *before = new_world();
    CHECK(before);
    uint32_t known = jl_world_class_count(before);
    CHECK(known == jl_class_count());
    for (uint32_t k = 0; k < known; k++) CHECK(jl_world_class_at(before, k) == jl_class_at(k));
    CHECK(jl_class_register(&test_gate_class) == JL_OK);
    jl_world *after = new_world();
    CHECK(after);
    /* The earlier world's registry is the copy it took: no Gate in it. */
    CHECK(jl_world_class_count(before) == known && jl_world_class_find(before, "Gate", 4) == NULL);
    CHECK(jl_world_create(before, "Gate", 0, 0, 0, NULL) == JL_ERR_UNKNOWN_CLASS);
    jl_entity *e;
    CHECK(jl_entity_allocate(jl_world_manager(before), &test_gate_class, &e) == JL_ERR_INVALID_ARGUMENT);
    static const char text[] =
        "; asset_type\nentity_instance\n; id\n0x0000000000000001\n; class\nGate\n"
        "; version\n1\n; class_version\n1\n; position\n0 0 0\n";
    jl_error err = {0};
    /* To the earlier world a Gate file is an entity of a class it does not
     * describe: kept as text under an opaque class of its own. */
    CHECK(jl_world_load_entity_text(before, "gate.jasset", text, sizeof text - 1, false, &e, &err) == JL_OK);
    CHECK(e->derived_kind != &test_gate_class && jl_class_is_opaque(e->derived_kind));
    CHECK(jl_world_class_find(before, "Gate", 4) == e->derived_kind);
    /* A world made afterwards knows it. */
    CHECK(jl_world_class_find(after, "Gate", 4) == &test_gate_class);
    CHECK(jl_world_class_at(after, test_gate_class.kind) == &test_gate_class);
    CHECK(jl_registry_count(jl_world_classes(after)) == jl_class_count());
    CHECK(jl_world_load_entity_text(after, "gate.jasset", text, sizeof text - 1, false, &e, &err) == JL_OK);
    CHECK(JL_DOWNCAST(test_gate, e)->lane == 7);
    jl_world_free(before);
    jl_world_free(after);
}

/* Makes a world of three doors leading to an Inert and saves it into the
 * new directory dir (four entity files; the settings keep their defaults). */
static bool save_doors(const char *dir, uint64_t *first_id)
{
    jl_world *w = new_world();
    CHECK_OR_FALSE(w);
    jl_entity *inert, *e;
    CHECK_OR_FALSE(jl_world_create(w, "Inert", 5, 0, 5, &inert) == JL_OK);
    for (int i = 0; i < 3; i++) {
        CHECK_OR_FALSE(jl_world_create(w, "Door", (float)i, 0, 0, &e) == JL_OK);
        test_door *d = JL_DOWNCAST(test_door, e);
        CHECK_OR_FALSE(d);
        d->width = 0.75f + (float)i;
        d->locked = i == 1;
        d->leads_to = inert->id;
        d->hinge = (jl_vec3){0, (float)i, 1};
        if (i == 0) *first_id = e->id;
    }
    CHECK_OR_FALSE(jl_world_set_field(w, *first_id, "width", "2.5", 3, NULL) == JL_OK);
    jl_save_report report;
    CHECK_OR_FALSE(jl_world_save_new(w, dir, &report) == JL_OK && report.written_count == 4);
    jl_world_free(w);
    return true;
}

TEST(a_world_of_a_class_registered_by_the_test_loads_saves_and_reloads)
{
    CHECK(register_door());
    char tmp[512], dir[600];
    CHECK(du_make_temp_dir(tmp, sizeof tmp, "registry"));
    CHECK(du_join(dir, sizeof dir, tmp, "world"));
    uint64_t first = 0;
    bool saved = save_doors(dir, &first);
    jl_world *w = saved ? new_world() : NULL;
    bool ok = w && jl_world_load(w, dir) == JL_OK && jl_world_count(w) == 4 && jl_world_check_references(w) == 0;
    test_door *d = ok ? JL_DOWNCAST(test_door, jl_world_find(w, first)) : NULL;
    ok = ok && d && d->width == 2.5f && !d->locked && d->hinge.z == 1.0f && jl_world_find(w, d->leads_to);
    char text[JL_VALUE_TEXT_MAX];
    ok = ok && jl_world_get_field(w, first, "class", text, NULL) == JL_OK && strcmp(text, "Door") == 0;
    /* Stats count per class of the world's registry. */
    const jl_world_stats *st = ok ? jl_world_get_stats(w) : NULL;
    ok = ok && st->entities[test_door_class.kind] == 3 && st->entities[sample_inert_class.kind] == 1 &&
         st->bytes[test_door_class.kind] > 0;
    /* Unchanged, it saves nothing; everything rewritten, the same bytes. */
    jl_save_report report;
    ok = ok && jl_world_save(w, dir, &report) == JL_OK && report.written_count == 0;
    char copy[600];
    ok = ok && du_join(copy, sizeof copy, tmp, "copy");
    if (ok) jl_world_mark_all_dirty(w);
    ok = ok && jl_world_save_new(w, copy, &report) == JL_OK && report.written_count == 5;
    jl_world_free(w);
    char door_file[700], copied[700];
    ok = ok && jl_world_entity_path(door_file, sizeof door_file, dir, first) &&
         jl_world_entity_path(copied, sizeof copied, copy, first);
    size_t a_size = 0, b_size = 0;
    char *a = ok ? du_read(door_file, &a_size) : NULL, *b = ok ? du_read(copied, &b_size) : NULL;
    ok = ok && a && b && a_size == b_size && memcmp(a, b, a_size) == 0 && strstr(a, "; class\nDoor\n") &&
         strstr(a, "; class_version\n3\n; position\n0 0 0\n; width\n2.5\n; locked\nfalse\n");
    free(a);
    free(b);
    du_remove_tree(tmp);
    CHECK(saved);
    CHECK(ok);
}

TEST(a_snapshot_of_a_world_with_a_class_registered_by_the_test_round_trips)
{
    CHECK(register_door());
    jl_world *source = new_world(), *target = new_world();
    CHECK(source && target);
    jl_entity *e;
    CHECK(jl_world_create(source, "Door", 1, 2, 3, &e) == JL_OK);
    JL_DOWNCAST(test_door, e)->width = 4.25f;
    uint64_t id = e->id;
    CHECK(jl_world_create(source, "Light", 0, 0, 0, NULL) == JL_OK);
    jl_snapshot_bytes bytes;
    jl_error err = {0};
    CHECK(jl_snapshot_encode_world_scratch(source, &bytes, &err) == JL_OK);
    CHECK(jl_snapshot_decode_world(bytes.data, bytes.size, target, &err) == JL_OK);
    CHECK(jl_world_count(target) == 2);
    test_door *d = JL_DOWNCAST(test_door, jl_world_find(target, id));
    CHECK(d && d->width == 4.25f && d->base->position.z == 3.0f);
    jl_world_free(source);
    jl_world_free(target);
}
