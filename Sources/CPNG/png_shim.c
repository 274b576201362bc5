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

/* Encoded bytes collect here and reach the file in large write(2) calls: a
   typical output is one call, a giant one streams at this buffer's size. */
#define GS_WRITE_BUFFER (64 * 1024)

struct gs_png_writer {
    png_structp png;
    png_infop info;
    int fd;               /* -1: the bytes collect in `memory` instead */
    uint8_t *memory;
    size_t memory_capacity;
    size_t used;
    uint64_t total;
    char message[GS_PNG_MESSAGE_SIZE];
    uint8_t buffer[GS_WRITE_BUFFER];
};

static void on_write_error(png_structp png, png_const_charp text) {
    gs_png_writer *w = (gs_png_writer *)png_get_error_ptr(png);
    set_message(w->message, text);
    png_longjmp(png, 1);
}

/* Writes the buffer out; 0 on success, else errno. */
static int writer_drain(gs_png_writer *w) {
    if (w->fd < 0) {
        size_t need = (size_t)w->total + w->used;
        if (need > w->memory_capacity) {
            size_t capacity = w->memory_capacity ? w->memory_capacity : GS_WRITE_BUFFER;
            while (capacity < need) capacity *= 2;
            uint8_t *grown = (uint8_t *)realloc(w->memory, capacity);
            if (grown == NULL) return ENOMEM;
            w->memory = grown;
            w->memory_capacity = capacity;
        }
        memcpy(w->memory + w->total, w->buffer, w->used);
        w->total += w->used;
        w->used = 0;
        return 0;
    }
    size_t done = 0;
    while (done < w->used) {
        ssize_t n = write(w->fd, w->buffer + done, w->used - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n < 0 ? errno : EIO;
        done += (size_t)n;
    }
    w->total += w->used;
    w->used = 0;
    return 0;
}

static void on_write(png_structp png, png_bytep data, png_size_t length) {
    gs_png_writer *w = (gs_png_writer *)png_get_io_ptr(png);
    while (length > 0) {
        size_t room = GS_WRITE_BUFFER - w->used;
        size_t n = length < room ? length : room;
        memcpy(w->buffer + w->used, data, n);
        w->used += n;
        data += n;
        length -= n;
        if (w->used == GS_WRITE_BUFFER) {
            int failure = writer_drain(w);
            if (failure != 0) {
                char text[GS_PNG_MESSAGE_SIZE];
                snprintf(text, sizeof text, "write failed: %s", strerror(failure));
                png_error(png, text);
            }
        }
    }
}

static void on_flush(png_structp png) { (void)png; }

static void writer_release(gs_png_writer *w) {
    if (w == NULL) return;
    if (w->png != NULL) png_destroy_write_struct(&w->png, &w->info);
    free(w->memory);
    free(w);
}

gs_png_writer *gs_png_writer_open(int fd, uint32_t width, uint32_t height,
                                  int channels, const uint8_t *palette,
                                  int palette_count, int level, int filters,
                                  const char *text_key, const char *text_value,
                                  char *message) {
    gs_png_writer *w = (gs_png_writer *)malloc(sizeof *w);
    if (w == NULL) { set_message(message, "out of memory"); return NULL; }
    w->png = NULL;
    w->info = NULL;
    w->fd = fd;
    w->memory = NULL;
    w->memory_capacity = 0;
    w->used = 0;
    w->total = 0;
    w->message[0] = 0;
    w->png = png_create_write_struct(PNG_LIBPNG_VER_STRING, w, on_write_error, on_warning);
    if (w->png != NULL) w->info = png_create_info_struct(w->png);
    if (w->png == NULL || w->info == NULL) {
        set_message(message, "out of memory");
        writer_release(w);
        return NULL;
    }
    if (setjmp(png_jmpbuf(w->png))) {
        set_message(message, w->message);
        writer_release(w);
        return NULL;
    }
    png_set_write_fn(w->png, w, on_write, on_flush);
    /* libpng's default user limit is 1,000,000 px a side; PNG itself allows
       2^31-1, and glslice checks sizes against its own limits before rendering. */
    png_set_user_limits(w->png, 0x7fffffffu, 0x7fffffffu);
    if (channels == 1) {
        if (palette == NULL || palette_count < 1 || palette_count > 256) {
            set_message(message, "an indexed PNG needs 1 to 256 palette entries");
            writer_release(w);
            return NULL;
        }
        int depth = palette_count <= 2 ? 1 : palette_count <= 4 ? 2 : palette_count <= 16 ? 4 : 8;
        png_set_IHDR(w->png, w->info, width, height, depth, PNG_COLOR_TYPE_PALETTE,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
        png_color colours[256];
        png_byte alphas[256];
        int translucent = 0;
        for (int i = 0; i < palette_count; i++) {
            colours[i].red = palette[4 * i];
            colours[i].green = palette[4 * i + 1];
            colours[i].blue = palette[4 * i + 2];
            alphas[i] = palette[4 * i + 3];
            if (alphas[i] != 255) translucent = i + 1;
        }
        png_set_PLTE(w->png, w->info, colours, palette_count);
        if (translucent > 0) png_set_tRNS(w->png, w->info, alphas, translucent, NULL);
    } else {
        png_set_IHDR(w->png, w->info, width, height, 8,
                     channels == 3 ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
                     PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    }
    png_set_filter(w->png, PNG_FILTER_TYPE_BASE, filters);
    png_set_compression_level(w->png, level);
    if (text_key != NULL && text_value != NULL) {
        png_text text;
        memset(&text, 0, sizeof text);
        text.compression = PNG_TEXT_COMPRESSION_NONE;
        text.key = (png_charp)text_key;
        text.text = (png_charp)text_value;
        png_set_text(w->png, w->info, &text, 1);
    }
    png_write_info(w->png, w->info);
    if (channels == 3) png_set_filler(w->png, 0, PNG_FILLER_AFTER); /* strips alpha */
    if (channels == 1) png_set_packing(w->png); /* one index per byte in, 1-8 bits out */
    return w;
}

int gs_png_writer_write_rows(gs_png_writer *w, const uint8_t *rows, uint32_t count,
                             size_t stride, char *message) {
    if (setjmp(png_jmpbuf(w->png))) {
        set_message(message, w->message);
        return GS_PNG_IO;
    }
    for (uint32_t i = 0; i < count; i++) {
        png_write_row(w->png, (png_const_bytep)(rows + (size_t)i * stride));
    }
    return GS_PNG_OK;
}

int gs_png_writer_finish(gs_png_writer *w, uint64_t *bytes, char *message) {
    return gs_png_writer_finish_memory(w, NULL, bytes, message);
}

int gs_png_writer_finish_memory(gs_png_writer *w, uint8_t **memory, uint64_t *bytes, char *message) {
    *bytes = 0;
    if (memory != NULL) *memory = NULL;
    if (setjmp(png_jmpbuf(w->png))) {
        set_message(message, w->message);
        writer_release(w);
        return GS_PNG_IO;
    }
    png_write_end(w->png, NULL);
    png_destroy_write_struct(&w->png, &w->info);
    w->png = NULL;
    int failure = writer_drain(w);
    *bytes = w->total;
    if (failure == 0 && memory != NULL) {
        *memory = w->memory;
        w->memory = NULL;
    }
    writer_release(w);
    if (failure != 0) {
        *bytes = 0;
        char text[GS_PNG_MESSAGE_SIZE];
        snprintf(text, sizeof text, "write failed: %s", strerror(failure));
        set_message(message, text);
        return GS_PNG_IO;
    }
    return GS_PNG_OK;
}

void gs_png_writer_abort(gs_png_writer *w) { writer_release(w); }

int gs_png_filter_none(void) { return PNG_FILTER_NONE; }


