#define _GNU_SOURCE
#include "png_shim.h"

#include <png.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zlib.h>

typedef struct {
    const uint8_t *data;
    size_t length;
    size_t position;
    char message[GS_PNG_MESSAGE_SIZE];
} read_context;

static void set_message(char *dst, const char *text) {
    if (dst == NULL) return;
    snprintf(dst, GS_PNG_MESSAGE_SIZE, "%s", text ? text : "unknown libpng error");
}

static void on_read_error(png_structp png, png_const_charp text) {
    read_context *ctx = (read_context *)png_get_error_ptr(png);
    set_message(ctx->message, text);
    png_longjmp(png, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text; /* warnings (e.g. a bad ancillary CRC) are not failures */
}

static void on_read(png_structp png, png_bytep out, size_t count) {
    read_context *ctx = (read_context *)png_get_io_ptr(png);
    if (ctx->length - ctx->position < count) {
        png_error(png, "file is truncated");
    }
    memcpy(out, ctx->data + ctx->position, count);
    ctx->position += count;
}

static int check_signature(const uint8_t *data, size_t length, char *message) {
    if (length < 8 || png_sig_cmp((png_const_bytep)data, 0, 8) != 0) {
        set_message(message, "not a PNG file (bad signature)");
        return GS_PNG_NOT_PNG;
    }
    return GS_PNG_OK;
}

/* Creates a read struct and info struct over `ctx`; on failure fills `message`. */
static int open_reader(read_context *ctx, png_structp *png, png_infop *info, char *message) {
    *png = png_create_read_struct(PNG_LIBPNG_VER_STRING, ctx, on_read_error, on_warning);
    *info = *png ? png_create_info_struct(*png) : NULL;
    if (*png == NULL || *info == NULL) {
        if (*png != NULL) png_destroy_read_struct(png, NULL, NULL);
        set_message(message, "out of memory");
        return GS_PNG_NO_MEMORY;
    }
    /* Sides up to PNG's own limit: the caller's pixel budget bounds the area. */
    png_set_user_limits(*png, 0x7fffffffu, 0x7fffffffu);
    png_set_read_fn(*png, ctx, on_read);
    return GS_PNG_OK;
}

/* What gs_png_decode allocates while libpng may still longjmp. It lives on the
   heap: a local changed after setjmp would be indeterminate after the jump. */
typedef struct {
    uint8_t *pixels;
    png_bytep *rows;
    int failure; /* the status to return when libpng jumps back, 0 for GS_PNG_CORRUPT */
} decode_buffers;

/* GS_PNG_TOO_LARGE (with a message) when the header's size is above the budget,
   so nothing is allocated for it. */
static int check_size(png_structp png, png_infop info, uint64_t max_pixels, char *message) {
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    if ((uint64_t)width * (uint64_t)height <= max_pixels) return GS_PNG_OK;
    snprintf(message, GS_PNG_MESSAGE_SIZE, "image is %ux%u = %llu pixels, above the limit of %llu",
             (unsigned)width, (unsigned)height, (unsigned long long)((uint64_t)width * height),
             (unsigned long long)max_pixels);
    return GS_PNG_TOO_LARGE;
}

/* Every colour type, depth and interlace to straight RGBA8 (docs/RENDERING.md §4);
   colour-space chunks are not applied. May longjmp. */
static void set_rgba8_transforms(png_structp png, png_infop info, read_context *ctx, int flags) {
    png_set_expand(png);
    if (flags & GS_PNG_HIGH_BYTE) png_set_strip_16(png); else png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t rowbytes = png_get_rowbytes(png, info);
    if (rowbytes != (size_t)png_get_image_width(png, info) * 4) {
        snprintf(ctx->message, sizeof ctx->message, "unexpected row size %zu after transforms", rowbytes);
        png_error(png, ctx->message);
    }
}

/* Allocates the image and its row pointers into `buffers` and reads every row. May longjmp. */
static void read_rows(png_structp png, png_infop info, decode_buffers *buffers) {
    png_uint_32 width = png_get_image_width(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    size_t total = (size_t)width * (size_t)height * 4;
    buffers->pixels = (uint8_t *)malloc(total ? total : 1);
    buffers->rows = (png_bytep *)malloc(sizeof(png_bytep) * (height ? height : 1));
    if (buffers->pixels == NULL || buffers->rows == NULL) {
        buffers->failure = GS_PNG_NO_MEMORY;
        png_error(png, "out of memory");
    }
    for (png_uint_32 y = 0; y < height; y++) buffers->rows[y] = buffers->pixels + (size_t)y * width * 4;
    png_read_image(png, buffers->rows);
    png_read_end(png, info);
}

/* Copies the first chunk called `name` among the kept unknown chunks, if any. */
static void copy_chunk(png_structp png, png_infop info, const char *name, uint8_t **data, size_t *length) {
    png_unknown_chunkp unknowns = NULL;
    int count = png_get_unknown_chunks(png, info, &unknowns);
    for (int i = 0; i < count && *data == NULL; i++) {
        if (memcmp(unknowns[i].name, name, 4) != 0) continue;
        *data = (uint8_t *)malloc(unknowns[i].size ? unknowns[i].size : 1);
        if (*data == NULL) return;
        memcpy(*data, unknowns[i].data, unknowns[i].size);
        *length = unknowns[i].size;
    }
}

int gs_png_decode(const uint8_t *data, size_t length, uint64_t max_pixels,
                  int flags, gs_png_image *out, char *message) {
    memset(out, 0, sizeof *out);
    int status = check_signature(data, length, message);
    if (status != GS_PNG_OK) return status;

    read_context ctx = {data, length, 0, {0}};
    png_structp png;
    png_infop info;
    status = open_reader(&ctx, &png, &info, message);
    if (status != GS_PNG_OK) return status;
    decode_buffers *buffers = (decode_buffers *)calloc(1, sizeof *buffers);
    if (buffers == NULL) {
        png_destroy_read_struct(&png, &info, NULL);
        set_message(message, "out of memory");
        return GS_PNG_NO_MEMORY;
    }
    if (setjmp(png_jmpbuf(png))) {
        set_message(message, ctx.message);
        int failure = buffers->failure ? buffers->failure : GS_PNG_CORRUPT;
        free(buffers->rows);
        free(buffers->pixels);
        free(buffers);
        png_destroy_read_struct(&png, &info, NULL);
        return failure;
    }
    /* Let the caller's pixel budget, not libpng's 1M-per-side default, decide. */
    png_set_user_limits(png, 0x7fffffff, 0x7fffffff);
    static const png_byte nine_patch_chunks[10] = {'n', 'p', 'T', 'c', '\0', 'n', 'p', 'L', 'b', '\0'};
    png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_ALWAYS, nine_patch_chunks, 2);
    png_read_info(png, info);
    status = check_size(png, info, max_pixels, message);
    if (status == GS_PNG_OK) {
        out->bit_depth = png_get_bit_depth(png, info);
        set_rgba8_transforms(png, info, &ctx, flags);
        read_rows(png, info, buffers);
        copy_chunk(png, info, "npTc", &out->nine_patch, &out->nine_patch_length);
        copy_chunk(png, info, "npLb", &out->layout_bounds, &out->layout_bounds_length);
        out->width = png_get_image_width(png, info);
        out->height = png_get_image_height(png, info);
        out->pixels = buffers->pixels;
    }
    free(buffers->rows);
    free(buffers);
    png_destroy_read_struct(&png, &info, NULL);
    return status;
}

void gs_png_image_free(gs_png_image *image) {
    if (image == NULL) return;
    free(image->pixels);
    image->pixels = NULL;
    free(image->nine_patch);
    image->nine_patch = NULL;
    free(image->layout_bounds);
    image->layout_bounds = NULL;
}
