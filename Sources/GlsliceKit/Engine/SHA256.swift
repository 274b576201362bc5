import CCrypto
import Foundation

/// SHA-256 and HMAC-SHA256 from the system's libcrypto, behind `CCrypto`'s shim, as libpng
/// is (issue 70: swift-crypto compiled BoringSSL, most of a fresh build). For job digests,
/// source keys (`JobDigest`, `SourceCache`) and serve's signed URLs (`URLSigner`).
package enum SHA256 {
    package static let byteCount = 32

    /// The digest of `data`.
    static func hash(_ data: some ContiguousBytes) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: byteCount)
        let ok = data.withUnsafeBytes { raw in
            digest.withUnsafeMutableBufferPointer { gs_sha256(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, $0.baseAddress!) }
        }
        // libcrypto fails only where it cannot allocate, as Swift itself then stops.
        precondition(ok == 1, "libcrypto's SHA-256 failed (out of memory)")
        return digest
    }

    /// The HMAC-SHA256 of `data` under `key`.
    package static func hmac(key: some ContiguousBytes, _ data: some ContiguousBytes) -> [UInt8] {
        var mac = [UInt8](repeating: 0, count: byteCount)
        let ok = key.withUnsafeBytes { key in
            data.withUnsafeBytes { data in
                mac.withUnsafeMutableBufferPointer {
                    gs_hmac_sha256(key.bindMemory(to: UInt8.self).baseAddress, key.count, data.bindMemory(to: UInt8.self).baseAddress,
                                   data.count, $0.baseAddress!)
                }
            }
        }
        precondition(ok == 1, "libcrypto's HMAC-SHA256 failed (out of memory)")
        return mac
    }

    /// Whether `a` and `b` are equal, in time that does not depend on where they differ
    /// (a MAC's check); unequal lengths are unequal at once.
    package static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        guard !a.isEmpty else { return true }
        return a.withUnsafeBufferPointer { a in b.withUnsafeBufferPointer { b in gs_equal_in_constant_time(a.baseAddress!, b.baseAddress!, a.count) == 1 } }
    }
}
