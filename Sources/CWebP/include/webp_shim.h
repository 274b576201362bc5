#ifndef GLSLICE_WEBP_SHIM_H
#define GLSLICE_WEBP_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// Encodes straight RGBA8 rows as lossless WebP (every pixel value kept,
/// `exact`), with libwebp's lossless preset `level` (0 fastest … 9 smallest).
/// With `xmp` (not NULL), the file is assembled by libwebpmux with that XMP
/// packet as its `XMP ` chunk (the extended format: VP8X, VP8L, XMP).
/// On success returns 0 and sets *out (free it with gs_webp_free) and *size;
/// else returns libwebp's WebPEncodingError, -1 when a setting was refused, or
/// -2 when libwebpmux could not add the chunk.
int gs_webp_encode_lossless(const uint8_t *rgba, int width, int height, int stride, int level,
                            const uint8_t *xmp, size_t xmp_size, uint8_t **out, size_t *size);

/// Decodes a WebP into straight RGBA8 (for tests: libwebp's own decoder).
/// Returns NULL when it is not a WebP it can read; free with gs_webp_free.
uint8_t *gs_webp_decode_rgba(const uint8_t *data, size_t size, int *width, int *height);

enum { GS_WEBP_OK = 0, GS_WEBP_NOT_WEBP = 1, GS_WEBP_TOO_LARGE = 2, GS_WEBP_CORRUPT = 3 };

/// Decodes a WebP into straight RGBA8 after reading its size from the header,
/// refusing one of more than `max_pixels` before anything is allocated.
/// Returns a GS_WEBP_ status; on GS_WEBP_OK *pixels is set (free with gs_webp_free).
/// *width and *height are set whenever the header could be read.
int gs_webp_decode_limited(const uint8_t *data, size_t size, uint64_t max_pixels,
                           uint8_t **pixels, int *width, int *height);

void gs_webp_free(void *pointer);

/// libwebp's encoder version, 0xMMmmpp.
int gs_webp_encoder_version(void);

#endif
