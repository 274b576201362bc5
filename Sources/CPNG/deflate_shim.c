#include "deflate_shim.h"

#include <stdlib.h>
#include <string.h>

int gs_deflate_piece(const uint8_t *dictionary, size_t dictionary_length,
                     const uint8_t *data, size_t length, int level, int window_bits,
                     int last, uint8_t **out, size_t *out_length) {
    *out = NULL;
    *out_length = 0;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    int status = deflateInit2(&stream, level, Z_DEFLATED, -window_bits, 8, Z_DEFAULT_STRATEGY);
    if (status != Z_OK) return status;
    if (dictionary_length > 0) {
        status = deflateSetDictionary(&stream, dictionary, (uInt)dictionary_length);
        if (status != Z_OK) { deflateEnd(&stream); return status; }
    }
    /* deflateBound covers a finished stream; a sync flush adds at most 5 more
       bytes, and each 64 KiB-or-so stored block its own header. */
    size_t capacity = deflateBound(&stream, (uLong)length) + 16 + length / 16384 * 5;
    uint8_t *buffer = (uint8_t *)malloc(capacity);
    if (buffer == NULL) { deflateEnd(&stream); return Z_MEM_ERROR; }
    stream.next_out = buffer;
    stream.avail_out = (uInt)capacity;
    const uint8_t *next = data;
    size_t left = length;
    int flush = Z_NO_FLUSH;
    do {
        /* avail_in is 32 bits: feed at most 1 GiB a call. */
        size_t take = left < (1u << 30) ? left : (1u << 30);
        stream.next_in = (Bytef *)next;
        stream.avail_in = (uInt)take;
        next += take;
        left -= take;
        flush = left > 0 ? Z_NO_FLUSH : last ? Z_FINISH : Z_SYNC_FLUSH;
        status = deflate(&stream, flush);
        if (status == Z_STREAM_ERROR || (status == Z_OK && stream.avail_out == 0 && (stream.avail_in > 0 || flush != Z_NO_FLUSH))) {
            free(buffer);
            deflateEnd(&stream);
            return status == Z_STREAM_ERROR ? status : Z_BUF_ERROR;
        }
    } while (left > 0);
    if ((last && status != Z_STREAM_END) || (!last && status != Z_OK)) {
        free(buffer);
        deflateEnd(&stream);
        return status == Z_OK ? Z_BUF_ERROR : status;
    }
    *out = buffer;
    *out_length = capacity - stream.avail_out;
    deflateEnd(&stream);
    return Z_OK;
}
