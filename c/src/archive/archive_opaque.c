/* archive_opaque.c - opaque entities: the class of a file whose class no
 * build describes. It reads nothing but the class_version and writes it back;
 * every other key of the file is kept verbatim as an unknown key. */
#include "archive/archive_internal.h"

/* Reads nothing but the class_version (checked by jl_archive_read_entity):
 * every other key stays unused, so the world keeps it as an unknown key.
 * Writes nothing: the header carries the class_version, the kept keys
 * follow. */
static jl_status opaque_serialize(jl_archive *ar, const jl_class *cls, void *derived)
{
    (void)cls;
    if (ar->loading) ((jli_opaque_entity *)derived)->class_version = ar->class_version;
    return JL_OK;
}

static void opaque_default_init(void *derived) { ((jli_opaque_entity *)derived)->class_version = 1; }

void jli_opaque_class_init(jl_class *cls, const char *name)
{
    *cls = (jl_class){
        .name = name,
        .kind = JL_CLASS_KIND_NONE,
        .version = JL_INDEX_MAX - 1, /* the largest a file may have: never newer than this */
        .size_of = (uint32_t)sizeof(jli_opaque_entity),
        .alignment = (uint32_t) _Alignof(jli_opaque_entity),
        .serialize = opaque_serialize,
        .default_init = opaque_default_init,
    };
}

bool jl_class_is_opaque(const jl_class *cls) { return cls && cls->serialize == opaque_serialize; }

uint32_t jli_entity_class_version(const jl_entity *entity)
{
    const jl_class *cls = entity->derived_kind;
    return jl_class_is_opaque(cls) ? ((const jli_opaque_entity *)entity->derived)->class_version : cls->version;
}
