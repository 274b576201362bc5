/// Deflate's stored blocks (RFC 1951 §3.2.4): a piece's bytes as they are, where coding them made
/// more (noise: zlib 6 stores such blocks, and coded, 4000² noise was 1.0012x its bytes). A piece
/// starts on a byte, so each block is one header byte (BFINAL, BTYPE 00, padding), LEN and NLEN,
/// then up to 65,535 bytes; it ends on a byte, so no sync flush follows. Both backends decide
/// alike: the CPU from its piece's bytes (`RepeatDeflater.deflate`), the GPU from the same piece
/// of its identical stream (`GPUDeflater`).
enum StoredBlocks {
    /// The most bytes one stored block holds.
    static let blockBytes = 65535

    /// The stored blocks' size for `count` bytes (an empty piece is one empty block).
    static func size(_ count: Int) -> Int { count + 5 * max(1, (count + blockBytes - 1) / blockBytes) }

    /// `coded`, or the piece's `count` bytes at `data` as stored blocks where those are fewer
    /// (the last with BFINAL when `last`).
    static func smaller(_ coded: [UInt8], _ data: UnsafePointer<UInt8>, count: Int, last: Bool) -> [UInt8] {
        size(count) < coded.count ? stored(UnsafeBufferPointer(start: data, count: count), last: last) : coded
    }

    /// `bytes` as stored blocks (the last with BFINAL when `last`).
    static func stored(_ bytes: UnsafeBufferPointer<UInt8>, last: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(size(bytes.count))
        var at = 0
        repeat {
            let n = min(blockBytes, bytes.count - at)
            out.append(last && at + n == bytes.count ? 1 : 0)
            out += [UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[at..<(at + n)]))
            at += n
        } while at < bytes.count
        return out
    }
}
