/* persist_util.h - helpers shared by the persistence suites
 * (test_archive.c, test_world.c, test_cli.c, test_writers.c): directory
 * counts and tree comparisons, with the file helpers of disk_util.h and the
 * probe file system of fs_probe.h. Test code only: it may use the C library
 * freely. */
#ifndef JULIET_PERSIST_UTIL_H
#define JULIET_PERSIST_UTIL_H

#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "disk_util.h"
#include "fs_probe.h"

#define ASSETS JULIET_ASSETS_DIR

/* Number of entries in a directory (-1 if it cannot be opened). */
static inline int pu_count(const char *path)
{
    DIR *d = opendir(path);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, "..")) n++;
    closedir(d);
    return n;
}

/* True if the two directory trees hold the same names with the same bytes. */
static inline bool pu_same_tree(const char *a, const char *b)
{
    if (pu_count(a) != pu_count(b)) return false;
    DIR *d = opendir(a);
    if (!d) return false;
    bool same = true;
    struct dirent *e;
    while (same && (e = readdir(d)) != NULL) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
        char pa[1024], pb[1024];
        du_join(pa, sizeof pa, a, e->d_name);
        du_join(pb, sizeof pb, b, e->d_name);
        struct stat st;
        if (stat(pa, &st) != 0) {
            same = false;
        } else if (S_ISDIR(st.st_mode)) {
            same = pu_same_tree(pa, pb);
        } else {
            size_t na = 0, nb = 0;
            char *da = du_read(pa, &na), *db = du_read(pb, &nb);
            same = da && db && na == nb && memcmp(da, db, na) == 0;
            if (!same) fprintf(stderr, "differs: %s %s\n", pa, pb);
            free(da);
            free(db);
        }
    }
    closedir(d);
    return same;
}

#endif
