#include "deflate_shim.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One deflate state per thread, reset between pieces: deflateInit2 allocates
   about 270 KiB (window, hash chains, pending buffer), and on a batch of
   small outputs that allocation and its first-touch page faults cost more
   than compressing. The state always has a 32 KiB window: a smaller one
   (window_bits < 15) is asked for only when the whole stream fits in it with
   262 bytes to spare, and then no match can reach further than it, so the
   bytes are the same as with that window (the header, written by the caller,
   declares the smaller one). */
typedef struct {
    z_stream stream;
    int level;
} gs_deflater;

static pthread_key_t gs_deflater_key;
static pthread_once_t gs_deflater_once = PTHREAD_ONCE_INIT;

static void gs_deflater_free(void *pointer) {
    gs_deflater *deflater = pointer;
    deflateEnd(&deflater->stream);
    free(deflater);
}

static void gs_deflater_make_key(void) { (void)pthread_key_create(&gs_deflater_key, gs_deflater_free); }

/* This thread's state, reset, at `level`; NULL when out of memory. */
static z_stream *gs_deflater_get(int level, int *status) {
    pthread_once(&gs_deflater_once, gs_deflater_make_key);
    gs_deflater *deflater = pthread_getspecific(gs_deflater_key);
    if (deflater != NULL && deflater->level == level) {
        *status = deflateReset(&deflater->stream);
        return *status == Z_OK ? &deflater->stream : NULL;
    }
    if (deflater != NULL) {
        pthread_setspecific(gs_deflater_key, NULL);
        gs_deflater_free(deflater);
    }
    deflater = calloc(1, sizeof *deflater);
    if (deflater == NULL) { *status = Z_MEM_ERROR; return NULL; }
    *status = deflateInit2(&deflater->stream, level, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY);
    if (*status != Z_OK) { free(deflater); return NULL; }
    deflater->level = level;
    if (pthread_setspecific(gs_deflater_key, deflater) != 0) {
        gs_deflater_free(deflater);
        *status = Z_MEM_ERROR;
        return NULL;
    }
    return &deflater->stream;
}

int gs_deflate_piece(const uint8_t *dictionary, size_t dictionary_length,
                     const uint8_t *data, size_t length, int level, int window_bits,
                     int last, uint8_t **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    if (window_bits < 15 && dictionary_length + length + 262 > ((size_t)1 << window_bits)) return Z_STREAM_ERROR;
    int status = Z_OK;
    z_stream *stream = gs_deflater_get(level, &status);
    if (stream == NULL) return status;
    if (dictionary_length > 0) {
        status = deflateSetDictionary(stream, dictionary, (uInt)dictionary_length);
        if (status != Z_OK) return status;
    }
    /* deflateBound covers a finished stream; a sync flush adds at most 5 more
       bytes, and each 64 KiB-or-so stored block its own header. */
    size_t capacity = deflateBound(stream, (uLong)length) + 16 + length / 16384 * 5;
    uint8_t *buffer = (uint8_t *)malloc(capacity);
    if (buffer == NULL) return Z_MEM_ERROR;
    stream->next_out = buffer;
    stream->avail_out = (uInt)capacity;
    const uint8_t *next = data;
    size_t left = length;
    int flush = Z_NO_FLUSH;
    do {
        /* avail_in is 32 bits: feed at most 1 GiB a call. */
        size_t take = left < (1u << 30) ? left : (1u << 30);
        stream->next_in = (Bytef *)next;
        stream->avail_in = (uInt)take;
        next += take;
        left -= take;
        flush = left > 0 ? Z_NO_FLUSH : last ? Z_FINISH : Z_SYNC_FLUSH;
        status = deflate(stream, flush);
        if (status == Z_STREAM_ERROR || (status == Z_OK && stream->avail_out == 0 && (stream->avail_in > 0 || flush != Z_NO_FLUSH))) {
            free(buffer);
            return status == Z_STREAM_ERROR ? status : Z_BUF_ERROR;
        }
    } while (left > 0);
    if ((last && status != Z_STREAM_END) || (!last && status != Z_OK)) {
        free(buffer);
        return status == Z_OK ? Z_BUF_ERROR : status;
    }
    *out = buffer;
    *out_length = capacity - stream->avail_out;
    return Z_OK;
}

void gs_row_filter_up(const uint8_t *restrict data, const uint8_t *restrict above, uint8_t *restrict out, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = (uint8_t)(data[i] - above[i]);
}

void gs_row_filter_sums(const uint8_t *data, const uint8_t *above, size_t n,
                        uint64_t *as_is, uint64_t *less) {
    uint64_t a = 0, l = 0;
    size_t i = 0;
    while (i < n) {
        /* 32-bit totals over at most 2^20 bytes (each at most 128): no overflow. */
        size_t stop = n - i < ((size_t)1 << 20) ? n : i + ((size_t)1 << 20);
        uint32_t a32 = 0, l32 = 0;
        for (; i < stop; i++) {
            uint8_t v = data[i], d = (uint8_t)(v - above[i]);
            uint8_t nv = (uint8_t)(0u - v), nd = (uint8_t)(0u - d);
            a32 += v < nv ? v : nv;
            l32 += d < nd ? d : nd;
        }
        a += a32;
        l += l32;
    }
    *as_is = a;
    *less = l;
}

void gs_hash_enter(const uint8_t *data, long from, long to, long end, long *latest, long *older,
                   unsigned shift, long period, uint32_t multiplier) {
    /* data[k] == data[k + period] for every k from the last reset up to `agree`. */
    long agree = from, limit = end - 2 * period; /* a position before `limit` may be skipped */
    long last = (to < limit ? to : limit) + period + 3; /* the most of `agree` ever asked */
    long j = from;
    while (j < to) {
        if (j < limit) {
            if (agree < j) agree = j;
            while (agree + 8 <= last) {
                uint64_t a, b;
                memcpy(&a, data + agree, 8);
                memcpy(&b, data + agree + period, 8);
                if (a != b) break;
                agree += 8;
            }
            while (agree < last && data[agree] == data[agree + period]) agree++;
            /* j's word recurs period and 2 x period on where j + period + 4 <= agree. */
            long skipTo = agree - period - 3;
            if (skipTo > limit) skipTo = limit;
            if (skipTo > to) skipTo = to;
            if (j < skipTo) {
                j = skipTo;
                continue;
            }
        }
        uint32_t word;
        memcpy(&word, data + j, 4);
        word &= 0xFFFFFFu;
        uint32_t slot = (word * multiplier) >> shift;
        older[slot] = latest[slot];
        latest[slot] = j;
        j++;
    }
}

/* A filtered byte's distance from 0, read as signed: what the least-sum rule adds up. */
static inline uint32_t gs_signed_distance(uint8_t v) { return v < 128 ? v : 256u - v; }

/* Row `raw` filtered by PNG filter `type` (0-4) into `out` (`above` NULL: zeros), and its bytes'
 * summed distance from 0. Each filter is a loop of its own, its first `bpp` bytes apart, so the
 * compiler vectorises it (a switch a byte, in one loop for all five, took a third of `small`'s time). */
static uint64_t gs_filter_row_sum(const uint8_t *restrict raw, const uint8_t *restrict above, uint8_t *restrict out,
                                  long n, long bpp, int type) {
    long head = bpp < n ? bpp : n;
    uint64_t sum = 0;
    switch (type) {
    case 0:
        for (long i = 0; i < n; i++) out[i] = raw[i];
        break;
    case 1:
        for (long i = 0; i < head; i++) out[i] = raw[i];
        for (long i = head; i < n; i++) out[i] = (uint8_t)(raw[i] - raw[i - bpp]);
        break;
    case 2:
        if (above) {
            for (long i = 0; i < n; i++) out[i] = (uint8_t)(raw[i] - above[i]);
        } else {
            for (long i = 0; i < n; i++) out[i] = raw[i];
        }
        break;
    case 3:
        if (above) {
            for (long i = 0; i < head; i++) out[i] = (uint8_t)(raw[i] - (above[i] >> 1));
            for (long i = head; i < n; i++) out[i] = (uint8_t)(raw[i] - ((raw[i - bpp] + above[i]) >> 1));
        } else {
            for (long i = 0; i < head; i++) out[i] = raw[i];
            for (long i = head; i < n; i++) out[i] = (uint8_t)(raw[i] - (raw[i - bpp] >> 1));
        }
        break;
    default:
        if (above) {
            /* Before `bpp`, a = c = 0: Paeth predicts b. */
            for (long i = 0; i < head; i++) out[i] = (uint8_t)(raw[i] - above[i]);
            for (long i = head; i < n; i++) {
                int a = raw[i - bpp], b = above[i], c = above[i - bpp];
                int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
                int p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
                out[i] = (uint8_t)(raw[i] - p);
            }
        } else {
            /* No row above: b = c = 0, so Paeth predicts a (as Sub). */
            for (long i = 0; i < head; i++) out[i] = raw[i];
            for (long i = head; i < n; i++) out[i] = (uint8_t)(raw[i] - raw[i - bpp]);
        }
        break;
    }
    /* 32-bit sums over at most 2^24 bytes (each at most 128), then carried. */
    for (long i = 0; i < n;) {
        long stop = n - i < (1L << 24) ? n : i + (1L << 24);
        uint32_t part = 0;
        for (; i < stop; i++) part += gs_signed_distance(out[i]);
        sum += part;
    }
    return sum;
}

long gs_filter_least_sum(const uint8_t *raw, long rows, long row_bytes, long bpp, uint8_t *out) {
    long n = row_bytes - 1;
    uint8_t *trial = malloc(n > 0 ? (size_t)n : 1);
    if (!trial) return -1;
    for (long r = 0; r < rows; r++) {
        const uint8_t *line = raw + r * row_bytes + 1, *above = r > 0 ? line - row_bytes : NULL;
        uint8_t *dest = out + r * row_bytes;
        uint64_t best = UINT64_MAX;
        /* The filter whose bytes sum least, the first of equals; filtered straight into place when
         * it is the first so far, else into `trial` and copied. */
        for (int type = 0; type <= 4; type++) {
            uint64_t sum = gs_filter_row_sum(line, above, trial, n, bpp, type);
            if (sum < best) {
                best = sum;
                dest[0] = (uint8_t)type;
                memcpy(dest + 1, trial, (size_t)n);
            }
        }
    }
    free(trial);
    return 0;
}

long gs_libdeflate_raw(const uint8_t *data, long count, int level, uint8_t **out) {
    struct libdeflate_compressor *compressor = libdeflate_alloc_compressor(level);
    if (!compressor) return -1;
    size_t bound = libdeflate_deflate_compress_bound(compressor, (size_t)count);
    uint8_t *buffer = malloc(bound);
    if (!buffer) {
        libdeflate_free_compressor(compressor);
        return -1;
    }
    size_t length = libdeflate_deflate_compress(compressor, data, (size_t)count, buffer, bound);
    libdeflate_free_compressor(compressor);
    if (length == 0) {
        free(buffer);
        return -1;
    }
    *out = buffer;
    return (long)length;
}
