#ifndef GLSLICE_PNG_SHIM_H
#define GLSLICE_PNG_SHIM_H

#include <stddef.h>
#include <stdint.h>

/* Every libpng call, its setjmp and its cleanup live in png_shim.c; these
   functions return a status and fill `message`, so no longjmp ever crosses a
   Swift frame. */

enum {
    GS_PNG_OK = 0,
    GS_PNG_NOT_PNG = 1,    /* signature does not match */
    GS_PNG_CORRUPT = 2,    /* libpng refused the data */
    GS_PNG_TOO_LARGE = 3,  /* width x height above the caller's pixel budget */
    GS_PNG_NO_MEMORY = 4,
    GS_PNG_IO = 5          /* the output could not be opened or written */
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

typedef struct gs_png_writer gs_png_writer;

/* Opens a streaming encoder on `fd`, which stays the caller's to close; with
   fd -1 the PNG collects in memory (see gs_png_writer_finish_memory).
   channels: 1 (indexed: rows hold one palette index per byte, packed here to
   1, 2, 4 or 8 bits as the palette's size allows), 3 (the alpha byte of each
   RGBA input pixel is dropped) or 4.
   palette: `palette_count` (1-256) straight RGBA entries when channels is 1,
   written as PLTE plus a tRNS that stops after the last translucent entry.
   filters: a PNG_FILTER_* mask as libpng defines it; level: zlib 0-9.
   text_key/text_value: an optional tEXt chunk (both NULL for none). */
gs_png_writer *gs_png_writer_open(int fd, uint32_t width, uint32_t height,
                                  int channels, const uint8_t *palette,
                                  int palette_count, int level, int filters,
                                  const char *text_key, const char *text_value,
                                  char *message);

/* Writes `count` rows of straight RGBA8 (or indices, for channels 1),
   `stride` bytes apart. */
int gs_png_writer_write_rows(gs_png_writer *writer, const uint8_t *rows,
                             uint32_t count, size_t stride, char *message);

/* Writes IEND and the bytes still buffered; frees the writer in every case.
   `bytes` receives the number of bytes written. */
int gs_png_writer_finish(gs_png_writer *writer, uint64_t *bytes, char *message);

/* The same for a writer opened on fd -1: `memory` receives the PNG (`bytes`
   long), which the caller frees with free(); NULL on failure. */
int gs_png_writer_finish_memory(gs_png_writer *writer, uint8_t **memory, uint64_t *bytes, char *message);

/* Frees without finishing (the caller removes the file). */
void gs_png_writer_abort(gs_png_writer *writer);

/* libpng's "no filter" mask, re-exported so Swift need not import png.h. */
int gs_png_filter_none(void);

#endif
