#ifndef GLSLICE_CRYPTO_SHIM_H
#define GLSLICE_CRYPTO_SHIM_H

#include <stddef.h>
#include <stdint.h>

/* SHA-256 and HMAC-SHA256 from the system's libcrypto (Debian's libssl-dev), as
   libpng is used: a small C shim, so no TLS library is compiled for glslice
   (swift-crypto compiled BoringSSL, 393 of a fresh build's 436 steps: issue 70). */

/* SHA-256 of `count` bytes at `data` into `digest` (32 bytes). 1 on success, 0 on failure. */
int gs_sha256(const uint8_t *_Nullable data, size_t count, uint8_t *_Nonnull digest);

/* HMAC-SHA256 of `count` bytes at `data` under `key` into `mac` (32 bytes). 1 on success, 0 on failure. */
int gs_hmac_sha256(const uint8_t *_Nullable key, size_t key_count, const uint8_t *_Nullable data, size_t count,
                   uint8_t *_Nonnull mac);

/* 1 when the `count` bytes at `a` and `b` are equal, compared in constant time (CRYPTO_memcmp). */
int gs_equal_in_constant_time(const uint8_t *_Nonnull a, const uint8_t *_Nonnull b, size_t count);

#endif
