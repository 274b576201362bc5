#ifndef GLSLICE_EGL_SHIM_H
#define GLSLICE_EGL_SHIM_H

/* EGL and OpenGL ES 3.1 for Swift (3.0 entry points, plus compute). Macros that Swift cannot import (casts such
   as EGL_NO_CONTEXT) and extension entry points (eglQueryDevicesEXT, ...) that
   must come from eglGetProcAddress are wrapped in small functions here. */

#include <stdint.h>
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl31.h>

/* 1 when eglGetProcAddress found the entry point. */
int gs_egl_has_device_enumeration(void);
int gs_egl_has_platform_display(void);

/* eglQueryDevicesEXT; returns EGL_FALSE on failure. */
EGLBoolean gs_egl_query_devices(EGLint max, EGLDeviceEXT _Nullable *_Nullable devices, EGLint *_Nonnull count);

/* eglQueryDeviceStringEXT; NULL when the device has no such string. */
const char *_Nullable gs_egl_query_device_string(EGLDeviceEXT _Nonnull device, EGLint name);

/* eglGetPlatformDisplayEXT with no attributes. */
EGLDisplay _Nullable gs_egl_get_platform_display(EGLenum platform, void *_Nullable native_display);

EGLDisplay _Nullable gs_egl_default_display(void);
EGLContext _Nullable gs_egl_no_context(void);
EGLSurface _Nullable gs_egl_no_surface(void);
EGLDisplay _Nullable gs_egl_no_display(void);
EGLConfig _Nullable gs_egl_no_config(void);

/* The GL calls made on the calling thread (issue 52): their nanoseconds, how many,
   how many were compute dispatches and how many waited for the GPU (a read-back or a
   fence with a dispatch or a draw queued since the last wait: a second read-back right
   after one waits for nothing). Thread-local, so the GL thread counts without a lock. */
typedef struct {
    uint64_t nanoseconds;
    uint64_t calls;
    uint64_t dispatches;
    uint64_t waits;
    uint64_t queued;
} gs_gl_tally;
gs_gl_tally *_Nonnull gs_gl_tally_here(void);

#endif
