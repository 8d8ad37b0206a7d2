/* class_file_internal.h - class files inside the engine: parsing one into
 * a class record, comparing it with a registered class (class_file.c).
 * The classes a world holds from files are the world's (world_internal.h,
 * class_file_world.c). class_file.h is the public API. Internal names
 * carry the jli_ prefix. */
#ifndef JULIET_CLASS_FILE_INTERNAL_H
#define JULIET_CLASS_FILE_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "juliet/class_file.h"
#include "juliet/class_registry.h"
#include "juliet/world.h"

/* Where a key of the class file is (1-based line and column of the key). */
typedef struct jli_text_pos {
    uint32_t line, col;
} jli_text_pos;

/* A class described by a class file. cls comes first: a record registered
 * from a file is this struct. Everything it points at (fields, names,
 * enums, defaults, the text) is in the arena it was parsed into. */
typedef struct jli_class_file {
    jl_class cls;
    const char *path; /* where it was read from, NUL-terminated ("" if nowhere) */
    const char *text; /* the file's bytes, verbatim (unknown keys included) */
    uint32_t text_size;
    jli_text_pos name_pos;    /* of `; name` */
    jli_text_pos version_pos; /* of `; class_version`, else of `; name` */
    jli_text_pos *field_pos;  /* of each `; field NAME` */
} jli_class_file;

/* Parses a class file's text into a class record in keep: the text is
 * copied there first (the record points into that copy and keeps it);
 * scratch holds the tokens and is returned to its mark. path (may be NULL)
 * names the file in errors and is kept; when expected_name is not NULL the
 * class's name must be it (the file name without .jclass). JL_OK and *out,
 * not yet registered (kind JL_CLASS_KIND_NONE); else JL_ERR_PARSE (err:
 * path, line, column, what) or JL_ERR_OUT_OF_MEMORY, and keep is popped
 * back to where it was. */
jl_status jli_class_file_parse(jl_arena *keep, jl_arena *scratch, const char *path, const char *text, size_t size,
                               const char *expected_name, jli_class_file **out, jl_error *err);

/* Whether file describes the same class as other (registered: compiled or
 * from another file): the same class_version, fields (names, types, flags,
 * enum names, in order) and defaults. If not, err (JL_ERR_PARSE) gives the
 * file's path, the line and column of the first difference and a message
 * naming other_desc ("the compiled class", or the other file's path), and
 * says that other is the class used. */
bool jli_class_file_agrees(const jli_class_file *file, const jl_class *other, const char *other_desc, jl_error *err);

#endif
