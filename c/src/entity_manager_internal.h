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

#endif
