#include "crypto_shim.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

static const uint8_t empty[1] = {0};

int gs_sha256(const uint8_t *data, size_t count, uint8_t *digest) {
    unsigned int length = 0;
    return EVP_Digest(data ? data : empty, count, digest, &length, EVP_sha256(), NULL) == 1 && length == 32;
}

int gs_hmac_sha256(const uint8_t *key, size_t key_count, const uint8_t *data, size_t count, uint8_t *mac) {
    unsigned int length = 0;
    if (key_count > 0x7FFFFFFF) return 0;
    return HMAC(EVP_sha256(), key ? key : empty, (int)key_count, data ? data : empty, count, mac, &length) != NULL
        && length == 32;
}

int gs_equal_in_constant_time(const uint8_t *a, const uint8_t *b, size_t count) {
    return CRYPTO_memcmp(a, b, count) == 0;
}
