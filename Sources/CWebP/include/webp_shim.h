#ifndef GLSLICE_WEBP_SHIM_H
#define GLSLICE_WEBP_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// Encodes straight RGBA8 rows as lossless WebP (every pixel value kept,
/// `exact`), with libwebp's lossless preset `level` (0 fastest … 9 smallest).
/// On success returns 0 and sets *out (free it with gs_webp_free) and *size;
/// else returns libwebp's WebPEncodingError, or -1 when a setting was refused.
int gs_webp_encode_lossless(const uint8_t *rgba, int width, int height, int stride, int level,
                            uint8_t **out, size_t *size);

/// Decodes a WebP into straight RGBA8 (for tests: libwebp's own decoder).
/// Returns NULL when it is not a WebP it can read; free with gs_webp_free.
uint8_t *gs_webp_decode_rgba(const uint8_t *data, size_t size, int *width, int *height);

void gs_webp_free(void *pointer);

/// libwebp's encoder version, 0xMMmmpp.
int gs_webp_encoder_version(void);

#endif
