/* bare_read DIR: the floor of opening a world natively. Lists DIR/Entities
 * and reads each file with open, one read and close, nothing else (no
 * parse, no stat), then prints the seconds it took:
 *   bare_read_s <seconds> <files> files
 * tests/bench/scale.js prints it beside `juliet stats` of the same world. */
#define _POSIX_C_SOURCE 200809L
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double seconds(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: bare_read DIR\n");
        return 2;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/Entities", argv[1]);
    const double start = seconds();
    DIR *dir = opendir(path);
    if (!dir) {
        perror(path);
        return 1;
    }
    static char buffer[1 << 20];
    long files = 0;
    for (struct dirent *entry; (entry = readdir(dir));) {
        if (entry->d_name[0] == '.') continue;
        snprintf(path, sizeof path, "%s/Entities/%s", argv[1], entry->d_name);
        int fd = open(path, O_RDONLY);
        if (fd < 0) continue;
        if (read(fd, buffer, sizeof buffer) >= 0) files++;
        close(fd);
    }
    closedir(dir);
    printf("bare_read_s %.2f %ld files\n", seconds() - start, files);
    return 0;
}
