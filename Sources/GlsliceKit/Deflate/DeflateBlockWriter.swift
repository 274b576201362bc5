/// Codes `DeflateToken`s as deflate blocks (RFC 1951), each with Huffman
/// tables made from its own symbol counts (§3.2.7), or the fixed code (§3.2.6)
/// where that is shorter, into bytes. The
/// blocks follow each other with no alignment; `finish` ends the last one on a
/// byte. This is the hand-written part of issue 42's encoder, kept to what no
/// library offers (zlib searches for its own matches; it cannot be handed
/// them), and every stream it writes in the tests is inflated by zlib.
package struct DeflateBlockWriter {
    /// Whole 32-bit words written, little-endian: one append a word (appending their four
    /// bytes was a generic call and a uniqueness check, a tenth of the writer's time).
    private var words: [UInt32] = []
    private var buffer: UInt64 = 0
    private var count = 0

    init(capacity: Int = 0) { words.reserveCapacity(capacity / 4 + 1) }

    /// Appends one block holding `tokens` (and its end-of-block code); `last` sets BFINAL.
    mutating func writeBlock(_ tokens: ArraySlice<DeflateToken>, last: Bool) {
        writeBlock(tokens, code: BlockCode(tokens), last: last)
    }

    /// Appends one block holding `tokens` with its `code`, made from them before.
    mutating func writeBlock(_ tokens: ArraySlice<DeflateToken>, code: BlockCode, last: Bool) {
        writeHead(code, last: last)
        if tokens.count < Self.tabledTokens {
            writeDirectly(tokens, code)
        } else {
            writeTabled(tokens, code)
        }
        writeEnd(code)
    }

    /// Blocks of at least this many tokens are written through per-block tables (`writeTabled`),
    /// smaller ones symbol by symbol: the tables' 545 entries were more work than a small block.
    private static let tabledTokens = 512

    /// Each token from the code's arrays and the alphabets' tables, looked up as it comes.
    private mutating func writeDirectly(_ tokens: ArraySlice<DeflateToken>, _ code: BlockCode) {
        DeflateToken.lengthCode.withUnsafeBufferPointer { lengthCode in
            DeflateToken.distanceCode.withUnsafeBufferPointer { distanceCode in
                code.literalCodes.withUnsafeBufferPointer { literalCodes in
                    code.literalLengths.withUnsafeBufferPointer { literalLengths in
                        code.distanceCodes.withUnsafeBufferPointer { distanceCodes in
                            code.distanceLengths.withUnsafeBufferPointer { distanceLengths in
                                for token in tokens {
                                    if token.isMatch {
                                        let length = token.length, distance = token.distance
                                        let lc = Int(lengthCode[length]), dc = Int(distanceCode[distance - 1])
                                        write(UInt64(literalCodes[257 + lc]), literalLengths[257 + lc])
                                        write(UInt64(length - DeflateToken.lengthBase[lc]), DeflateToken.lengthExtra[lc])
                                        write(UInt64(distanceCodes[dc]), distanceLengths[dc])
                                        write(UInt64(distance - DeflateToken.distanceBase[dc]), DeflateToken.distanceExtra[dc])
                                    } else {
                                        write(UInt64(literalCodes[token.literal]), literalLengths[token.literal])
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Each length's code with its extra bits after it in one word (bits | count << 32), and each
    /// distance code's code, length, extra bits and base: a match is two writes, read without bounds checks.
    private mutating func writeTabled(_ tokens: ArraySlice<DeflateToken>, _ code: BlockCode) {
        let lengthWords = (0...DeflateToken.maxLength).map { length -> UInt64 in
            guard length >= 3 else { return 0 }
            let lc = Int(DeflateToken.lengthCode[length]), bits = code.literalLengths[257 + lc]
            let value = UInt64(code.literalCodes[257 + lc]) | UInt64(length - DeflateToken.lengthBase[lc]) << UInt64(bits)
            return value | UInt64(bits + DeflateToken.lengthExtra[lc]) << 32
        }
        let distanceWords = (0..<30).map { dc in
            UInt64(code.distanceCodes[dc]) | UInt64(code.distanceLengths[dc]) << 16 | UInt64(DeflateToken.distanceExtra[dc]) << 24
                | UInt64(DeflateToken.distanceBase[dc]) << 32
        }
        let literals = (0..<256).map { UInt64(code.literalCodes[$0]) | UInt64(code.literalLengths[$0]) << 16 }
        let distanceCode = DeflateToken.distanceCode
        literals.withUnsafeBufferPointer { literals in
            lengthWords.withUnsafeBufferPointer { lengthWords in
                distanceWords.withUnsafeBufferPointer { distanceWords in
                    distanceCode.withUnsafeBufferPointer { distanceCode in
                        for token in tokens {
                            if token.isMatch {
                                let lengthWord = lengthWords[token.length], distance = token.distance
                                write(lengthWord & 0xFFFF_FFFF, Int(lengthWord >> 32))
                                let far = distanceWords[Int(distanceCode[distance - 1])], bits = far >> 16 & 0xFF
                                write(far & 0xFFFF | UInt64(distance - Int(far >> 32)) << bits, Int(bits + (far >> 24 & 0xFF)))
                            } else {
                                let symbol = literals[token.literal]
                                write(symbol & 0xFFFF, Int(symbol >> 16))
                            }
                        }
                    }
                }
            }
        }
    }

    /// A block's first bits: BFINAL, BTYPE and, for a dynamic block, its tables.
    mutating func writeHead(_ code: BlockCode, last: Bool) {
        write(last ? 1 : 0, 1)
        if let header = code.header {
            write(2, 2)
            write(UInt64(header.literals - 257), 5)
            write(UInt64(header.distances - 1), 5)
            write(UInt64(header.sent - 4), 4)
            for symbol in BlockCode.Header.order.prefix(header.sent) { write(UInt64(header.lengths[symbol]), 3) }
            for run in header.runs {
                write(UInt64(header.codes[run.symbol]), header.lengths[run.symbol])
                write(UInt64(run.extra), run.bits)
            }
        } else {
            write(1, 2)
        }
    }

    /// A block's end-of-block code.
    mutating func writeEnd(_ code: BlockCode) {
        write(UInt64(code.literalCodes[DeflateToken.endOfBlock]), code.literalLengths[DeflateToken.endOfBlock])
    }

    /// Bits written so far.
    var bitCount: Int { words.count * 32 + count }

    mutating func writeBlock(_ tokens: [DeflateToken], last: Bool) { writeBlock(tokens[...], last: last) }

    /// An empty stored block (BFINAL 0), which ends on a byte: what zlib's sync
    /// flush writes, so a stream cut here can be continued by another writer.
    mutating func writeEmptyStoredBlock() {
        write(0, 3)
        if count % 8 > 0 { write(0, 8 - count % 8) }
        write(0xFFFF_0000, 32)
    }

    /// Pads the last byte with zero bits and returns every byte written.
    package mutating func finish() -> [UInt8] {
        if count % 8 > 0 { write(0, 8 - count % 8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(words.count * 4 + count / 8)
        words.withUnsafeBytes { bytes.append(contentsOf: $0) }
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
        return bytes
    }

    /// `bits` low bits of `value` (at most 32, no higher bit set), first bit first. Whole
    /// 32-bit words go out at once: fewer appends than a byte at a time, the same bytes.
    private mutating func write(_ value: UInt64, _ bits: Int) {
        buffer |= value << UInt64(count)
        count += bits
        if count >= 32 {
            words.append(UInt32(truncatingIfNeeded: buffer).littleEndian)
            buffer >>= 32
            count -= 32
        }
    }
}
