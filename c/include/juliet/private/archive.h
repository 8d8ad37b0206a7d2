/* juliet/private/archive.h - the layout of jl_archive: the tokenized
 * entries, the reader's place and the writer's cursor.
 *
 * Private tier: what is declared here may change without notice, from one
 * release to the next. Programs use the headers one level up
 * (<juliet/archive.h>), which include this one only because C needs the
 * layout to put an archive on the caller's stack; they never read or write
 * these fields. */
#ifndef JULIET_PRIVATE_ARCHIVE_H
#define JULIET_PRIVATE_ARCHIVE_H

#include <stdbool.h>
#include <stdint.h>

#include "../archive.h" /* the API laid out here; it includes this header at its end */

/* The spec's Archive: one object for both directions (`loading` says
 * which): the tokenized entries and the reader's place when loading, the
 * writer's cursor in its output arena when saving. */
struct jl_archive {
    bool loading;
    const char *path; /* for diagnostics; may be NULL */
    jl_error *err;    /* where failures are described; may be NULL */
    /* loading */
    jl_archive_entry *entries;
    uint32_t entry_count;
    uint32_t last_line;     /* line count of the text, for "at end of file" */
    uint32_t next_lookup;   /* where the next key search starts (files are
                               usually in canonical order) */
    uint32_t file_version;  /* `; version` (1 if absent) */
    uint32_t class_version; /* `; class_version` (1 if absent) */
    jl_arena *strings;      /* where STRING values read are copied (set it
                               after jl_archive_tokenize); NULL: a string
                               field fails with JL_ERR_INVALID_ARGUMENT */
    /* saving */
    jl_arena *out; /* text is appended here, contiguously */
    char *out_begin;
    char *out_cursor;
    char *out_limit;
    bool out_failed; /* the output arena ran out */
};

#endif
