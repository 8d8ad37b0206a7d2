/* private_api.h - the engine's layers, bottom to top, and their private
 * headers in that order (flecs's src/private_api.h). Each folder of c/src
 * is one layer; a file may include the private header of its own layer and
 * of the layers below it, never of one above, and the public headers
 * (c/include/juliet/) everywhere. CTest layers.* checks it
 * (tests/native/check_layers.cmake keeps the same order and compares it
 * with the includes below).
 *
 *   base/        platform, arena, status, fs, crc32, float text, base64url,
 *                block pool, ID map, version
 *   class/       class records, field types, the class registry
 *   entity/      the entity manager
 *   archive/     .jasset text: tokens, values, strings, reader, writer, diff
 *   class_file/  .jclass text, read with the archive's tokenizer
 *   world/       a world: records, references, files, fields, load, save,
 *                lock, its classes from class files
 *   snapshot/    snapshots: encode, decode, a world in and out
 *   changes/     change links: a world's edits encoded, decoded, applied
 *   tools/       two worlds compared (public API only: no private header)
 *
 * Private headers are included by their path from c/src ("world/
 * world_internal.h"). Engine files include the headers they use, not this
 * one, so that the layering test sees each file's real dependencies. */
#ifndef JULIET_PRIVATE_API_H
#define JULIET_PRIVATE_API_H

#include "base/base_internal.h"
#include "class/class_registry_internal.h"
#include "entity/entity_manager_internal.h"
#include "archive/archive_internal.h"
#include "class_file/class_file_internal.h"
#include "world/world_internal.h"
#include "snapshot/snapshot_internal.h"
#include "changes/changes_internal.h"

#endif
