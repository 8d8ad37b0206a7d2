/* changes_internal.h - what the change-link encoder, decoder and applier
 * share: the stream's constants (changes.h describes the format; the
 * varints, sorted IDs, bounded reader and CRC are the snapshot's). */
#ifndef JULIET_CHANGES_INTERNAL_H
#define JULIET_CHANGES_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "archive/archive_internal.h"
#include "base/base_internal.h"
#include "juliet/changes.h"
#include "snapshot/snapshot_internal.h"

enum {
    JLI_CHANGES_FLAG_SETTINGS = 1u << 0, /* the settings' print and keys follow the name */
    JLI_CHANGES_FLAGS_KNOWN = JLI_CHANGES_FLAG_SETTINGS,
};

static const uint8_t jli_changes_magic[3] = {'J', 'L', 'C'};

/* What a link carries of a file's print: its low 32 bits. */
static inline uint32_t jli_changes_print32(uint64_t print) { return (uint32_t)print; }

/* True if k[0, n) is a key a file may hold: one or more [A-Za-z0-9_]. */
static inline bool jli_changes_is_key(const char *k, size_t n)
{
    if (n == 0) return false;
    for (size_t i = 0; i < n; i++)
        if (!(jli_char_class[(uint8_t)k[i]] & 1)) return false;
    return true;
}

/* True if v[0, n) can stand on a value line: no line break, no NUL (a
 * changed key must not smuggle in other keys). */
static inline bool jli_changes_is_value(const char *v, size_t n)
{
    return !memchr(v, '\n', n) && !memchr(v, '\r', n) && !memchr(v, '\0', n);
}

#endif
