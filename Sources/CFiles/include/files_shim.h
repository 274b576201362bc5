#ifndef GLSLICE_FILES_SHIM_H
#define GLSLICE_FILES_SHIM_H

/* File system calls Swift cannot make directly (variadic syscall(2), the
   O_TMPFILE macro). Each returns a descriptor, or -1 with errno set. */

/* Opens `path`, relative, beneath the folder open as `folder`: the kernel
   resolves it (openat2 with RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), so no
   `..`, absolute or symbolic link, however raced, leads outside; an escape
   fails with EXDEV. Where openat2 is missing (kernels before 5.6, some
   seccomp profiles) it walks component by component with O_NOFOLLOW,
   refusing every symbolic link and `..` (ELOOP / EXDEV); `walk` non-zero
   walks even where openat2 works (the tests check both). */
int gs_open_beneath(int folder, const char *path, int flags, unsigned mode, int walk);

/* An unnamed file (O_TMPFILE) in the folder open as `folder`, for writing. */
int gs_open_unnamed_at(int folder);

/* Swaps the names `a` and `b` atomically (renameat2 RENAME_EXCHANGE): 0, or
   -1 with errno (EINVAL where the file system cannot). */
int gs_exchange(const char *a, const char *b);

/* O_PATH, which Swift's Glibc module does not export (it needs _GNU_SOURCE). */
int gs_o_path(void);

/* 1 when openat2 answers here (for doctor and the tests), else 0. */
int gs_has_openat2(void);

/* mallopt(M_MMAP_THRESHOLD, bytes), which Swift's Glibc module does not
   export (malloc.h): 1 on success, 0 when glibc refused it. */
int gs_fix_mmap_threshold(int bytes);

/* Names the calling thread where the OS shows it (pthread_setname_np, which
   Swift's Glibc module does not export): `name` cut to the 15 bytes Linux
   keeps. 0, or an error number. */
int gs_name_thread(const char *name);

/* The calling thread's name as the OS has it, into `out` (at least 16 bytes):
   0, or an error number. */
int gs_thread_name(char *out, unsigned long size);

#endif
