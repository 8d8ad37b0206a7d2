/* entity_manager_internal.h - what the loader, the world and the snapshot
 * decoder ask of the entity manager beyond its public API
 * (entity_manager.h). Internal names carry the jli_ prefix. */
#ifndef JULIET_ENTITY_MANAGER_INTERNAL_H
#define JULIET_ENTITY_MANAGER_INTERNAL_H

#include "juliet/entity_manager.h"

/* Rolls back a just-allocated entity (a file that failed halfway): both
 * slots go back to the free lists, with no pending deletion and no
 * generation bump, so the manager is as before the allocation. */
void jli_entity_rollback_allocation(jl_entity_manager *manager, jl_entity *entity);

/* Takes a live entity's ID away (it leaves the index; its id becomes 0)
 * without destroying it, so that another entity can be loaded under that
 * ID while this one waits: jl_entity_set_id gives the ID back, and
 * jl_entity_destroy of an entity without ID queues no pending deletion. */
void jli_entity_take_id(jl_entity_manager *manager, jl_entity *entity);

/* Removes every occurrence of id from the pending deletions (the entity is
 * back: its file must stay). Returns how many there were. */
uint32_t jli_manager_cancel_deletion(jl_entity_manager *manager, uint64_t id);

/* Starts reading where jl_entity_set_id(m, e, id) will look, so that a load
 * that knows the ID early overlaps that cache miss (a random bucket of the
 * hash table, for IDs of other sessions) with its parsing. */
void jli_manager_prefetch_id(const jl_entity_manager *manager, uint64_t id);

#endif
