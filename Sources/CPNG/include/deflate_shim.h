#ifndef GLSLICE_DEFLATE_SHIM_H
#define GLSLICE_DEFLATE_SHIM_H

#include <stddef.h>
#include <stdint.h>

/* zlib's checksums, callable from Swift as they are (plain functions). */
#include <zlib.h>

/* One piece of a segmented zlib stream: raw deflate (no header, no trailer)
   of `data`, primed with `dictionary` (the up to 32 KiB of uncompressed data
   just before it, so matches may reach back into it), at zlib `level` with a
   window of 2^window_bits bytes (9-15). The output ends with a sync flush
   (byte-aligned, not final) unless `last` is non-zero, when it ends in the
   final block. `*out` receives a malloc'd buffer the caller frees, `*out_length`
   its length. Returns Z_OK, or a zlib error code with nothing allocated.
   pigz and mtpng cut streams the same way: pieces compressed on separate
   threads concatenate into one valid stream. */
int gs_deflate_piece(const uint8_t *dictionary, size_t dictionary_length,
                     const uint8_t *data, size_t length, int level, int window_bits,
                     int last, uint8_t **out, size_t *out_length);

/* `fast`'s row filter choice (RowFilter.swift): over `n` bytes, the sum of
   each byte taken as signed (0 to 128) as it is, into `*as_is`, and less the
   byte above, into `*less`. In C so the loop vectorizes (in Swift, a byte at a
   time, it was a quarter of an HD palette's encoding). */
void gs_row_filter_sums(const uint8_t *data, const uint8_t *above, size_t n,
                        uint64_t *as_is, uint64_t *less);

#endif
