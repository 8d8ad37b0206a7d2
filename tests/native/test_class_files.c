/* test_class_files.c - classes described in a world (class_file.h): the
 * sample world assets/class_world, whose classes exist only as class files
 * and use every field type; the C layout of a class from a file; broken
 * class files (path:line:col, only their entities fail); a file that
 * disagrees with a compiled class; the schema round trip; snapshots that
 * carry classes. */
#include "persist_util.h"

#include <stdalign.h>
#include <stdarg.h>
#include <sys/stat.h>

#include "class_file/class_file_internal.h"
#include "juliet/archive.h"
#include "juliet/class_file.h"
#include "juliet/snapshot.h"
#include "juliet/private/world_manager.h" /* white-box: the world's manager */
#include "juliet/world.h"
#include "sample_classes.h"
#include "test.h"

static const char class_world[] = JULIET_ASSETS_DIR "/class_world";
static char dir[256], dir2[256];

/* IDs of assets/class_world: two Ghoul with values, one with defaults
 * only, one Beacon. */
static const uint64_t boss = 0x4a11000000000001ull, grunt = 0x4a11000000000002ull, beacon = 0x4a11000000000003ull,
                      sloppy = 0x4a11000000000004ull;

static bool registered(void)
{
    CHECK_OR_FALSE(sample_register_classes() == JL_OK);
    return true;
}

static jl_world *new_world(void)
{
    if (!registered()) return NULL;
    jl_world *w = NULL;
    jl_world_desc desc = {.capacity = 1024};
    return jl_world_new(&desc, &w) == JL_OK ? w : NULL;
}

static bool field_is(jl_world *w, uint64_t id, const char *field, const char *expected)
{
    char text[JL_VALUE_TEXT_MAX];
    CHECK_OR_FALSE(jl_world_get_field(w, id, field, text, NULL) == JL_OK);
    if (strcmp(text, expected) != 0) fprintf(stderr, "%s: '%s', expected '%s'\n", field, text, expected);
    CHECK_OR_FALSE(strcmp(text, expected) == 0);
    return true;
}

static void print_diagnostics(const jl_world *w)
{
    char line[JL_ERROR_TEXT_MAX];
    for (uint32_t i = 0; i < jl_world_diagnostic_count(w); i++)
        fprintf(stderr, "  %s\n", jl_error_format(jl_world_diagnostic(w, i), line, sizeof line));
}

/* A new world with world_dir loaded (status JL_OK), or NULL after printing
 * why. */
static jl_world *loaded_world(const char *world_dir)
{
    jl_world *w = new_world();
    if (w && jl_world_load(w, world_dir) != JL_OK) {
        print_diagnostics(w);
        jl_world_free(w);
        return NULL;
    }
    return w;
}

/* The one diagnostic of w says `message` (a part of it) at path's
 * line:col. */
static bool one_diagnostic(const jl_world *w, const char *path_end, uint32_t line, uint32_t col, const char *message)
{
    if (jl_world_diagnostic_count(w) != 1) print_diagnostics(w);
    CHECK_OR_FALSE(jl_world_diagnostic_count(w) == 1);
    const jl_error *e = jl_world_diagnostic(w, 0);
    if (e->line != line || e->col != col || !strstr(e->message, message) || !strstr(e->path, path_end))
        print_diagnostics(w);
    CHECK_OR_FALSE(strstr(e->path, path_end) != NULL);
    CHECK_OR_FALSE(e->line == line && e->col == col);
    CHECK_OR_FALSE(strstr(e->message, message) != NULL);
    return true;
}

static bool copy_world(void)
{
    CHECK_OR_FALSE(du_make_temp_dir(dir, sizeof dir, "classes"));
    CHECK_OR_FALSE(du_copy_tree(class_world, dir));
    return true;
}

static bool write_in(const char *base, const char *name, const char *text)
{
    char path[512];
    CHECK_OR_FALSE(du_join(path, sizeof path, base, name));
    CHECK_OR_FALSE(du_write(path, text, strlen(text)));
    return true;
}

TEST(a_world_whose_classes_are_only_files_loads_every_field_type)
{
    jl_world *w = loaded_world(class_world);
    CHECK(w);
    if (jl_world_diagnostic_count(w)) print_diagnostics(w);
    CHECK(jl_world_diagnostic_count(w) == 0);
    CHECK(jl_world_count(w) == 4);
    const jl_class *enemy = jl_world_class_find(w, "Ghoul", 5);
    CHECK(enemy && enemy->field_count == 13 && enemy->version == 2);
    CHECK(jl_world_find(w, boss)->derived_kind == enemy);
    bool types[JL_FIELD_TYPE_COUNT] = {0};
    for (uint32_t i = 0; i < enemy->field_count; i++) types[enemy->fields[i].type] = true;
    for (int t = 0; t < JL_FIELD_TYPE_COUNT; t++) CHECK(types[t]);
    CHECK(field_is(w, boss, "health", "75.5") && field_is(w, boss, "shield", "inf"));
    CHECK(field_is(w, boss, "mesh_instance", "7") && field_is(w, boss, "is_boss", "true"));
    CHECK(field_is(w, boss, "velocity", "0.5 -1 2.25") && field_is(w, boss, "tint", "#102030"));
    CHECK(field_is(w, boss, "target", "0x4a11000000000002") && field_is(w, boss, "ammo", "-12"));
    CHECK(field_is(w, boss, "score", "4000000000") && field_is(w, boss, "display_name", "The \"Boss\""));
    CHECK(field_is(w, boss, "team", "green") && field_is(w, boss, "waypoint", "-3.5 8"));
    CHECK(field_is(w, boss, "facing", "0 0.7071068 0 0.7071068"));
    /* A file with no field keys has the class file's defaults. */
    CHECK(field_is(w, grunt, "health", "100") && field_is(w, grunt, "shield", "inf"));
    CHECK(field_is(w, grunt, "mesh_instance", "none") && field_is(w, grunt, "tint", "#ff8000"));
    CHECK(field_is(w, grunt, "ammo", "-1") && field_is(w, grunt, "score", "250"));
    CHECK(field_is(w, grunt, "display_name", "Grunt the Second") && field_is(w, grunt, "team", "red"));
    CHECK(field_is(w, grunt, "facing", "0 0 0 1"));
    CHECK(field_is(w, beacon, "label", "\" north tower \"") && field_is(w, beacon, "range", "40"));
    CHECK(field_is(w, sloppy, "team", "blue") && field_is(w, sloppy, "health", "50"));
    jl_world_free(w);
}

TEST(a_class_from_a_file_is_laid_out_as_the_compiler_lays_out_its_struct)
{
    CHECK(registered());
    static const char text[] =
        "; name\nPropLike\n; field mesh_instance\nindex none\n; field density\nf32 1\n"
        "; field is_static\nbool false\n; field velocity\nvec3 0 0 0\n"
        "; field parent\nentity_ref none\n";
    jl_arena keep, scratch;
    CHECK(jl_arena_init(&keep, 1 << 20) == JL_OK && jl_arena_init(&scratch, 1 << 20) == JL_OK);
    jli_class_file *cf = NULL;
    jl_error err;
    CHECK(jli_class_file_parse(&keep, &scratch, "PropLike.jclass", text, sizeof text - 1, "PropLike", &cf, &err) ==
          JL_OK);
    const jl_class *prop = &sample_prop_class;
    CHECK(cf->cls.size_of == prop->size_of && cf->cls.alignment == prop->alignment);
    for (uint32_t i = 0; i < prop->field_count; i++) CHECK(cf->cls.fields[i].offset == prop->fields[i].offset);

    /* Every type after a bool: each lands on its own alignment, as in C. */
    struct every {
        JL_ENTITY_BASE;
        bool a;
        float f;
        bool b;
        uint64_t ref;
        bool c;
        jl_string s;
        bool d;
        jl_enum_value e;
        bool g;
        jl_quat q;
        jl_color color;
    };
    static const char every_text[] =
        "; name\nEvery\n; field a\nbool true\n; field f\nf32 1\n; field b\nbool true\n"
        "; field ref\nentity_ref none\n; field c\nbool true\n; field s\nstring x\n"
        "; field d\nbool true\n; field e\nenum x x y\n; field g\nbool true\n"
        "; field q\nquat 0 0 0 1\n; field color\ncolor #000000\n";
    CHECK(jli_class_file_parse(&keep, &scratch, NULL, every_text, sizeof every_text - 1, NULL, &cf, &err) == JL_OK);
    const size_t offsets[] = {offsetof(struct every, a),   offsetof(struct every, f),    offsetof(struct every, b),
                              offsetof(struct every, ref), offsetof(struct every, c),    offsetof(struct every, s),
                              offsetof(struct every, d),   offsetof(struct every, e),    offsetof(struct every, g),
                              offsetof(struct every, q),   offsetof(struct every, color)};
    CHECK(cf->cls.field_count == 11);
    for (uint32_t i = 0; i < 11; i++) CHECK(cf->cls.fields[i].offset == offsets[i]);
    CHECK(cf->cls.size_of == sizeof(struct every) && cf->cls.alignment == alignof(struct every));
    jl_arena_release(&keep);
    jl_arena_release(&scratch);
}

TEST(a_class_from_a_file_allocates_with_its_defaults_in_its_own_typed_arena)
{
    jl_world *w = loaded_world(class_world);
    CHECK(w);
    jl_entity *e = NULL;
    CHECK(jl_world_create(w, "Ghoul", 1, 2, 3, &e) == JL_OK);
    CHECK(field_is(w, e->id, "display_name", "Grunt the Second") && field_is(w, e->id, "ammo", "-1"));
    CHECK(field_is(w, e->id, "team", "red") && field_is(w, e->id, "shield", "inf"));
    /* Back-pointers both ways, the derived struct inside its class's arena. */
    CHECK(((jl_entity_header *)e->derived)->base == e);
    const jl_class *enemy = jl_world_class_find(w, "Ghoul", 5);
    const jl_typed_array *t = &jl_world_manager(w)->by_type[enemy->kind];
    CHECK(t->cls == enemy && t->count == 4);
    CHECK((uintptr_t)e->derived % enemy->alignment == 0);
    CHECK(jl_world_set_field(w, e->id, "display_name", "Sergeant", 8, NULL) == JL_OK);
    CHECK(field_is(w, e->id, "display_name", "Sergeant"));
    jl_world_free(w);
}

TEST(a_broken_class_file_is_reported_at_its_line_and_column_and_its_entities_are_kept_as_text)
{
    static const struct {
        const char *text;
        uint32_t line, col;
        const char *message;
    } cases[] = {
        {"; name\nBeacon\n; field label\nstring \"\"\n; field range\nf33 12.5\n", 6, 1, "unknown field type"},
        {"; name\nBeacon\n; field range\nf32 12,5\n", 4, 7, "default of range"},
        {"; name\nBeacon\n; field team\nenum red red blue re-d\n", 4, 19, "re-d"},
        {"; name\nBeacon\n; field team\nenum pink red blue\n", 4, 6, "default of team"},
        {"; name\nBeacon\n; field team\nenum red\n", 4, 9, "needs its default, then its names"},
        {"; name\nLighthouse\n; field range\nf32 1\n", 2, 1, "expected Beacon"},
        {"; field range\nf32 1\n", 1, 1, "missing key 'name'"},
        {"; name\nBeacon\n; field id\nf32 1\n", 3, 9, "every entity file has"},
        {"; name\nBeacon\n; version\n2\n", 4, 1, "newer format"},
        {"; name\nBeacon\n; class_version\n0\n", 4, 1, "from 1"},
        {"; asset_type\nentity_instance\n; name\nBeacon\n", 2, 1, "not a class file"},
        {"; name\nBeacon\n; field range\nf32 1\n; field range\nf32 2\n", 5, 3, "duplicate key"},
        {"; name\nBeacon\n; field range\nf32 1\n; field\n", 5, 3, "truncated"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        CHECK(copy_world());
        CHECK(write_in(dir, "Classes/Beacon.jclass", cases[c].text));
        jl_world *w = new_world();
        CHECK(w);
        CHECK(jl_world_load(w, dir) != JL_OK);
        /* The class file is the one problem; its class's entity is kept as
         * text (an opaque entity, with a warning); the Ghouls load. */
        CHECK(one_diagnostic(w, "Classes/Beacon.jclass", cases[c].line, cases[c].col, cases[c].message));
        CHECK(jl_world_diagnostic(w, 0)->status == JL_ERR_PARSE);
        CHECK(jl_world_warning_count(w) == 1);
        CHECK(jl_world_count(w) == 4 && jl_world_find(w, beacon) && jl_world_find(w, boss));
        CHECK(jl_class_is_opaque(jl_world_find(w, beacon)->derived_kind));
        jl_world_free(w);
        du_remove_tree(dir);
    }
}

TEST(a_class_file_that_disagrees_with_the_compiled_class_names_both_and_the_compiled_one_is_used)
{
    CHECK(registered());
    CHECK(du_make_temp_dir(dir, sizeof dir, "classes"));
    CHECK(du_copy_tree(JULIET_ASSETS_DIR "/sample_world", dir));
    static const struct {
        const char *text;
        uint32_t line, col;
        const char *message;
    } cases[] = {
        {"; name\nProp\n; field mesh_instance\nindex none\n; field density\nf32 2\n; field is_static\nbool false\n"
         "; field velocity\nvec3 0 0 0\n; field parent\nentity_ref none\n",
         5, 3, "field density defaults to 2 here, 1 there"},
        {"; name\nProp\n; field mesh_instance\nindex none\n; field density\nf32 1\n; field is_static\nbool false\n"
         "; field velocity\nvec3 0 0 0\n; field parent\ni32 0\n",
         11, 3, "field parent is i32 here, entity_ref there"},
        {"; name\nProp\n; field mesh_instance\nindex none\n; field density\nf32 1\n", 1, 3, "missing field is_static"},
        {"; name\nProp\n; class_version\n3\n; field mesh_instance\nindex none\n", 3, 3,
         "class_version 3 here, 1 there"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char classes[512];
        CHECK(du_join(classes, sizeof classes, dir, "Classes"));
        mkdir(classes, 0755);
        CHECK(write_in(dir, "Classes/Prop.jclass", cases[c].text));
        jl_world *w = new_world();
        CHECK(w);
        jl_world_load(w, dir);
        CHECK(one_diagnostic(w, "Classes/Prop.jclass", cases[c].line, cases[c].col, cases[c].message));
        CHECK(strstr(jl_world_diagnostic(w, 0)->message, "the compiled class is used"));
        const jl_class *prop = jl_world_class_find(w, "Prop", 4);
        CHECK(prop == &sample_prop_class);
        CHECK(jl_world_count(w) > 0);
        jl_world_free(w);
    }
    du_remove_tree(dir);
}

TEST(schema_text_loads_back_as_the_same_class_and_agrees_silently)
{
    CHECK(registered());
    jl_arena arena, keep;
    CHECK(jl_arena_init(&arena, 1 << 20) == JL_OK && jl_arena_init(&keep, 1 << 20) == JL_OK);
    CHECK(du_make_temp_dir(dir, sizeof dir, "classes"));
    CHECK(du_copy_tree(JULIET_ASSETS_DIR "/sample_world", dir));
    for (uint32_t k = 0; k < jl_class_count(); k++) {
        const jl_class *cls = jl_class_at(k);
        const char *text;
        size_t size;
        jl_error err;
        CHECK(jl_class_file_text(cls, &arena, &text, &size, &err) == JL_OK);
        jli_class_file *cf = NULL;
        CHECK(jli_class_file_parse(&keep, &arena, NULL, text, size, cls->name, &cf, &err) == JL_OK);
        CHECK(jli_class_file_agrees(cf, cls, "the compiled class", &err));
        CHECK(cf->cls.size_of == cls->size_of && cf->cls.field_count == cls->field_count);
        bool written = false;
        CHECK(jl_class_file_save(jl_fs_native(), dir, cls->name, text, size, &arena, &written, &err) == JL_OK);
        CHECK(written);
        /* The same text again: the file is left alone. */
        CHECK(jl_class_file_save(jl_fs_native(), dir, cls->name, text, size, &arena, &written, &err) == JL_OK);
        CHECK(!written);
        jl_arena_pop_to(&arena, 0);
    }
    /* Every field type through the writer and back: the class_world's Ghoul. */
    jl_world *w = loaded_world(class_world);
    CHECK(w);
    const jl_class *enemy = jl_world_class_find(w, "Ghoul", 5);
    const char *text;
    size_t size;
    jl_error err;
    CHECK(jl_class_file_text(enemy, &arena, &text, &size, &err) == JL_OK);
    jli_class_file *cf = NULL;
    CHECK(jli_class_file_parse(&keep, &arena, NULL, text, size, "Ghoul", &cf, &err) == JL_OK);
    CHECK(jli_class_file_agrees(cf, enemy, "Ghoul", &err));
    jl_world_free(w);

    w = loaded_world(dir);
    CHECK(w);
    if (jl_world_diagnostic_count(w)) print_diagnostics(w);
    CHECK(jl_world_diagnostic_count(w) == 0);
    CHECK(jl_world_class_find(w, "Light", 5) == &sample_light_class);
    jl_world_free(w);
    du_remove_tree(dir);
    jl_arena_release(&arena);
    jl_arena_release(&keep);
}

TEST(a_snapshot_carries_the_classes_from_files_and_a_new_directory_gets_them_back)
{
    jl_world *w = loaded_world(class_world);
    CHECK(w);
    jl_arena arena;
    CHECK(jl_arena_init(&arena, 64 << 20) == JL_OK);
    jl_snapshot_bytes bytes;
    jl_error err;
    CHECK(jl_snapshot_encode_world(w, &arena, &bytes, &err) == JL_OK);

    jl_world *back = new_world();
    CHECK(back);
    /* From a copy wiped once decoded: the world keeps strings of its own. */
    uint8_t *input = malloc(bytes.size);
    CHECK(input);
    memcpy(input, bytes.data, bytes.size);
    jl_status decoded = jl_snapshot_decode_world(input, bytes.size, back, &err);
    memset(input, 'x', bytes.size);
    free(input);
    if (decoded != JL_OK) fprintf(stderr, "%s\n", err.message);
    CHECK(decoded == JL_OK);
    CHECK(jl_world_count(back) == 4);
    const char *fields[] = {"health", "shield", "mesh_instance", "is_boss", "velocity", "tint",  "target",
                            "ammo",   "score",  "display_name",  "team",    "waypoint", "facing"};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        char a[JL_VALUE_TEXT_MAX], b[JL_VALUE_TEXT_MAX];
        CHECK(jl_world_get_field(w, boss, fields[f], a, NULL) == JL_OK);
        CHECK(jl_world_get_field(back, boss, fields[f], b, NULL) == JL_OK);
        CHECK(strcmp(a, b) == 0);
    }
    CHECK(field_is(back, beacon, "label", "\" north tower \""));

    /* Saved into a new directory, the classes come with it, byte for byte. */
    CHECK(du_make_temp_dir(dir, sizeof dir, "classes"));
    CHECK(du_join(dir2, sizeof dir2, dir, "world"));
    jl_save_report report;
    CHECK(jl_world_save_new(back, dir2, &report) == JL_OK);
    char ours[512], theirs[512];
    const char *names[] = {"Classes/Ghoul.jclass", "Classes/Beacon.jclass"};
    for (int i = 0; i < 2; i++) {
        size_t a_size = 0, b_size = 0;
        CHECK(du_join(ours, sizeof ours, class_world, names[i]) && du_join(theirs, sizeof theirs, dir2, names[i]));
        char *a = du_read(ours, &a_size), *b = du_read(theirs, &b_size);
        CHECK(a && b && a_size == b_size && memcmp(a, b, a_size) == 0);
        free(a);
        free(b);
    }
    jl_world *again = new_world();
    CHECK(again);
    CHECK(jl_world_load(again, dir2) == JL_OK && jl_world_count(again) == 4);
    jl_world_free(again);
    jl_world_free(back);
    jl_world_free(w);
    du_remove_tree(dir);
    jl_arena_release(&arena);
}

/* ---- the `juliet` tool on a world whose classes are files ---- */

#include "cli_run.h"

static char dir3[256];

/* Every field of every entity of the world in dir as text, one line each,
 * into out: what "the values are bit-exact" compares (float text is the
 * shortest that reads back to the same bits). */
static bool field_dump(const char *world_dir, char *out, size_t size)
{
    jl_world *w = loaded_world(world_dir);
    CHECK_OR_FALSE(w);
    size_t used = 0;
    out[0] = '\0';
    for (jl_world_iter it = jl_world_iter_all(w); jl_world_next(&it);) {
        const jl_entity *e = it.entity;
        const jl_class *cls = e->derived_kind;
        for (uint32_t f = 0; f < cls->field_count; f++) {
            char text[JL_VALUE_TEXT_MAX];
            CHECK_OR_FALSE(jl_world_get_field(w, e->id, cls->fields[f].name, text, NULL) == JL_OK);
            int n =
                snprintf(out + used, size - used, "%llx %s %s\n", (unsigned long long)e->id, cls->fields[f].name, text);
            CHECK_OR_FALSE(n > 0 && (size_t)n < size - used);
            used += (size_t)n;
        }
    }
    jl_world_free(w);
    return true;
}

TEST(cli_validates_formats_twice_and_shares_a_world_whose_classes_are_files)
{
    NEED_JULIET();
    CHECK(copy_world());
    CHECK(run("validate %s", dir) == 0);
    CHECK(find_output("4 entities, 0 problems"));

    static char before[1 << 14], after[1 << 14];
    CHECK(field_dump(dir, before, sizeof before));
    CHECK(run("fmt %s", dir) == 0);
    CHECK(find_output("2 files reformatted"));
    CHECK(du_make_temp_dir(dir2, sizeof dir2, "classes-fmt"));
    CHECK(du_copy_tree(dir, dir2));
    CHECK(run("fmt %s", dir) == 0);
    CHECK(!strstr(output, "reformatted") && !strstr(output, ".jasset"));
    CHECK(pu_same_tree(dir, dir2));
    CHECK(field_dump(dir, after, sizeof after));
    CHECK(strcmp(before, after) == 0);
    /* Class files are read, never rewritten. */
    char a[512], b[512];
    CHECK(du_join(a, sizeof a, class_world, "Classes") && du_join(b, sizeof b, dir, "Classes"));
    CHECK(pu_same_tree(a, b));

    /* share, then unshare into a new directory: the classes come back too. */
    CHECK(run("share %s", dir) == 0);
    const char *link = find_output("http");
    CHECK(link);
    static char link_text[1 << 14];
    size_t n = strcspn(link, "\n");
    CHECK(n < sizeof link_text);
    memcpy(link_text, link, n);
    link_text[n] = '\0';
    CHECK(du_make_temp_dir(dir3, sizeof dir3, "classes-unshare"));
    char target[512];
    CHECK(du_join(target, sizeof target, dir3, "world"));
    CHECK(run("unshare '%s' %s", link_text, target) == 0);
    CHECK(du_join(b, sizeof b, target, "Classes"));
    CHECK(pu_same_tree(a, b));
    CHECK(run("validate %s", target) == 0);
    CHECK(field_dump(target, after, sizeof after));
    CHECK(strcmp(before, after) == 0);
    du_remove_tree(dir);
    du_remove_tree(dir2);
    du_remove_tree(dir3);
}

TEST(cli_schema_writes_the_compiled_classes_then_leaves_them_alone)
{
    NEED_JULIET();
    CHECK(du_make_temp_dir(dir, sizeof dir, "classes-schema"));
    CHECK(du_copy_tree(JULIET_ASSETS_DIR "/sample_world", dir));
    CHECK(run("schema %s", dir) == 0);
    CHECK(find_output("Classes/Inert.jclass") && find_output("Classes/Light.jclass") &&
          find_output("Classes/Prop.jclass"));
    CHECK(find_output("3 class files written, 0 unchanged"));
    CHECK(run("schema %s", dir) == 0);
    CHECK(!strstr(output, ".jclass") && find_output("0 class files written, 3 unchanged"));
    CHECK(run("validate %s", dir) == 0);
    CHECK(find_output("0 problems"));
    /* A changed default: validate names the file and the compiled class. */
    char path[512];
    CHECK(du_join(path, sizeof path, dir, "Classes/Light.jclass"));
    size_t size = 0;
    char *text = du_read(path, &size);
    CHECK(text);
    char *at = strstr(text, "f32+inf 10");
    CHECK(at);
    at[8] = '2';
    CHECK(du_write(path, text, size));
    free(text);
    CHECK(run("validate %s", dir) == 1);
    CHECK(
        find_output("Classes/Light.jclass:11:3: class Light differs from the compiled class: field radius "
                    "defaults to 20 here, 10 there (the compiled class is used)"));
    CHECK(run("schema %s", dir) == 0);
    CHECK(find_output("Classes/Light.jclass") && find_output("1 class file written, 2 unchanged"));
    CHECK(run("schema") == 2 && run("schema --help") == 0);
    du_remove_tree(dir);
}

/* A new world, and the texts of the class world's Ghoul class file and of
 * its entity boss, for loading one by one as a served world's files come. */
typedef struct one_by_one {
    jl_world *w;
    char *class_text, *entity_text;
    size_t class_size, entity_size;
    jl_error err;
} one_by_one;

static bool one_by_one_start(one_by_one *f)
{
    *f = (one_by_one){0};
    if (!registered() || !(f->w = new_world())) return false;
    f->class_text = du_read(JULIET_ASSETS_DIR "/class_world/Classes/Ghoul.jclass", &f->class_size);
    f->entity_text = du_read(JULIET_ASSETS_DIR "/class_world/Entities/5337047033410748417.jasset", &f->entity_size);
    return f->class_text && f->entity_text;
}

static jl_status load_ghoul(one_by_one *f, const char *path)
{
    return jl_world_load_class_text(f->w, path, f->class_text, f->class_size, &f->err);
}

static jl_entity *load_boss(one_by_one *f)
{
    jl_entity *e = NULL;
    jl_status s = jl_world_load_entity_text(f->w, "Entities/5337047033410748417.jasset", f->entity_text, f->entity_size,
                                            false, &e, &f->err);
    return s == JL_OK ? e : NULL;
}

static void one_by_one_end(one_by_one *f)
{
    free(f->class_text);
    free(f->entity_text);
    if (f->w) jl_world_free(f->w);
}

TEST(class_files_loaded_one_by_one_before_their_entities_make_the_same_world)
{
    one_by_one f;
    CHECK(one_by_one_start(&f));
    /* The file's name must be the class's. */
    CHECK(load_ghoul(&f, "Classes/Goblin.jclass") == JL_ERR_PARSE);
    CHECK(!jl_world_class_find(f.w, "Ghoul", 5));
    CHECK(load_ghoul(&f, "Classes/Ghoul.jclass") == JL_OK);
    CHECK(jl_world_class_find(f.w, "Ghoul", 5));
    /* Again: the class is known already and the file agrees with it. */
    CHECK(load_ghoul(&f, "Classes/Ghoul.jclass") == JL_OK);
    jl_entity *e = load_boss(&f);
    CHECK(e && !jl_class_is_opaque(e->derived_kind));
    CHECK(field_is(f.w, boss, "health", "75.5"));
    one_by_one_end(&f);
}

TEST(a_class_file_that_comes_after_entities_of_its_class_says_they_stay_text_until_reopened)
{
    one_by_one f;
    CHECK(one_by_one_start(&f));
    jl_entity *e = load_boss(&f);
    CHECK(e && jl_class_is_opaque(e->derived_kind));
    const uint32_t classes = jl_world_class_count(f.w);
    CHECK(load_ghoul(&f, "Classes/Ghoul.jclass") == JL_ERR_PARSE);
    CHECK(strcmp(f.err.path, "Classes/Ghoul.jclass") == 0 && f.err.line == 3 && f.err.col == 3); /* its name */
    CHECK(strcmp(f.err.message,
                 "class Ghoul came after entities of it, which are kept as text until the world is "
                 "opened again") == 0);
    CHECK(jl_world_class_count(f.w) == classes);
    CHECK(jl_class_is_opaque(jl_world_find(f.w, boss)->derived_kind));
    one_by_one_end(&f);
}
