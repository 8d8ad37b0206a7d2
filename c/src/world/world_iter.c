/* world_iter.c - walking a world's live entities, all of them or one
 * class's (world.h, "iteration"). A walk keeps a slot number, not a
 * pointer, and reads the manager at each step: base slots and derived
 * slots never move in a world (it never compacts), so a change between two
 * steps can only free a slot or fill one. */
#include "world/world_internal.h"

jl_world_iter jl_world_iter_all(const jl_world *world) { return (jl_world_iter){.state = {.world = world}}; }

jl_world_iter jl_world_iter_class(const jl_world *world, const jl_class *cls)
{
    return (jl_world_iter){.state = {.world = cls ? world : NULL, .cls = cls}};
}

/* The next live base entity from base slot it->state.next on, or NULL. */
static jl_entity *next_of_all(jl_world_iter *it, const jl_entity_manager *m)
{
    for (size_t slot = it->state.next; slot < m->slots; slot++) {
        jl_entity *e = &m->entities[slot];
        if (e->derived) {
            it->state.next = slot + 1;
            return e;
        }
    }
    return NULL;
}

/* The next live derived struct of the walk's class from derived slot
 * it->state.next on, or NULL; none if the class's typed array is another
 * class's (a class of another registry under the same kind). */
static jl_entity *next_of_class(jl_world_iter *it, const jl_entity_manager *m)
{
    const jl_class *cls = it->state.cls;
    if (cls->kind >= JL_CLASS_MAX) return NULL;
    const jl_typed_array *t = &m->by_type[cls->kind];
    if (t->cls != cls || !t->array) return NULL;
    for (size_t slot = it->state.next; slot < t->slots; slot++) {
        const char *derived = (const char *)t->array + slot * t->stride;
        if (!jl_derived_is_free(derived)) {
            it->state.next = slot + 1;
            return ((const jl_entity_header *)derived)->base;
        }
    }
    return NULL;
}

bool jl_world_next(jl_world_iter *it)
{
    const jl_world *w = it->state.world;
    jl_entity *e = NULL;
    if (w) e = it->state.cls ? next_of_class(it, &w->manager) : next_of_all(it, &w->manager);
    it->entity = e;
    it->derived = e ? e->derived : NULL;
    if (!e) it->state.world = NULL; /* over for good */
    return e != NULL;
}

/* ---- handles: the manager's, whose generations never repeat for a slot ---- */

jl_handle jl_world_handle(const jl_world *world, const jl_entity *entity)
{
    return jl_entity_handle(&world->manager, entity);
}

jl_entity *jl_world_resolve(const jl_world *world, jl_handle handle)
{
    return jl_handle_resolve(&world->manager, handle);
}
