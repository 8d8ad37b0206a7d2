/* juliet.h - every public header of the Juliet entity system at once
 * (CTest headers.juliet_h_includes_every_public_header checks it). The
 * headers under juliet/private/ are layouts, not API: those the public
 * headers need come with them. */
#ifndef JULIET_JULIET_H
#define JULIET_JULIET_H

#include "archive.h"
#include "arena.h"
#include "changes.h"
#include "class.h"
#include "class_file.h"
#include "class_registry.h"
#include "diff.h"
#include "entity.h"
#include "entity_manager.h"
#include "float_text.h"
#include "fs.h"
#include "platform.h"
#include "snapshot.h"
#include "status.h"
#include "version.h"
#include "world.h"
#include "world_lock.h"

#endif
