/* test_faults.c - I/O failures injected at each file-system operation of a
 * save (ENOSPC, EIO, EACCES) and of a load (world.h "Saving", "Loading").
 * A save on a file system that flushes a batch at once has the batch's
 * steps among its operations (fs.h: batch_open, sync_batch); the same save
 * synced file by file (as in wasm) is faulted too.
 *
 * For every operation number N of the save of an edited 50-entity world (12
 * in wasm)
 * (save_scenario.h), a fresh session saves through a probe (fs_probe.h) whose
 * Nth operation fails; a failed write first writes half its data, as a full
 * disk does. Then: the save returns the error and never success, the report
 * names the file and the reason; every file on disk is byte for byte its old
 * or its new version (nothing truncated); every entity whose new version is
 * not on disk is still dirty, every removed entity whose file is still there
 * is still pending deletion, the settings likewise; and a retry with the
 * fault cleared returns success, writes every new version, deletes every
 * removed entity's file, leaves nothing dirty and no temporary behind. */
#include "disk_util.h"

#include "fs_probe.h"
#include "save_scenario.h"
#include "test.h"

static bool is_pending(const jl_world *w, uint64_t id)
{
    for (uint32_t i = 0; i < w->manager.pending_count; i++)
        if (w->manager.pending_deletions[i] == id) return true;
    return false;
}

/* Everything that did not reach the disk is still to be saved. */
static bool check_still_dirty(scenario *s)
{
    char entities[700], path[800], name[40];
    du_join(entities, sizeof entities, s->dir, "Entities");
    for (size_t i = 1; i < s->file_count; i++) {
        const scenario_file *f = &s->files[i];
        snprintf(name, sizeof name, "%llu.jasset", (unsigned long long)f->id);
        du_join(path, sizeof path, entities, name);
        size_t size = 0;
        char *text = du_read(path, &size);
        bool on_disk_new = f->alive ? scenario_same(f->new_text, f->new_size, text, size) : text == NULL;
        bool unchanged = f->alive && scenario_same(f->old_text, f->old_size, f->new_text, f->new_size);
        free(text);
        if (on_disk_new || unchanged) continue;
        if (f->alive) {
            const jl_entity *e = jl_world_find(&s->world, f->id);
            CHECK_OR_FALSE(e != NULL);
            if (!e->is_dirty) {
                fprintf(stderr, "entity %s is clean but its new version is not on disk\n", name);
                return false;
            }
        } else if (!is_pending(&s->world, f->id)) {
            fprintf(stderr, "removed entity %s: file still there, deletion no longer pending\n", name);
            return false;
        }
    }
    du_join(path, sizeof path, s->dir, "WorldSettings.jasset");
    size_t size = 0;
    char *text = du_read(path, &size);
    bool settings_new = scenario_same(s->files[0].new_text, s->files[0].new_size, text, size);
    free(text);
    if (!settings_new && !s->world.settings_dirty) {
        fprintf(stderr, "settings clean but not saved\n");
        return false;
    }
    return true;
}

static uint32_t count_dirty(const jl_world *w)
{
    uint32_t n = 0;
    for (jl_entity *e = jl_entities_first(&w->manager); e; e = jl_entities_next(&w->manager, e)) n += e->is_dirty;
    return n + w->settings_dirty;
}

/* In wasm every world init zeroes its arenas (no virtual memory), so the
 * wasm run faults a smaller save: the same kinds of operations, fewer files. */
#ifdef __EMSCRIPTEN__
enum { FAULT_WORLD = 12 };
#else
enum { FAULT_WORLD = 50 };
#endif

/* Faults operation N of the save for every N, with errno value code whose
 * message contains `reason`; with file_by_file, on a file system that
 * syncs each file (fs_probe.h: no_batch). */
static void fault_each_operation(int code, const char *reason, bool file_by_file)
{
    scenario s;
    if (!scenario_build(&s, FAULT_WORLD, 0xfa17)) {
        scenario_free(&s);
        CHECK(false);
    }
    s.probe.no_batch = file_by_file;
    const bool batches = !file_by_file && probe_dir_batches(s.dir);
    /* How many operations a clean save makes. */
    CHECK(jl_world_save(&s.world, s.dir, NULL) == JL_OK);
    const uint32_t total = s.probe.total;
    scenario_state st;
    CHECK(scenario_check_disk_ex(&s, s.dir, &st, false, true));

    bool ok = total > 0;
    uint32_t by_op[JL_FS_OP_COUNT] = {0};
    for (uint32_t n = 1; ok && n <= total; n++) {
        ok = scenario_start_session(&s);
        if (!ok) break;
        const uint32_t dirty_before = count_dirty(&s.world);
        s.probe.fail_at = n;
        s.probe.fail_code = code;
        probe_start_log(&s.probe);
        jl_save_report report;
        jl_status status = jl_world_save(&s.world, s.dir, &report);
        uint8_t failed_op = n <= s.probe.log_count ? s.probe.log[n - 1].op : JL_FS_OP_COUNT;
        if (failed_op < JL_FS_OP_COUNT) by_op[failed_op]++;
        probe_free(&s.probe);
        char line[1024];
        jl_error_format(&report.error, line, sizeof line);
        ok = s.probe.failed == 1 && status != JL_OK && report.error.status == status && report.failed_count >= 1 &&
             report.error.path[0] != '\0' && strstr(report.error.message, reason) != NULL &&
             strstr(report.error.message, jl_fs_op_name(failed_op)) != NULL;
        if (!ok)
            fprintf(stderr, "fault at operation %u (%s): status %s, report \"%s\"\n", n, jl_fs_op_name(failed_op),
                    jl_status_name(status), line);
        ok = ok && scenario_check_disk(&s, s.dir, &st, false);
        ok = ok && check_still_dirty(&s);
        ok = ok && count_dirty(&s.world) <= dirty_before;
        if (!ok) {
            fprintf(stderr, "after a fault at operation %u of %u (%s)\n", n, total, jl_fs_op_name(failed_op));
            break;
        }
        /* The fault clears: the retry writes everything. */
        s.probe.fail_at = 0;
        status = jl_world_save(&s.world, s.dir, &report);
        ok = status == JL_OK && report.failed_count == 0 && count_dirty(&s.world) == 0 &&
             s.world.manager.pending_count == 0 && scenario_check_disk_ex(&s, s.dir, &st, false, true) &&
             st.temp_files == 0 && scenario_check_reload(s.dir, 256);
        if (!ok)
            fprintf(stderr, "retry after a fault at operation %u (%s) did not write everything\n", n,
                    jl_fs_op_name(failed_op));
    }
    printf("%s, %s: faulted each of %u operations (", reason, batches ? "in batches" : "file by file", total);
    for (uint32_t op = 0; op < JL_FS_OP_COUNT; op++)
        if (by_op[op]) printf(" %s %u", jl_fs_op_name(op), by_op[op]);
    printf(" )\n");
    scenario_free(&s);
    CHECK(ok);
    /* Every kind of save operation was hit: the flush of each batch, or
     * the sync of each file where the file system syncs file by file. */
    CHECK(by_op[JL_FS_OP_OPEN_WRITE] && by_op[JL_FS_OP_WRITE] && by_op[JL_FS_OP_CLOSE] && by_op[JL_FS_OP_RENAME] &&
          by_op[JL_FS_OP_REMOVE] && by_op[JL_FS_OP_SYNC_DIR] && by_op[JL_FS_OP_BATCH_OPEN]);
    if (batches) CHECK(by_op[JL_FS_OP_SYNC_BATCH] && !by_op[JL_FS_OP_SYNC]);
    else CHECK(by_op[JL_FS_OP_SYNC] && !by_op[JL_FS_OP_SYNC_BATCH]);
}

TEST(enospc_at_each_operation_of_a_save) { fault_each_operation(ENOSPC, "no space left on device", false); }

TEST(eio_at_each_operation_of_a_save) { fault_each_operation(EIO, "input/output error", false); }

TEST(eacces_at_each_operation_of_a_save) { fault_each_operation(EACCES, "permission denied", false); }

TEST(enospc_at_each_operation_of_a_save_synced_file_by_file)
{
    fault_each_operation(ENOSPC, "no space left on device", true);
}

TEST(eio_at_each_operation_of_a_save_synced_file_by_file) { fault_each_operation(EIO, "input/output error", true); }

/* A failed flush of a batch renames none of its files: each is reported
 * by its path with the operation and the reason, stays its old version on
 * disk and dirty in memory, and its temporary is removed. The deletions,
 * done before any write, stay done. */
TEST(failed_batch_flush_renames_none_of_its_files_and_reports_each)
{
    scenario s;
    if (!scenario_build(&s, FAULT_WORLD, 0xf1a5)) {
        scenario_free(&s);
        CHECK(false);
    }
    if (!probe_dir_batches(s.dir)) {
        printf("skipped: the file system of %s syncs file by file\n", s.dir);
        scenario_free(&s);
        return;
    }
    const uint32_t dirty = count_dirty(&s.world);
    s.probe.fail_op = JL_FS_OP_SYNC_BATCH;
    s.probe.fail_code = EIO;
    jl_save_report report;
    jl_status status = jl_world_save(&s.world, s.dir, &report);
    scenario_state st;
    char entities[700];
    du_join(entities, sizeof entities, s.dir, "Entities");
    bool ok = status == JL_ERR_IO && report.written_count == 0 && report.failed_count == dirty && dirty > 1 &&
              count_dirty(&s.world) == dirty && s.probe.ops[JL_FS_OP_RENAME] == 0 &&
              strcmp(report.error.message, "sync_batch failed: input/output error (EIO)") == 0 &&
              du_ends_with(report.error.path, ".jasset") && scenario_check_disk(&s, s.dir, &st, false) &&
              st.new_files == 0 && st.removed_gone == s.removed && du_count_suffix(entities, ".tmp") == 0 &&
              du_count_suffix(s.dir, ".tmp") == 0 && check_still_dirty(&s);
    printf("%u files dirty, %u reported failed: \"%s\" (%s)\n", dirty, report.failed_count, report.error.message,
           report.error.path);
    scenario_free(&s);
    CHECK(ok);
}

/* A file the loader cannot read is reported, and a later full save neither
 * rewrites nor deletes it. */
TEST(unreadable_file_at_load_is_reported_and_never_touched)
{
    scenario s;
    if (!scenario_build(&s, 20, 0x10ad)) {
        scenario_free(&s);
        CHECK(false);
    }
    const scenario_file *victim = NULL;
    for (size_t i = 1; i < s.file_count && !victim; i++)
        if (s.files[i].old_text) victim = &s.files[i];
    char entities[700], path[800], name[40];
    du_join(entities, sizeof entities, s.dir, "Entities");
    snprintf(name, sizeof name, "%llu.jasset", (unsigned long long)victim->id);
    du_join(path, sizeof path, entities, name);

    probe_fs probe;
    probe_init(&probe);
    probe.deny_read_code = EIO;
    probe_copy(probe.deny_read_path, path);
    jl_world w = {0};
    jl_world_desc d = {.capacity = 256, .fs = &probe.table};
    bool ok = jli_world_init(&w, &d) == JL_OK;
    jl_status status = ok ? jl_world_load(&w, s.dir) : JL_ERR_IO;
    const jl_error *e = jl_world_diagnostic(&w, 0);
    ok = ok && status == JL_ERR_IO && jl_world_diagnostic_count(&w) == 1 && e && strcmp(e->path, path) == 0 &&
         strstr(e->message, "input/output error") && jl_world_count(&w) == 19 && !jl_world_find(&w, victim->id);
    jl_world_mark_all_dirty(&w);
    ok = ok && jl_world_save(&w, s.dir, NULL) == JL_OK;
    size_t size = 0;
    char *text = du_read(path, &size);
    ok = ok && scenario_same(victim->old_text, victim->old_size, text, size);
    free(text);
    jli_world_shutdown(&w);
    scenario_free(&s);
    CHECK(ok);
}
