#include "webp_shim.h"

#include <string.h>

#include <webp/decode.h>
#include <webp/encode.h>
#include <webp/mux.h>

static int add_xmp(WebPMemoryWriter *writer, const uint8_t *xmp, size_t xmp_size, uint8_t **out, size_t *size) {
    WebPData image = {writer->mem, writer->size};
    WebPMux *mux = WebPMuxCreate(&image, 1);
    if (mux == NULL) return -2;
    WebPData chunk = {xmp, xmp_size};
    WebPData assembled;
    WebPDataInit(&assembled);
    int ok = WebPMuxSetChunk(mux, "XMP ", &chunk, 1) == WEBP_MUX_OK && WebPMuxAssemble(mux, &assembled) == WEBP_MUX_OK;
    WebPMuxDelete(mux);
    if (!ok) {
        WebPDataClear(&assembled);
        return -2;
    }
    *out = (uint8_t *)assembled.bytes;
    *size = assembled.size;
    return 0;
}

int gs_webp_encode_lossless(const uint8_t *rgba, int width, int height, int stride, int level,
                            const uint8_t *xmp, size_t xmp_size, uint8_t **out, size_t *size) {
    *out = NULL;
    *size = 0;
    WebPConfig config;
    if (!WebPConfigInit(&config) || !WebPConfigLosslessPreset(&config, level)) return -1;
    config.exact = 1; // keep the RGB of transparent pixels as given (they are 0 already)
    if (!WebPValidateConfig(&config)) return -1;
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) return -1;
    picture.use_argb = 1;
    picture.width = width;
    picture.height = height;
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    if (!WebPPictureImportRGBA(&picture, rgba, stride)) {
        int error = picture.error_code;
        WebPPictureFree(&picture);
        WebPMemoryWriterClear(&writer);
        return error != 0 ? error : -1;
    }
    int ok = WebPEncode(&config, &picture);
    int error = picture.error_code;
    WebPPictureFree(&picture);
    if (!ok) {
        WebPMemoryWriterClear(&writer);
        return error != 0 ? error : -1;
    }
    if (xmp != NULL) {
        int status = add_xmp(&writer, xmp, xmp_size, out, size);
        WebPMemoryWriterClear(&writer);
        return status;
    }
    *out = writer.mem;
    *size = writer.size;
    return 0;
}

uint8_t *gs_webp_decode_rgba(const uint8_t *data, size_t size, int *width, int *height) {
    return WebPDecodeRGBA(data, size, width, height);
}

int gs_webp_decode_limited(const uint8_t *data, size_t size, uint64_t max_pixels,
                           uint8_t **pixels, int *width, int *height) {
    *pixels = NULL;
    *width = 0;
    *height = 0;
    if (size < 12 || memcmp(data, "RIFF", 4) != 0 || memcmp(data + 8, "WEBP", 4) != 0) return GS_WEBP_NOT_WEBP;
    if (!WebPGetInfo(data, size, width, height)) return GS_WEBP_CORRUPT;
    if ((uint64_t)*width * (uint64_t)*height > max_pixels) return GS_WEBP_TOO_LARGE;
    *pixels = WebPDecodeRGBA(data, size, width, height);
    return *pixels != NULL ? GS_WEBP_OK : GS_WEBP_CORRUPT;
}

void gs_webp_free(void *pointer) { WebPFree(pointer); }

int gs_webp_encoder_version(void) { return WebPGetEncoderVersion(); }
