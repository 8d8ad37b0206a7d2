/* snapshot.h - level snapshots: a whole world as a short string for a URL.
 *
 * Pipeline (share, then open):
 *
 *   world --jl_snapshot_encode_world--> bytes --deflate-raw--> packed --jl_base64url_encode--> text
 *   text  --jl_base64url_decode--> packed --inflate-raw (capped)--> bytes --jl_snapshot_decode_world--> world
 *
 * (jl_snapshot_encode_manager / _decode_manager are the same codec for a
 * bare entity manager: no settings, no unknown keys. A world should use the
 * world functions, or it loses what only the world keeps.)
 *
 * The C codec does the first and last steps and base64url; deflate sits
 * outside it (the system zlib in the native CLI, CompressionStream /
 * DecompressionStream('deflate-raw') in the browser), because the wasm build
 * has no zlib. Whoever inflates must stop at JL_SNAPSHOT_MAX_BYTES of output
 * and report an expansion bomb, never allocate more. A link is
 * `BASE#TEXT`; jl_snapshot_link_payload finds TEXT in one.
 *
 * The byte stream (version 1; all integers little-endian; "varint" is
 * unsigned LEB128 in its shortest form, "svarint" a zigzag varint):
 *
 *   magic        "JLW" then the version byte (JL_SNAPSHOT_VERSION)
 *   flags        varint; bit 0: a world section follows the entities;
 *                bit 1: class files follow (a version 1 reader without
 *                them refuses the unknown flag instead of misreading);
 *                bit 2 (with bit 0 only): opaque entities follow the
 *                world section
 *   class files  with flag bit 1 (jl_snapshot_encode_world, when entities
 *                are of classes the world has from class files,
 *                class_file.h): varint K, then per class its file's text
 *                verbatim (varint size, bytes), in kind order; the decoder
 *                resolves the class table against them too, and they join
 *                the target world (jl_world_save_new writes them back)
 *   classes      varint C, then per class: u32 CRC32 of its name, varint
 *                class_version, u32 CRC32 of its field list (names, types,
 *                flags, an enum field's names), varint entity count (>= 1)
 *   ids          N = sum of the counts; the IDs in ascending order: varint
 *                first ID, then varint (delta - 1) for each next one
 *   class column integer column of class-table indices, in ID order
 *   positions    float columns x, y, z, in ID order
 *   flags column integer column of entity flags
 *   fields       per class in table order, per field in reflection order,
 *                the column(s) of that class's entities in ID order:
 *                  F32 -> float column; VEC2, VEC3, QUAT -> 2, 3, 4
 *                  float columns (x, y, z, w);
 *                  INDEX -> integer column of (value + 1) mod 2^32 (so the
 *                  "none" index is 0); BOOL -> integer column;
 *                  U32 -> integer column; I32 -> integer column of
 *                  zigzag(value); ENUM -> integer column of the index of
 *                  the value's name (below the enum's name count);
 *                  STRING -> integer column of sizes in bytes (each at
 *                  most JL_ARCHIVE_LINE_MAX), then the strings' bytes back
 *                  to back, each valid as in a .jasset file (UTF-8, no
 *                  control character, its text within a line);
 *                  COLOR -> integer column of r << 16 | g << 8 | b;
 *                  ENTITY_REF -> varint X, X external IDs (ascending,
 *                  delta - 1 coded like ids), then an integer column of
 *                  codes: 0 none, 1..X that external ID (a reference to an
 *                  entity not in the snapshot is kept as is), X + 1 +
 *                  zigzag(target's rank - own rank) an entity of the
 *                  snapshot (rank: position in ID order; the settings'
 *                  own rank is 0), small for references to neighbours
 *   world        with flag bit 0 (jl_snapshot_encode_world):
 *                  varint settings version, u32 CRC32 of the settings'
 *                  field list, u8 settings flags (bit 0: read-only), the
 *                  settings' fields as columns of one value, varint size
 *                  and bytes of the settings' unknown key lines;
 *                  an integer column of each entity's unknown-key text
 *                  size (ID order), then those texts back to back
 *   opaque       with flag bit 1: the entities of opaque classes (world.h),
 *                which have no columns and are in no section above:
 *                varint count, then per entity in ID order: varint ID,
 *                varint size and bytes of its class name, varint
 *                class_version, three u32 float bits of its position, u8
 *                flags, varint size and bytes of its kept key lines; the
 *                decoder reads each back through the loader, as the text
 *                of its file (a name of a class the target describes is
 *                JL_ERR_CORRUPT)
 *   crc          u32 CRC32 of every byte before it
 *
 *   integer column: varint base, u8 width W (0..8), then W byte planes of n
 *     bytes each, least significant plane first: value = base + planes.
 *     Planes keep each byte position of a column together, which is what
 *     deflate's Huffman stage compresses best.
 *   float column: u8 mode.
 *     mode 0 (decimal): svarint E in [-22, 22], then the mantissas M as an
 *       integer column over a zigzag base (svarint base, u8 W <= 7, planes),
 *       |M| <= 2^53; value = (float)(M * 10^E computed in double). Then
 *       varint X exceptions: varint gap (the first index, then the distance
 *       past the previous exception), u32 float bits; an exception replaces
 *       the value at that index (its mantissa is written as base).
 *       The encoder gives each value its shortest decimal form, picks the E
 *       that makes the column smallest (the common exponent of its values,
 *       unless a few outliers are cheaper as exceptions) and checks every
 *       value reads back bit for bit, so 12.34 costs the integer 1234; -0,
 *       infinities and values with no short decimal form become exceptions.
 *     mode 1 (bits): an integer column of the IEEE-754 bit patterns.
 *
 * Hostile input: the decoder reads only inside the given bytes, checks
 * the CRC right after the magic and version and before any content (a
 * damaged snapshot is JL_ERR_CORRUPT "the link is damaged (checksum
 * mismatch)", never what its damaged bytes happen to say, such as an
 * unknown class), bounds every count by JL_SNAPSHOT_MAX_ENTITIES and by the
 * bytes left, rejects unknown versions and flags, truncation, trailing
 * bytes before the CRC, ID 0
 * and repeated IDs, out-of-range values, NaN anywhere and infinities where
 * the field forbids them, strings a file could not hold, and does work linear in its input and the entity
 * count. It is a pure function of its input bytes: on failure the target
 * is left as it was (empty). */
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
