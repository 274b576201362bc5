#ifndef GLSLICE_PNG_SHIM_H
#define GLSLICE_PNG_SHIM_H

#include <stddef.h>
#include <stdint.h>

/* libpng decodes (glslice writes PNGs itself: PNG/PNGStream.swift). Every
   libpng call, its setjmp and its cleanup live in png_shim.c; these
   functions return a status and fill `message`, so no longjmp ever crosses a
   Swift frame. */

enum {
    GS_PNG_OK = 0,
    GS_PNG_NOT_PNG = 1,    /* signature does not match */
    GS_PNG_CORRUPT = 2,    /* libpng refused the data */
    GS_PNG_TOO_LARGE = 3,  /* width x height above the caller's pixel budget */
    GS_PNG_NO_MEMORY = 4
};

#define GS_PNG_MESSAGE_SIZE 256

/* Straight (not premultiplied) RGBA8, rows packed, `pixels` owned by C. */
typedef struct {
    uint32_t width;
    uint32_t height;
    uint8_t *pixels;
    /* The data of an `npTc` chunk (Android's compiled nine-patch), owned by C;
       NULL when the file has none. */
    uint8_t *nine_patch;
    size_t nine_patch_length;
    /* The data of an `npLb` chunk (a compiled nine-patch's optical bounds), owned by C;
       NULL when the file has none. */
    uint8_t *layout_bounds;
    size_t layout_bounds_length;
    /* The file's bit depth per sample (1, 2, 4, 8 or 16), before any transform. */
    int bit_depth;
} gs_png_image;

/* gs_png_decode flags. */
enum {
    /* 16-bit samples keep their high byte (png_set_strip_16), as Android's
       resource compiler reads nine-patch markers, instead of accurate scaling. */
    GS_PNG_HIGH_BYTE = 1
};

/* Decodes a whole PNG held in memory per docs/RENDERING.md §4 (expand, scale_16,
   gray_to_rgb, add_alpha, interlace handling; colour-space chunks ignored).
   Refuses images above max_pixels before allocating them. `flags`: GS_PNG_* above. */
int gs_png_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                  int flags, gs_png_image *out, char *message);

void gs_png_image_free(gs_png_image *image);

#endif
