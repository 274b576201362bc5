import Foundation

/// Where every bit of `fast`'s deflate goes when the tokens were chosen and
/// coded elsewhere (a GPU, issue 43), worked out from per-row figures alone,
/// with the cuts `SegmentedZlib` and `RepeatDeflater` make: rows in pieces of
/// at least `cuts.pieceBytes` (each ending on a byte: a sync flush, or the final
/// block), a piece's tokens in blocks of 32,768, each block with its own code.
///
/// The coder writes the tokens' bits at each row's offset, leaving room where a
/// block ends and the next begins; `finish` writes those ends and heads, and
/// the flushes, into the stream.
struct DeflateLayout {
    /// A block: its piece, its first token in the piece, how many, and whether it is the stream's last.
    struct Block {
        var piece: Int
        var start: Int
        var count: Int
        var final: Bool
    }

    /// Tokens per block, each block with its own code: the CPU's blocks and the GPU's.
    static let blockTokens = 1 << 15
    let rows: Int
    let rowBytes: Int
    /// Row ranges, each a piece.
    private(set) var pieces: [Range<Int>] = []
    private(set) var blocks: [Block] = []
    /// Per row: its first token's index in its piece, and the piece's first block.
    private(set) var firstToken: [Int]
    private(set) var pieceBlock: [Int]
    private let tokenCounts: [Int]
    /// The image ends where a piece was cut: an empty final block follows (as `SegmentedZlib.finish` writes it).
    private let endsOnCut: Bool

    /// - Parameters:
    ///   - tokenCounts: each row's tokens.
    ///   - endsImage: these rows end the image (else they must end where a piece is cut).
    init(tokenCounts: [Int], rowBytes: Int, cuts: SegmentedZlib.Cuts, endsImage: Bool) {
        rows = tokenCounts.count
        self.rowBytes = rowBytes
        self.tokenCounts = tokenCounts
        firstToken = [Int](repeating: 0, count: rows)
        pieceBlock = [Int](repeating: 0, count: rows)
        let perPiece = cuts.rowsPerPiece(rowBytes: rowBytes)
        let count = tokenCounts.count
        pieces = stride(from: 0, to: count, by: perPiece).map { $0..<min(count, $0 + perPiece) }
        let trailing = count % perPiece != 0
        endsOnCut = endsImage && !trailing
        for (p, range) in pieces.enumerated() {
            let last = endsImage && trailing && p == pieces.count - 1
            var t = 0
            for r in range {
                firstToken[r] = t
                pieceBlock[r] = blocks.count
                t += tokenCounts[r]
            }
            for b in 0..<(t / Self.blockTokens) { blocks.append(Block(piece: p, start: b * Self.blockTokens, count: Self.blockTokens, final: false)) }
            let rest = t % Self.blockTokens
            if rest > 0 || last { blocks.append(Block(piece: p, start: t - rest, count: rest, final: last)) }
        }
    }

    /// What placing and finishing need of a block's code (made on the GPU: `deflate_code.comp`).
    struct BlockEnds {
        /// The head's bits (BTYPE and any tables, BFINAL left 0), from the first word's low bit.
        var head: ArraySlice<UInt32>
        var headBits: Int
        /// The end-of-block code, bit-reversed, and its length.
        var endCode: UInt32
        var endBits: Int
    }

    /// Where the bits go, once each block's code is known.
    struct Placement {
        /// Per row: the bit its first token starts at.
        var rowBits: [Int]
        /// (bit, block): a block's head, and the end code of the block before it in the piece.
        var heads: [(bit: Int, block: Int)] = []
        var ends: [(bit: Int, block: Int)] = []
        /// Bytes where a sync flush's 00 00 FF FF go.
        var flushes: [Int] = []
        /// Each piece's bytes in the stream, and whether it holds the final block.
        var pieces: [(piece: Int, bytes: Range<Int>, final: Bool)] = []
        var byteCount = 0
    }

    /// - Parameters:
    ///   - codes: each block's head and end.
    ///   - bits: each row's token bits (heads and ends not counted).
    ///   - startInRow: per block that begins after its row's first token, the row's token bits before it.
    /// Each is the job's part of its call's read-back, indexed from its own start, not copied.
    func place(codes: ArraySlice<BlockEnds>, bits: ArraySlice<UInt32>, startInRow: ArraySlice<UInt32>) -> Placement {
        let (code0, row0, start0) = (codes.startIndex, bits.startIndex, startInRow.startIndex)
        var placement = Placement(rowBits: [Int](repeating: 0, count: rows))
        var bit = 0, next = 0 // blocks lie in their pieces' order: each piece's follow the last's
        for (p, range) in pieces.enumerated() {
            let first = next
            while next < blocks.count && blocks[next].piece == p { next += 1 }
            guard next > first else { continue }
            let last = next - 1
            let pieceStart = bit / 8
            placement.heads.append((bit, first))
            bit += codes[code0 + first].headBits
            /// Block `b` begins at `at`: the one before ends there. `placement` is passed, not
            /// captured, so the rows' writes to it stay plain stores.
            func begin(_ b: Int, at: Int, _ placement: inout Placement) -> Int {
                placement.ends.append((at, b - 1))
                placement.heads.append((at + codes[code0 + b - 1].endBits, b))
                return codes[code0 + b - 1].endBits + codes[code0 + b].headBits
            }
            for r in range {
                let t0 = firstToken[r]
                // A block that starts with the row's first token (an empty row's is the next row's: that one begins it).
                if t0 > 0 && t0 % Self.blockTokens == 0 && tokenCounts[r] > 0 { bit += begin(pieceBlock[r] + t0 / Self.blockTokens, at: bit, &placement) }
                placement.rowBits[r] = bit
                var gaps = 0
                var b = pieceBlock[r] + t0 / Self.blockTokens + 1
                while b <= last && blocks[b].start < t0 + tokenCounts[r] {
                    gaps += begin(b, at: bit + Int(startInRow[start0 + b]) + gaps, &placement)
                    b += 1
                }
                bit += Int(bits[row0 + r]) + gaps
            }
            if blocks[last].count == 0 && last > first {
                // The stream's last block holds no token: it follows the full ones.
                bit += begin(last, at: bit, &placement)
            }
            placement.ends.append((bit, last))
            bit += codes[code0 + last].endBits
            if !blocks[last].final {
                bit = (bit + 3 + 7) / 8 * 8 // an empty stored block's 3 bits, then to a byte
                placement.flushes.append(bit / 8)
                bit += 32
            }
            bit = (bit + 7) / 8 * 8
            placement.pieces.append((p, pieceStart..<(bit / 8), blocks[last].final))
        }
        placement.byteCount = bit / 8 + (endsOnCut ? 2 : 0)
        return placement
    }

    /// `stream` (made by `finish`) with each piece as the CPU's `SegmentedZlib` would end it: with
    /// narrow rows (`PieceGuard.narrow`) or more tokens than `PieceGuard` allows, `recode(rows, final)`'s (`PieceGuard.recoded`); with tokens it finds
    /// many and dear (`PieceGuard.asksZlib`), that where it is smaller; else stored where
    /// `StoredBlocks` would store it, its rows' bytes from `rowBytes(rows)`. Either is called only for
    /// those pieces (the GPU reads their scanlines back). With the Adler-32 of a recoded piece's rows
    /// where they were unfiltered (`PieceGuard.Recoded.adler`). `firstRow`: the image's row the stream's first is.
    func finishingPieces(_ stream: [UInt8], placement: Placement, firstRow: Int, rowBytes: (Range<Int>) throws -> [UInt8],
                         recode: (Range<Int>, Bool) throws -> PieceGuard.Recoded) rethrows -> (bytes: [UInt8], adler: UInt32?) {
        var out: [UInt8] = [], at = 0, adler: UInt32?
        for piece in placement.pieces {
            let rows = pieces[piece.piece], raw = rows.count * self.rowBytes, coded = piece.bytes.count, stored = StoredBlocks.size(raw)
            let tokens = tokenCounts[rows].reduce(0, +), wholeImage = firstRow + rows.lowerBound == 0 && piece.final
            let replacement: [UInt8]
            if PieceGuard.narrow(rowBytes: self.rowBytes) || PieceGuard.recodes(tokenCounts[rows], rowBytes: self.rowBytes, wholeImage: wholeImage) {
                let recoded = try recode(rows, piece.final)
                (replacement, adler) = (recoded.bytes, recoded.adler ?? adler)
            } else if PieceGuard.asksZlib(tokens: tokens, codedBytes: coded, rawBytes: raw, wholeImage: wholeImage),
                      case let recoded = try recode(rows, piece.final), recoded.bytes.count < min(coded, stored) {
                (replacement, adler) = (recoded.bytes, recoded.adler ?? adler)
            } else if stored < coded {
                replacement = try rowBytes(rows).withUnsafeBufferPointer { StoredBlocks.stored($0, last: piece.final) }
            } else {
                continue
            }
            if out.isEmpty { out.reserveCapacity(stream.count) }
            out += stream[at..<piece.bytes.lowerBound]
            out += replacement
            at = piece.bytes.upperBound
        }
        return (at == 0 ? stream : out + stream[at...], adler)
    }

    /// The stream: the coder's `words` (the tokens' bits) with the heads, end
    /// codes, flushes and any empty final block written in.
    func finish(_ words: UnsafeBufferPointer<UInt32>, placement: Placement, codes: ArraySlice<BlockEnds>) -> [UInt8] {
        let code0 = codes.startIndex
        var bytes = [UInt8](repeating: 0, count: placement.byteCount)
        let tokenBytes = placement.byteCount - (endsOnCut ? 2 : 0)
        // The words' bytes as they lie: deflate's bit order is the words' little-endian order.
        bytes.withUnsafeMutableBytes { bytes in
            if let to = bytes.baseAddress, let from = words.baseAddress { memcpy(to, from, min(tokenBytes, 4 * words.count)) }
        }
        /// ORs `bits` low bits of `value` (up to 57) in from `bit`, a byte at a time.
        func or(_ value: UInt64, bits: Int, at bit: Int) {
            let value = (value & (1 << UInt64(bits) - 1)) << UInt64(bit % 8)
            for k in 0..<((bit % 8 + bits + 7) / 8) { bytes[bit / 8 + k] |= UInt8(truncatingIfNeeded: value >> UInt64(8 * k)) }
        }
        for head in placement.heads {
            let code = codes[code0 + head.block]
            for (i, word) in code.head.enumerated() { or(UInt64(word), bits: min(32, code.headBits - 32 * i), at: head.bit + 32 * i) }
            if blocks[head.block].final { or(1, bits: 1, at: head.bit) }
        }
        for end in placement.ends { or(UInt64(codes[code0 + end.block].endCode), bits: codes[code0 + end.block].endBits, at: end.bit) }
        for flush in placement.flushes { bytes.replaceSubrange((flush + 2)..<(flush + 4), with: [0xFF, 0xFF]) }
        if endsOnCut { bytes.replaceSubrange(tokenBytes..<(tokenBytes + 2), with: [0x03, 0x00]) }
        return bytes
    }
}
