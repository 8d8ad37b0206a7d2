/* snapshot.h - level snapshots: a whole world as a short string for a URL.
 *
 *   world --jl_snapshot_encode_world--> bytes --deflate-raw--> --jl_base64url_encode--> text
 *   text --jl_base64url_decode--> --inflate-raw (capped)--> bytes --jl_snapshot_decode_world--> world
 *
 * Deflate sits outside the codec (zlib natively, CompressionStream in the
 * browser: the wasm build has no zlib); whoever inflates stops at
 * JL_SNAPSHOT_MAX_BYTES of output. A link is `BASE#TEXT`. The byte stream,
 * version 1, is described in docs/format.md ("The snapshot's bytes").
 * Decoding treats its input as hostile: it reads only inside it, checks the
 * CRC before any content, bounds every count, does work linear in its input
 * and leaves the target as it was on failure (jl_snapshot_decode_world).
 * The _manager functions are the same codec for a bare entity manager (no
 * settings, no unknown keys). */
#ifndef JULIET_SNAPSHOT_H
#define JULIET_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arena.h"
#include "entity_manager.h"
#include "status.h"
#include "world.h"

enum {
    JL_SNAPSHOT_VERSION = 1,
    /* Most entities in one snapshot. */
    JL_SNAPSHOT_MAX_ENTITIES = 1u << 20,
    /* Largest encoded (inflated) snapshot either side accepts. Inflaters cap
     * their output here; the encoder fails with JL_ERR_CAPACITY beyond it. */
    JL_SNAPSHOT_MAX_BYTES = 64u << 20,
    /* Longest snapshot text (base64url of deflated bytes) worth decoding:
     * deflate never grows data by more than 5 bytes per 16 KiB block. */
    JL_SNAPSHOT_MAX_TEXT = (JL_SNAPSHOT_MAX_BYTES + JL_SNAPSHOT_MAX_BYTES / 1024 + 64) / 3 * 4 + 4,
    /* Longest link (base, '#' and text) a browser is taken to open from its
     * address: a longer one is shared as a file of its text instead, which
     * the inspector's Open snapshot file and `juliet unshare -` read. */
    JL_SNAPSHOT_LINK_MAX = 1000000,
};

/* Encoded bytes: data[0, size). */
typedef struct jl_snapshot_bytes {
    const uint8_t *data;
    size_t size;
} jl_snapshot_bytes;

/* Encodes every live entity of manager (ID, class, position, flags and
 * every reflected field) into out, pushed on arena: arena->used grows by
 * exactly out->size and out->data stays valid until the arena is popped
 * below it or released. The manager is not modified. Fails with
 * JL_ERR_INVALID_ARGUMENT for a value the decoder would reject (ID 0, NaN,
 * an infinity in a field that forbids it, an enum value past its names, a
 * string a file could not hold; an entity of an opaque class, whose text
 * only a world keeps), JL_ERR_CAPACITY past the caps
 * above, JL_ERR_OUT_OF_MEMORY if the arena runs out; the arena is then as
 * before and err says which entity and field. */
jl_status jl_snapshot_encode_manager(const jl_entity_manager *manager, jl_arena *arena, jl_snapshot_bytes *out,
                                     jl_error *err);

/* Decodes size bytes of data (a snapshot without a world section) into
 * manager, which must hold no live entity. Every entity is created with its
 * ID, class, position, flags and fields, dirty (it has no file yet), and the
 * manager's ID counter is advanced past the IDs. scratch, if not NULL, lends
 * temporary memory and is returned to its mark; with NULL the decoder
 * reserves and releases its own. Fails with JL_ERR_CORRUPT (a checksum
 * mismatch, or bad bytes under a right checksum: err names their byte
 * offset), JL_ERR_UNKNOWN_CLASS (a class this build lacks or
 * has in another version), JL_ERR_CAPACITY (more entities than the manager
 * takes), JL_ERR_OUT_OF_MEMORY or JL_ERR_INVALID_ARGUMENT (manager not
 * empty, or a class with STRING fields: a manager has no arena to keep
 * their bytes in, decode those into a world); the manager then holds no
 * entity and its pending deletions are as before. */
jl_status jl_snapshot_decode_manager(const uint8_t *data, size_t size, jl_arena *scratch, jl_entity_manager *manager,
                                     jl_error *err);

/* Encodes a whole world: every live entity as jl_snapshot_encode_manager
 * does, plus what the world keeps beside them: each entity's unknown keys
 * (verbatim lines), the read-only flag, the settings with their own unknown
 * keys and read-only flag, and the entities of opaque classes as the text
 * of their files (world.h). Output, ownership and failures as
 * jl_snapshot_encode_manager. */
jl_status jl_snapshot_encode_world(const jl_world *world, jl_arena *arena, jl_snapshot_bytes *out, jl_error *err);

/* jl_snapshot_encode_world into the world's own scratch memory, for a
 * caller with no arena of its own (the wasm exports): out->data is valid
 * until the next call into the world that loads, saves or writes text, as
 * the text of jl_world_write_entity. Failures as jl_snapshot_encode_world. */
jl_status jl_snapshot_encode_world_scratch(jl_world *world, jl_snapshot_bytes *out, jl_error *err);

/* Decodes a snapshot (with or without a world section) into world, which
 * must hold no live entity. Every value is checked as the world's loader
 * checks a .jasset file's, so what is accepted is exactly what a file may
 * hold; entities come in dirty, those with unknown keys (or of a class
 * with its own serialize) through the loader itself, from the text their
 * file would hold. The settings are replaced and dirty. Saving the
 * world then writes byte for byte the files the encoded world would write
 * after jl_world_mark_all_dirty (read-only entities and settings are never
 * written, as in the source). Scratch memory is the decoder's own (never
 * the world's arenas). Failures as jl_snapshot_decode_manager, plus
 * JL_ERR_CORRUPT for unknown-key text a file could not hold; the world
 * then holds no entity, its settings, pending deletions and diagnostics
 * are as before. */
jl_status jl_snapshot_decode_world(const uint8_t *data, size_t size, jl_world *world, jl_error *err);

/* ---- base64url (RFC 4648 section 5, no padding) ---- */

/* Characters needed for size bytes: ceil(size * 4 / 3). */
size_t jl_base64url_encoded_size(size_t size);

/* Writes the base64url text of data[0, size) to out, which has room for
 * jl_base64url_encoded_size(size) characters (no NUL is written). Returns
 * the number of characters written. */
size_t jl_base64url_encode(const uint8_t *data, size_t size, char *out);

/* Most bytes text_size characters can decode to: floor(text_size * 3 / 4). */
size_t jl_base64url_decoded_size_max(size_t text_size);

/* Decodes text[0, text_size) into out (room for out_capacity bytes) and
 * sets *out_size. Rejects with JL_ERR_CORRUPT and the character's position
 * in err->col: a character outside A-Z a-z 0-9 - _, a length of 1 mod 4,
 * padding '=' or nonzero unused bits in the last character (so every byte
 * string has exactly one text), and with JL_ERR_CAPACITY output that would
 * not fit. out is unspecified on failure. */
jl_status jl_base64url_decode(const char *text, size_t text_size, uint8_t *out, size_t out_capacity, size_t *out_size,
                              jl_error *err);

/* The snapshot text inside link: what follows the last '#' if there is one,
 * else the whole string; surrounding whitespace is dropped. Returns a
 * pointer into link and sets *payload_size. */
const char *jl_snapshot_link_payload(const char *link, size_t link_size, size_t *payload_size);

#endif
