import GlsliceKit

/// PNG or WebP for a render URL: the URL's `format` wins; without one, WebP
/// when `Accept` names `image/webp` with a q above 0 and `--no-auto-webp` is
/// not given (as imgproxy's `IMGPROXY_AUTO_WEBP` does), else PNG.
struct FormatNegotiation {
    let autoWebP: Bool

    /// The format to write, and whether it was negotiated (no `format` in the
    /// URL): a negotiated WebP falls back to PNG where WebP cannot hold the
    /// output, and keys apart from an explicit `format=webp`, which is refused there.
    func format(asked: ImageFormat?, accept: String?) -> (format: ImageFormat, negotiated: Bool) {
        if let asked { return (asked, false) }
        return (autoWebP && Self.acceptsWebP(accept) ? .webp : .png, true)
    }

    /// Whether `Accept` names `image/webp` with a q above 0. A wildcard does
    /// not: a client that lists no WebP may not read it.
    static func acceptsWebP(_ accept: String?) -> Bool {
        guard let accept else { return false }
        return accept.split(separator: ",").contains { range in
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard parts.first == "image/webp" else { return false }
            let q = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return q > 0
        }
    }
}
