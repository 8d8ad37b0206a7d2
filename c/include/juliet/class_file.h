/* class_file.h - entity classes described as data: the class files of a
 * world directory, Classes/<Name>.jclass (format in docs/format.md).
 *
 * A world loads its class files before its entity files and registers each
 * after the program's compiled classes: from then on it is a class like a
 * compiled one (the same arenas, reader, writer and snapshot columns), its
 * record laid out as a C compiler lays out the struct, kept in the world's
 * arenas until jl_world_free. A file that does not load, or that names a
 * compiled class and disagrees with it, is a diagnostic (path:line:col);
 * only its class's entities are affected, and the compiled class wins.
 * Loads and saves never write class files: `juliet schema` does
 * (jl_class_file_text, jl_class_file_save), and the first save of a world
 * holding classes from files (jl_world_save_new). */
#ifndef JULIET_CLASS_FILE_H
#define JULIET_CLASS_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "arena.h"
#include "class.h"
#include "fs.h"
#include "status.h"
#include "world.h"

enum {
    JL_CLASS_FILE_VERSION = 1, /* `; version` of the class files this build writes and reads */
};

#define JL_CLASS_FILES_DIR "Classes" /* the class files' folder in a world directory */
#define JL_CLASS_FILE_SUFFIX ".jclass"

/* The canonical class file of cls (any registered class, compiled or not):
 * its text is pushed on arena, *text and *size give it (valid until the
 * arena is popped below it). Loaded back, it describes the same class.
 * JL_ERR_OUT_OF_MEMORY if arena is full (nothing kept), or
 * JL_ERR_INVALID_ARGUMENT for a record a class file cannot describe (a
 * default the value syntax cannot write); err says which. */
jl_status jl_class_file_text(const jl_class *cls, jl_arena *arena, const char **text, size_t *size, jl_error *err);

/* Writes text[0, size) as dir/Classes/<class_name>.jclass through fs,
 * atomically (jl_fs_write_atomic; Classes/ is made if missing and synced
 * after the write), unless that file already holds exactly those bytes:
 * *written (may be NULL) says whether it wrote. scratch lends memory for
 * reading the old file and is returned to its mark. JL_OK, or the failure
 * of the file system with err naming the path and operation (the old file
 * is then untouched). */
jl_status jl_class_file_save(const jl_fs *fs, const char *dir, const char *class_name, const char *text, size_t size,
                             jl_arena *scratch, bool *written, jl_error *err);

/* Adds the class file text[0, size) to world, as jl_world_load does for
 * each of its class files before the entities (for a world whose files
 * arrive one by one, such as a served world in the inspector): a class of
 * the world's registry from then on. path names the file in errors; when it
 * is "Classes/<Name>.jclass" the class must be named <Name>. JL_OK (also
 * when the world has that class already and the file agrees with it), else
 * JL_ERR_PARSE with err saying where and why (a file that disagrees with
 * the class of that name names both), or JL_ERR_OUT_OF_MEMORY /
 * JL_ERR_CAPACITY. Load class files before the entities of their classes:
 * an entity loaded earlier is kept as text (opaque), and a file for its
 * class then is JL_ERR_PARSE saying so (the world is unchanged). */
jl_status jl_world_load_class_text(jl_world *world, const char *path, const char *text, size_t size, jl_error *err);

#endif
