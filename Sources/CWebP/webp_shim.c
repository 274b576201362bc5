#include "webp_shim.h"

#include <webp/decode.h>
#include <webp/encode.h>

int gs_webp_encode_lossless(const uint8_t *rgba, int width, int height, int stride, int level,
                            uint8_t **out, size_t *size) {
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
    *out = writer.mem;
    *size = writer.size;
    return 0;
}

uint8_t *gs_webp_decode_rgba(const uint8_t *data, size_t size, int *width, int *height) {
    return WebPDecodeRGBA(data, size, width, height);
}

void gs_webp_free(void *pointer) { WebPFree(pointer); }

int gs_webp_encoder_version(void) { return WebPGetEncoderVersion(); }
