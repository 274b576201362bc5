#ifndef GLSLICE_DEFLATE_SHIM_H
#define GLSLICE_DEFLATE_SHIM_H

#include <stddef.h>
#include <stdint.h>

/* zlib's checksums, callable from Swift as they are (plain functions), and libdeflate's
   Adler-32: vectorised, 18x zlib's on this VM (72 GB/s against 4), where zlib's was 4% of
   a batch's time. */
#include <zlib.h>
#include <libdeflate.h>

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

/* out[i] = data[i] - above[i] (PNG's Up), n bytes; out overlaps neither (RowFilter.apply). */
void gs_row_filter_up(const uint8_t *restrict data, const uint8_t *restrict above, uint8_t *restrict out, size_t n);

/* `fast`'s row filter choice (RowFilter.swift): over `n` bytes, the sum of
   each byte taken as signed (0 to 128) as it is, into `*as_is`, and less the
   byte above, into `*less`. In C so the loop vectorizes (in Swift, a byte at a
   time, it was a quarter of an HD palette's encoding). */
void gs_row_filter_sums(const uint8_t *data, const uint8_t *above, size_t n,
                        uint64_t *as_is, uint64_t *less);

/* Enters positions `from`..`to` - 1 of `data` in `fast`'s hash table: each position's
   first 3 bytes (a little-endian word's low 24 bits), times `multiplier`, shifted right by `shift`, is a slot; the slot's
   position moves to `older` and the position goes in `latest`. A position whose word
   recurs `period` and 2 x `period` bytes on, both before `end` (entered by this call or
   the next ones, up to `end`), is skipped: it would end as neither of its slot's last
   two. So the tables end as entering every position leaves them, with a fraction of the
   stores where bytes repeat (`period`: a pixel's bytes, or a tiled part's period).
   Reads up to `end` + 2. */
void gs_hash_enter(const uint8_t *data, long from, long to, long end, long *latest, long *older,
                   unsigned shift, long period, uint32_t multiplier);

/* `small`'s other filtering (issue 71): `rows` scanlines of `row_bytes` at `raw`, each filtered
   None (its filter byte ignored), written to `out` (as many bytes) each by the PNG filter (0-4)
   whose bytes, taken as signed, sum least: the PNG specification's heuristic (libpng's and
   zopflipng's "minimum sum"), with pixels `bpp` bytes apart (1 below a byte). Returns 0, or -1
   without memory. */
long gs_filter_least_sum(const uint8_t *raw, long rows, long row_bytes, long bpp, uint8_t *out);

/* libdeflate's raw deflate (one final block chain) of `count` bytes at `level` (1-12) into a
   malloc'd `*out` the caller frees; its length, or -1 (no memory, no room). */
long gs_libdeflate_raw(const uint8_t *data, long count, int level, uint8_t **out);

#endif
