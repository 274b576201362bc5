#define _GNU_SOURCE
#include "files_shim.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <malloc.h>
#include <pthread.h>
#include <string.h>
#include <stdio.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef RESOLVE_NO_MAGICLINKS
#define RESOLVE_NO_MAGICLINKS 0x02
#endif
#ifndef RESOLVE_BENEATH
#define RESOLVE_BENEATH 0x08
#endif

struct gs_open_how {
    unsigned long long flags;
    unsigned long long mode;
    unsigned long long resolve;
};

static int openat2_state = 0; /* 0 unknown, 1 works, -1 missing */

static int walk_beneath(int folder, const char *path, int flags, unsigned mode) {
    char part[NAME_MAX + 1];
    int current = folder, owned = 0;
    const char *p = path;
    for (;;) {
        while (*p == '/') p++;
        const char *end = strchr(p, '/');
        size_t length = end ? (size_t)(end - p) : strlen(p);
        const char *rest = end;
        while (rest && *rest == '/') rest++;
        int last = rest == NULL || *rest == '\0';
        if (length == 0) { /* empty path, or one of slashes only: the folder itself */
            int fd = openat(current, ".", flags, mode);
            if (owned) close(current);
            return fd;
        }
        if (length > NAME_MAX) { if (owned) close(current); errno = ENAMETOOLONG; return -1; }
        memcpy(part, p, length);
        part[length] = '\0';
        if (strcmp(part, "..") == 0) { if (owned) close(current); errno = EXDEV; return -1; }
        int fd = last ? openat(current, part, flags | O_NOFOLLOW, mode)
                      : openat(current, part, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int saved = errno;
        if (owned) close(current);
        if (fd < 0) { errno = saved; return -1; }
        if (last) return fd;
        current = fd;
        owned = 1;
        p = rest;
    }
}

int gs_open_beneath(int folder, const char *path, int flags, unsigned mode, int walk) {
    if (path[0] == '/') { errno = EXDEV; return -1; }
    int state = __atomic_load_n(&openat2_state, __ATOMIC_RELAXED);
    if (!walk && state >= 0) {
        struct gs_open_how how;
        memset(&how, 0, sizeof how);
        how.flags = (unsigned long long)(unsigned)flags;
        how.mode = (flags & (O_CREAT | __O_TMPFILE)) ? mode : 0;
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
        const char *target = path[0] ? path : ".";
        long fd = syscall(SYS_openat2, folder, target, &how, sizeof how);
        if (fd >= 0) { if (state == 0) __atomic_store_n(&openat2_state, 1, __ATOMIC_RELAXED); return (int)fd; }
        if (errno != ENOSYS && !(errno == EPERM && state == 0)) return -1;
        __atomic_store_n(&openat2_state, -1, __ATOMIC_RELAXED); /* not here (or blocked by seccomp): walk instead */
    }
    return walk_beneath(folder, path, flags, mode);
}

int gs_open_unnamed_at(int folder) {
#ifdef O_TMPFILE
    return openat(folder, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
#else
    (void)folder;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int gs_has_openat2(void) {
    struct gs_open_how how;
    memset(&how, 0, sizeof how);
    how.flags = O_PATH | O_CLOEXEC;
    how.resolve = RESOLVE_BENEATH;
    long fd = syscall(SYS_openat2, AT_FDCWD, ".", &how, sizeof how);
    if (fd < 0) return 0;
    close((int)fd);
    return 1;
}


int gs_o_path(void) { return O_PATH; }

int gs_exchange(const char *a, const char *b) {
#ifdef RENAME_EXCHANGE
    return renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
#else
    return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */);
#endif
}

int gs_fix_mmap_threshold(int bytes) {
    return mallopt(M_MMAP_THRESHOLD, bytes);
}

int gs_name_thread(const char *name) {
    char cut[16];
    strncpy(cut, name, 15);
    cut[15] = 0;
    return pthread_setname_np(pthread_self(), cut);
}

int gs_thread_name(char *out, unsigned long size) {
    return pthread_getname_np(pthread_self(), out, size);
}
