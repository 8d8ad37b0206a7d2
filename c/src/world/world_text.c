/* world_text.c - an entity's or the settings' whole file text as a save
 * writes it: the fields, then the unknown keys its record keeps. */
#include "archive/archive_internal.h"
#include "world/world_internal.h"

jl_status jli_world_write_entity_text(jl_world *w, const jl_entity *entity, jl_archive *ar)
{
    const jli_entity_record *r = jli_record_of(w, entity);
    return jl_archive_write_entity(ar, entity, r ? jli_record_unknown(w, r) : NULL, r ? r->unknown_size : 0);
}

jl_status jli_world_write_settings_text(jl_world *w, jl_archive *ar)
{
    const jli_entity_record *r = &w->settings_record;
    jli_settings_write_text(ar, &w->settings, jli_record_unknown(w, r), r->unknown_size);
    return ar->out_failed ? JL_ERR_OUT_OF_MEMORY : JL_OK;
}
