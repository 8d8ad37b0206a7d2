/* world_diagnostics.c - the world's diagnostics: what loads, reloads and
 * checks found wrong, each naming its file and line, stored up to
 * JL_WORLD_MAX_DIAGNOSTICS and counted past that. */
#include "world/world_internal.h"

void jli_world_add_diagnostic(jl_world *w, const jl_error *e)
{
    w->diagnostic_total++;
    if (w->diagnostic_count >= JL_WORLD_MAX_DIAGNOSTICS) return;
    jl_error *slot = jl_arena_push(&w->diag_arena, sizeof *slot, _Alignof(jl_error));
    if (!slot) return;
    *slot = *e;
    w->diagnostic_count++;
}

uint32_t jl_world_diagnostic_count(const jl_world *w) { return w->diagnostic_count; }

const jl_error *jl_world_diagnostic(const jl_world *w, uint32_t index)
{
    return index < w->diagnostic_count ? &w->diagnostics[index] : NULL;
}
