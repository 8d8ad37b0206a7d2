/* disk_util.h - temporary directories and whole-file helpers for the
 * reliability suites (crash safety, faults, git merges, bad input).
 * Plain POSIX, so the same code runs natively and in wasm under NODERAWFS.
 * Everything is static: each test file includes it once. */
#ifndef JULIET_DISK_UTIL_H
#define JULIET_DISK_UTIL_H

#define _DEFAULT_SOURCE 1
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* dir + "/" + name into out; false (out truncated) if it does not fit. */
static inline bool du_join(char *out, size_t size, const char *dir, const char *name)
{
    int n = snprintf(out, size, "%s/%s", dir, name);
    return n >= 0 && (size_t)n < size;
}

/* A fresh directory under $TMPDIR (or /tmp) into out; false on failure. */
static inline bool du_make_temp_dir(char *out, size_t size, const char *label)
{
    const char *base = getenv("TMPDIR");
    if (!base || !*base) base = "/tmp";
    if ((size_t)snprintf(out, size, "%s/juliet-%s-XXXXXX", base, label) >= size) return false;
    return mkdtemp(out) != NULL;
}

/* The same in memory (/dev/shm) when the system has it, for tests that
 * rewrite thousands of files many times and test the engine, not the disk:
 * their SIGKILLs leave the page cache intact either way. */
static inline bool du_make_memory_temp_dir(char *out, size_t size, const char *label)
{
    const char *base = "/dev/shm";
    struct stat st;
    if (stat(base, &st) != 0 || !S_ISDIR(st.st_mode) || access(base, W_OK) != 0)
        return du_make_temp_dir(out, size, label);
    if ((size_t)snprintf(out, size, "%s/juliet-%s-XXXXXX", base, label) >= size) return false;
    return mkdtemp(out) != NULL;
}

/* Deletes path and everything under it (symlinks are removed, not followed). */
static inline void du_remove_tree(const char *path)
{
    struct stat st;
    if (lstat(path, &st) != 0) return;
    if (S_ISDIR(st.st_mode)) {
        DIR *d = opendir(path);
        if (d) {
            struct dirent *e;
            char child[4096];
            while ((e = readdir(d)) != NULL) {
                if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
                if (du_join(child, sizeof child, path, e->d_name)) du_remove_tree(child);
            }
            closedir(d);
        }
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* Reads a whole file into a malloc'd NUL-terminated buffer (caller frees);
 * NULL if it cannot be read. */
static inline char *du_read(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (!buf) break;
        if (n + 1 >= cap) {
            char *grown = realloc(buf, cap *= 2);
            if (!grown) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = grown;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0) break;
    }
    fclose(f);
    if (!buf) return NULL;
    buf[n] = '\0';
    if (size) *size = n;
    return buf;
}

static inline bool du_write(const char *path, const void *data, size_t size)
{
    FILE *f = fopen(path, "wb");
    if (!f) return false;
    bool ok = fwrite(data, 1, size, f) == size;
    return fclose(f) == 0 && ok;
}

/* True if the file at path holds exactly the bytes of text. */
static inline bool du_file_is(const char *path, const char *text)
{
    size_t size = 0;
    char *now = du_read(path, &size);
    bool same = now && size == strlen(text) && memcmp(now, text, size) == 0;
    free(now);
    return same;
}

static inline bool du_exists(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0;
}

/* Copies the regular files, symbolic links (as links) and subdirectories of
 * from into to (created). */
static inline bool du_copy_tree(const char *from, const char *to)
{
    if (mkdir(to, 0755) != 0 && errno != EEXIST) return false;
    DIR *d = opendir(from);
    if (!d) return false;
    bool ok = true;
    struct dirent *e;
    char a[4096], b[4096];
    while (ok && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        struct stat st;
        if (!du_join(a, sizeof a, from, e->d_name) || !du_join(b, sizeof b, to, e->d_name) || lstat(a, &st) != 0) {
            ok = false;
        } else if (S_ISDIR(st.st_mode)) {
            ok = du_copy_tree(a, b);
        } else if (S_ISREG(st.st_mode)) {
            size_t n;
            char *text = du_read(a, &n);
            ok = text && du_write(b, text, n);
            free(text);
        } else if (S_ISLNK(st.st_mode)) {
            char target[4096];
            ssize_t n = readlink(a, target, sizeof target - 1);
            ok = n >= 0;
            if (ok) {
                target[n] = '\0';
                ok = symlink(target, b) == 0;
            }
        }
    }
    closedir(d);
    return ok;
}

/* The names in dir (without . and ..), malloc'd, sorted; *count set. Free
 * with du_free_names. NULL with *count 0 if dir cannot be opened. */
static inline int du_compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline char **du_list(const char *dir, size_t *count)
{
    *count = 0;
    DIR *d = opendir(dir);
    if (!d) return NULL;
    size_t cap = 64, n = 0;
    char **names = malloc(cap * sizeof *names);
    struct dirent *e;
    while (names && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (n == cap) {
            char **grown = realloc(names, (cap *= 2) * sizeof *names);
            if (!grown) break;
            names = grown;
        }
        names[n++] = strdup(e->d_name);
    }
    closedir(d);
    if (names) qsort(names, n, sizeof *names, du_compare_names);
    *count = n;
    return names;
}

static inline void du_free_names(char **names, size_t count)
{
    for (size_t i = 0; i < count; i++) free(names[i]);
    free(names);
}

static inline bool du_ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

/* Number of names in dir ending in suffix. */
static inline size_t du_count_suffix(const char *dir, const char *suffix)
{
    size_t hits = 0;
    DIR *d = opendir(dir);
    if (!d) return 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) hits += du_ends_with(e->d_name, suffix);
    closedir(d);
    return hits;
}

/* The `juliet` CLI next to the test programs: build/native/juliet from
 * build/native/tests/native/<test>; false if it is not there. */
static inline bool du_find_cli(char *out, size_t size)
{
    char self[1024];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return false;
    self[n] = '\0';
    for (int up = 0; up < 3; up++) {
        char *slash = strrchr(self, '/');
        if (!slash) return false;
        *slash = '\0';
    }
    return du_join(out, size, self, "juliet") && access(out, X_OK) == 0;
}

/* Runs the shell command line `command` with stdout and stderr into out
 * (NUL-terminated, cut at size); returns the exit status, -1 if it did not
 * exit normally. */
static inline int du_run(const char *command, char *out, size_t size)
{
    char full[4096];
    int n_full = snprintf(full, sizeof full, "%s 2>&1", command);
    if (n_full < 0 || (size_t)n_full >= sizeof full) return -1;
    FILE *p = popen(full, "r");
    if (!p) return -1;
    size_t n = fread(out, 1, size - 1, p);
    out[n] = '\0';
    char rest[4096]; /* drain what did not fit, so the command never sees SIGPIPE */
    while (fread(rest, 1, sizeof rest, p) > 0) {
    }
    int status = pclose(p);
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* du_run of `program ARGS`, ARGS formatted as by printf. */
static inline int du_run_args(const char *program, char *out, size_t size, const char *args_format, va_list ap)
{
    char command[8192];
    int n = snprintf(command, sizeof command, "%s ", program);
    vsnprintf(command + n, sizeof command - (size_t)n, args_format, ap);
    return du_run(command, out, size);
}

#endif
