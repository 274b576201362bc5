import CPNG
import Testing
@testable import GlsliceKit

/// Copy runs (`RepeatDeflater.RowCopy`): rows the map says copy a row the same
/// distance back, with no periodic part, are one match cut as zlib cuts a run
/// (258 bytes a token, a tail of 259 or 260 as 256 or 257 and 3), though each
/// row writes only the tokens that start in it. Expected tokens are worked out
/// by hand from RFC 1951's limits; zlib inflates the stream.
@Suite struct CopyRunTests {
    /// `rows` rows of `rowBytes` bytes, `row(y)` each, with the map's key for row y `key(y)`.
    func deflater(rows: Int, rowBytes: Int, key: @escaping @Sendable (Int) -> UInt64) -> RepeatDeflater {
        let map = RepeatMap(rowKeys: { range in range.map { RepeatMap.RowKey(high: key($0), low: 1) } },
                            columnPeriods: [(0..<(rowBytes - 1), rowBytes - 1)])
        return RepeatDeflater(map: map, width: rowBytes - 1, rowBytes: rowBytes, bitsPerPixel: 8)
    }

    func inflates(_ data: [UInt8], _ deflater: RepeatDeflater, rows: Int) -> Bool {
        let raw = data.withUnsafeBufferPointer { deflater.deflate($0.baseAddress!, history: 0, firstRow: 0, rows: rows, last: true) }
        var inflated = [UInt8](repeating: 0, count: data.count)
        var length = uLong(data.count)
        let adler = adler32(1, data, uInt(data.count))
        let stream = [0x78, 0x01] + raw + [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: adler >> $0) }
        return uncompress(&inflated, &length, stream, uLong(stream.count)) == Z_OK && inflated == data
    }

    /// Runs joined at unit seams (`RepeatDeflater.seamJoins`), by hand: 12 rows of 1,025 bytes, rows 0
    /// and 1 seeded bytes, each later row the one two above (no plan: the matcher finds them 2,050 back).
    /// Units of 5 rows (6 KiB): rows 0-4, 5-9, 10-11. Unit 1's last run (rows 2-4) and unit 2's, which is
    /// all of it, meet at 2,050 and are one run of 8 rows, 8,200 bytes: 31 x 258 + 202. Unit 2 is that
    /// one run and joined, so unit 3 does not join it (seams join in parallel on a GPU): rows 10-11,
    /// 2,050 bytes, 7 x 258 + 244. Each unit alone was 11 x 258 + 237, 19 x 258 + 223, 7 x 258 + 244.
    @Test func runsJoinAtUnitSeamsButNotInChains() throws {
        let rowBytes = 1025, rows = 12
        var rng = SeededGenerator(seed: 51)
        var data = [UInt8](repeating: 0, count: rowBytes * rows)
        for r in 0..<rows {
            for k in 1..<rowBytes { data[r * rowBytes + k] = r < 2 ? UInt8.random(in: 0...255, using: &rng) : data[(r - 2) * rowBytes + k] }
        }
        let deflater = RepeatDeflater(map: .none, width: rowBytes - 1, rowBytes: rowBytes, bitsPerPixel: 8)
        #expect(deflater.units(backs: [Int32](repeating: 0, count: rows), pieceRows: rows) == [0..<5, 5..<10, 10..<12])
        let tokens = data.withUnsafeBufferPointer { deflater.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: rows) }
        let far = tokens.filter { $0.isMatch && $0.distance == 2 * rowBytes }.map(\.length)
        #expect(far == [Int](repeating: 258, count: 31) + [202] + [Int](repeating: 258, count: 7) + [244])
        #expect(inflates(data, deflater, rows: rows))
    }

    /// 200 equal rows of 4 bytes: row 0 is literals (nothing before it), rows 1-199 one
    /// run of 796 bytes 4 back: 258 + 258 + 258 + 22. Before, a 4-byte match a row (199 tokens).
    @Test func equalRowsAreOneMatch() throws {
        let rows = 200, data = [UInt8]((0..<rows).flatMap { _ in [0, 9, 8, 7] as [UInt8] })
        let coder = deflater(rows: rows, rowBytes: 4) { _ in 1 }
        let tokens = data.withUnsafeBufferPointer { coder.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: rows) }
        let l = DeflateToken.literal, m = DeflateToken.match
        #expect(tokens == [l(0), l(9), l(8), l(7), m(258, 4), m(258, 4), m(258, 4), m(22, 4)], "\(tokens)")
        // Each row's place: the run starts at row 1; row 65 holds run byte 258 (the second token's start).
        let copies = coder.rowCopies(firstRow: 0, rows: rows, history: 0, pieceRows: rows)
        #expect(copies[0] == .init(back: 0))
        #expect(copies[1] == .init(back: 4, runAt: 0, runAhead: 261))
        #expect(copies[65] == .init(back: 4, runAt: 256, runAhead: 261))
        #expect(copies[66] == .init(back: 4, runAt: 258 + 2, runAhead: 261)) // 260 bytes in: 258 + 260 % 258
        #expect(copies[196] == .init(back: 4, runAt: 258 + 780 % 258, runAhead: 12))
        #expect(copies[199] == .init(back: 4, runAt: 258 + 792 % 258, runAhead: 0))
        #expect(inflates(data, coder, rows: rows))
    }

    /// 156 rows of 5 bytes: a run of 155 × 5 = 775 bytes is 258 + 258 + 258 and one byte, a literal
    /// (renderer 12; it was cut 258 + 258 + 256 + 3, two rare length codes where zlib writes a
    /// 258 and a literal: an HD panel's rows of one colour 1.37x zlib 6's bytes, 0.95x now).
    @Test func aTailOf259Is258AndALiteral() throws {
        let rows = 156, data = [UInt8]((0..<rows).flatMap { _ in [0, 1, 2, 3, 4] as [UInt8] })
        let coder = deflater(rows: rows, rowBytes: 5) { _ in 1 }
        let tokens = data.withUnsafeBufferPointer { coder.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: rows) }
        let l = DeflateToken.literal, m = DeflateToken.match
        #expect(tokens == [l(0), l(1), l(2), l(3), l(4), m(258, 5), m(258, 5), m(258, 5), l(4)], "\(tokens)")
        #expect(inflates(data, coder, rows: rows))
    }

    /// Rows alternate A B A B after A A A, so rows 1-2 copy 5 back and rows 4 on 10 back.
    /// Those runs (10 and 30 bytes) are shorter than a token, so they stay in the units of
    /// the rows before them (round six) and no row is in a copy run; cut into pieces of 3
    /// rows, a run that starts a piece is a unit of its own (rows 6-8, and 9).
    @Test func runsShorterThanATokenStayInTheirUnit() throws {
        let rows = 10
        let a: [UInt8] = [0, 1, 2, 3, 4], b: [UInt8] = [0, 7, 7, 7, 6]
        let data = (0..<rows).flatMap { $0 < 3 || $0 % 2 == 0 ? a : b }
        let coder = deflater(rows: rows, rowBytes: 5) { $0 < 3 || $0 % 2 == 0 ? 1 : 2 }
        let whole = coder.invocations(firstRow: 0, rows: rows, history: 0, pieceRows: rows)
        #expect(whole.copies.map(\.back) == [0, 5, 5, 0, 10, 10, 10, 10, 10, 10])
        #expect(whole.units == [0..<10])
        #expect(whole.copies.allSatisfy { $0.runAt == 0 && $0.runAhead == 0 })
        let pieces = coder.invocations(firstRow: 0, rows: rows, history: 0, pieceRows: 3)
        #expect(pieces.units == [0..<3, 3..<6, 6..<7, 7..<8, 8..<9, 9..<10])
        #expect(pieces.copies.map(\.runAt) == [0, 0, 0, 0, 0, 0, 0, 5, 10, 0])
        #expect(pieces.copies.map(\.runAhead) == [0, 0, 0, 0, 0, 0, 10, 5, 0, 0])
        let tokens = data.withUnsafeBufferPointer { coder.tokens($0.baseAddress!, history: 0, firstRow: 0, rows: rows) }
        let l = DeflateToken.literal, m = DeflateToken.match
        // Row 3 (B) finds A's filter byte 5 back but only 1 byte: literals; its 7 7 7 run is 3 bytes, under 4.
        #expect(tokens == [l(0), l(1), l(2), l(3), l(4), m(10, 5), l(0), l(7), l(7), l(7), l(6), m(30, 10)], "\(tokens)")
        #expect(inflates(data, coder, rows: rows))
    }

    /// The same rows at 130 bytes, so each run is a token or more (260 and 780 bytes): runs end
    /// where the distance changes and where a piece starts. Worked by hand: a row's `runAt` is
    /// its bytes into the run, under 258 as they are, else 258 plus their remainder mod 258;
    /// `runAhead` the run's bytes after the row, at most 261.
    @Test func runsEndWhereTheDistanceChangesOrAPieceStarts() throws {
        let rows = 10
        let a = [UInt8](repeating: 1, count: 130), b = [UInt8]([0] + (1..<130).map { UInt8($0) })
        let data = (0..<rows).flatMap { $0 < 3 || $0 % 2 == 0 ? a : b }
        let coder = deflater(rows: rows, rowBytes: 130) { $0 < 3 || $0 % 2 == 0 ? 1 : 2 }
        let whole = coder.invocations(firstRow: 0, rows: rows, history: 0, pieceRows: rows)
        #expect(whole.copies.map(\.back) == [0, 130, 130, 0, 260, 260, 260, 260, 260, 260])
        #expect(whole.units == [0..<1, 1..<2, 2..<3, 3..<4, 4..<5, 5..<6, 6..<7, 7..<8, 8..<9, 9..<10]) // a run's rows one by one
        #expect(whole.copies.map(\.runAt) == [0, 0, 130, 0, 0, 130, 260, 390, 262, 392])
        #expect(whole.copies.map(\.runAhead) == [0, 130, 0, 0, 261, 261, 261, 260, 130, 0])
        let pieces = coder.invocations(firstRow: 0, rows: rows, history: 0, pieceRows: 3)
        #expect(pieces.copies.map(\.runAt) == [0, 0, 130, 0, 0, 130, 0, 130, 260, 0])
        #expect(pieces.copies.map(\.runAhead) == [0, 130, 0, 0, 130, 0, 260, 130, 0, 0])
        #expect(inflates(data, coder, rows: rows))
    }

    /// A match whose distance deflate cannot write (0, negative, past 32 KiB: only an encoder's bug
    /// gives one) is written as its bytes, literals (issue 72: it was a `precondition`, which would
    /// stop a server). The expected tokens are the bytes themselves.
    @Test func aDistanceDeflateCannotWriteLeavesLiterals() {
        let bytes = (0..<40).map { UInt8($0 * 7 & 0xFF) }
        var tokens = RepeatDeflater.TokenBuffer(capacity: 256)
        defer { tokens.deallocate() }
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for distance in [0, -3, 32769, 1 << 40] {
                RepeatDeflater.appendMatch(base, at: 4, length: 30, distance: distance, pixel: 4, oldest: 0, tokens: &tokens)
            }
            RepeatDeflater.appendMatch(base, at: 4, length: 30, distance: 32768, pixel: 4, oldest: 0, tokens: &tokens)
        }
        let literals = bytes[4..<34].map { DeflateToken.literal($0) }
        #expect(tokens.array(0..<tokens.count) == literals + literals + literals + literals + [.match(length: 30, distance: 32768)])
    }
}
