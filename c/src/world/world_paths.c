/* world_paths.c - where an entity's file is: "Entities/<decimal id>.jasset"
 * under the world directory (world.h, JULIET-SPEC-002 §5.5), and back from a file name
 * to its ID. The one place that maps IDs to file names. */
#include <string.h>

#include "archive/archive_internal.h"
#include "juliet/fs.h"
#include "world/world_internal.h"

void jli_entity_file_name(char *out, uint64_t id)
{
    uint32_t n = jli_format_u64(id, out);
    memcpy(out + n, ".jasset", sizeof ".jasset");
}

uint64_t jl_world_id_of_file_name(const char *name)
{
    size_t n = strlen(name), s = sizeof ".jasset" - 1;
    if (n <= s || memcmp(name + n - s, ".jasset", s) != 0) return 0;
    n -= s;
    if (n > 20 || name[0] == '0') return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (name[i] < '0' || name[i] > '9') return 0;
        uint64_t d = (uint64_t)(name[i] - '0');
        if (v > (UINT64_MAX - d) / 10) return 0;
        v = v * 10 + d;
    }
    return v;
}

const char *jli_base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

bool jl_world_entity_path(char *out, size_t out_size, const char *dir, uint64_t id)
{
    char name[JLI_ENTITY_FILE_NAME_MAX];
    jli_entity_file_name(name, id);
    char sub[JL_ERROR_PATH_MAX];
    if (!jl_fs_join(sub, sizeof sub, dir, "Entities")) return false;
    return jl_fs_join(out, out_size, sub, name);
}
