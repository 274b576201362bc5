#include "egl_shim.h"

#include <stddef.h>

static PFNEGLQUERYDEVICESEXTPROC query_devices(void) {
    static PFNEGLQUERYDEVICESEXTPROC fn;
    static int loaded;
    if (!loaded) {
        fn = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
        loaded = 1;
    }
    return fn;
}

static PFNEGLQUERYDEVICESTRINGEXTPROC query_device_string(void) {
    static PFNEGLQUERYDEVICESTRINGEXTPROC fn;
    static int loaded;
    if (!loaded) {
        fn = (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
        loaded = 1;
    }
    return fn;
}

static PFNEGLGETPLATFORMDISPLAYEXTPROC platform_display(void) {
    static PFNEGLGETPLATFORMDISPLAYEXTPROC fn;
    static int loaded;
    if (!loaded) {
        fn = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
        loaded = 1;
    }
    return fn;
}

int gs_egl_has_device_enumeration(void) { return query_devices() != NULL && query_device_string() != NULL; }
int gs_egl_has_platform_display(void) { return platform_display() != NULL; }

EGLBoolean gs_egl_query_devices(EGLint max, EGLDeviceEXT *devices, EGLint *count) {
    PFNEGLQUERYDEVICESEXTPROC fn = query_devices();
    if (fn == NULL) return EGL_FALSE;
    return fn(max, devices, count);
}

const char *gs_egl_query_device_string(EGLDeviceEXT device, EGLint name) {
    PFNEGLQUERYDEVICESTRINGEXTPROC fn = query_device_string();
    if (fn == NULL) return NULL;
    return fn(device, name);
}

EGLDisplay gs_egl_get_platform_display(EGLenum platform, void *native_display) {
    PFNEGLGETPLATFORMDISPLAYEXTPROC fn = platform_display();
    if (fn == NULL) return EGL_NO_DISPLAY;
    return fn(platform, native_display, NULL);
}

EGLDisplay gs_egl_default_display(void) { return eglGetDisplay(EGL_DEFAULT_DISPLAY); }
EGLContext gs_egl_no_context(void) { return EGL_NO_CONTEXT; }
EGLSurface gs_egl_no_surface(void) { return EGL_NO_SURFACE; }
EGLDisplay gs_egl_no_display(void) { return EGL_NO_DISPLAY; }
EGLConfig gs_egl_no_config(void) { return (EGLConfig)0; }

static _Thread_local gs_gl_tally tally;
gs_gl_tally *gs_gl_tally_here(void) { return &tally; }
