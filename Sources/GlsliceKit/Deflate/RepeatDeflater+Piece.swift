/// A piece of rows as `SegmentedZlib` asks for it: its tokens coded in blocks, or stored
/// where that is fewer bytes.
extension RepeatDeflater {
    /// Raw deflate for `rows` rows starting at row `firstRow`, at `data`, with
    /// `history` bytes before `data` readable (the window before a piece).
    /// Ends on a byte: with the final block when `last`, else with an empty
    /// stored block (a sync flush), so pieces concatenate. Stored blocks instead,
    /// where they are fewer bytes (`StoredBlocks`).
    func deflate(_ data: UnsafePointer<UInt8>, history: Int, firstRow: Int, rows: Int, last: Bool) -> [UInt8] {
        deflate(data, history: history, firstRow: firstRow, rows: rows, last: last, guarded: false)?.bytes ?? [] // (never nil unguarded)
    }

    /// A piece as `deflate` ends it, with what `PieceGuard` weighs: its tokens, and the bytes they
    /// code to (before any stored blocks), as the GPU's twin counts both.
    struct CodedPiece {
        var bytes: [UInt8]
        var tokens: Int
        var codedBytes: Int
    }

    /// The same, or nil where it is `guarded` and its tokens fail `PieceGuard`'s checkpoints: then
    /// they are chosen only until they fail.
    func deflate(_ data: UnsafePointer<UInt8>, history: Int, firstRow: Int, rows: Int, last: Bool, guarded: Bool) -> CodedPiece? {
        let raw = rows * rowBytes
        var tokens = 0
        var writer = DeflateBlockWriter(capacity: min(1 << 20, raw / 8 + 64))
        // Where the piece's first block codes no smaller than its bytes (noise), its blocks are held
        // with their codes rather than written: if the piece is then stored, they never are.
        var holding: Bool?, held: [(tokens: [DeflateToken], code: BlockCode)] = [], heldBits = 0
        guard let rest = choose(data, history: history, firstRow: firstRow, rows: rows, guarded: guarded, wholeImage: history == 0 && last, block: { block in
            tokens += block.count
            let code = BlockCode(block)
            if holding == nil { holding = code.bits >= 8 * Self.bytes(block) }
            if holding == true {
                held.append((Array(block), code))
                heldBits += code.bits
            } else {
                writer.writeBlock(block, code: code, last: false)
            }
        }) else { return nil }
        tokens += rest.count
        let restCode = last || !rest.isEmpty ? BlockCode(rest[...]) : nil
        var bits = writer.bitCount + heldBits + (restCode?.bits ?? 0)
        if !last { bits = (bits + 3 + 7) / 8 * 8 + 32 } // the sync flush: an empty stored block
        if holding == true, StoredBlocks.size(raw) < (bits + 7) / 8 {
            return CodedPiece(bytes: StoredBlocks.stored(UnsafeBufferPointer(start: data, count: raw), last: last), tokens: tokens,
                              codedBytes: (bits + 7) / 8)
        }
        for block in held { writer.writeBlock(block.tokens[...], code: block.code, last: false) }
        if let restCode { writer.writeBlock(rest[...], code: restCode, last: last) }
        if !last { writer.writeEmptyStoredBlock() }
        let coded = writer.finish()
        return CodedPiece(bytes: StoredBlocks.smaller(coded, data, count: raw, last: last), tokens: tokens, codedBytes: coded.count)
    }

    /// The bytes `tokens` stand for.
    private static func bytes(_ tokens: ArraySlice<DeflateToken>) -> Int {
        tokens.reduce(0) { $0 + ($1.isMatch ? $1.length : 1) }
    }
}
