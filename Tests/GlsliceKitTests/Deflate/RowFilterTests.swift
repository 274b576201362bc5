import CPNG
import Foundation
import Testing
@testable import GlsliceKit

/// `fast`'s row filter (issue 51): a palette row None or Up, Up where its sum of bytes taken as
/// signed less the row above is under 2/3 of its sum as it is; every expected byte here is worked by hand.
@Suite struct RowFilterTests {
    func filtered(_ raw: [UInt8], above: [UInt8]?, palette: Bool = true) -> [UInt8] {
        var out = [UInt8](repeating: 0xEE, count: raw.count)
        raw.withUnsafeBufferPointer { raw in
            if let above {
                above.withUnsafeBufferPointer {
                    RowFilter.apply(raw.baseAddress!, above: $0.baseAddress!, into: &out, count: raw.count, palette: palette)
                }
            } else {
                RowFilter.apply(raw.baseAddress!, above: nil, into: &out, count: raw.count, palette: palette)
            }
        }
        return out
    }

    /// An RGB or RGBA row is Up only where its sum less the row above is under a tenth of its
    /// sum as it is. 10, 20, 30 under 9, 20, 250: 60 against 37, Up for a palette, None here.
    /// 100s (300) under 99, 100, 98 (3: 30 < 300) and under 80, 100, 100 (20: 200 < 300): Up.
    /// 129s (3 × 127 = 381) under 100s (3 × 29 = 87: 870): None. A row equal to the one above
    /// is zeros, Up; the first row None.
    @Test func anRGBRowIsUpOnlyWhereItsSumFallsTenfold() {
        #expect(filtered([0, 10, 20, 30], above: [0, 9, 20, 250], palette: false) == [0, 10, 20, 30])
        #expect(filtered([0, 100, 100, 100], above: [0, 99, 100, 98], palette: false) == [2, 1, 0, 2])
        #expect(filtered([0, 100, 100, 100], above: [0, 80, 100, 100], palette: false) == [2, 20, 0, 0])
        #expect(filtered([0, 129, 129, 129], above: [0, 100, 100, 100], palette: false) == [0, 129, 129, 129])
        #expect(filtered([0, 7, 8, 9], above: [0, 7, 8, 9], palette: false) == [2, 0, 0, 0])
        #expect(filtered([0, 7, 8, 9], above: nil, palette: false) == [0, 7, 8, 9])
        // At the line: 100, 100, 100 under 70, 100, 100 sums 300 against 30: 300 is not under 300, None.
        #expect(filtered([0, 100, 100, 100], above: [0, 70, 100, 100], palette: false) == [0, 100, 100, 100])
        // Rows of 32 bytes or fewer (10 RGB pixels, 8 RGBA) are not filtered; 11 RGB pixels (33) are. Palettes
        // from 16 pixels (17 bytes with the filter byte) on: 15 or fewer are zlib's from the start (`PieceGuard.narrow`).
        #expect(!RowFilter.filters(channels: 3, rowBytes: 1 + 30) && RowFilter.filters(channels: 3, rowBytes: 1 + 33))
        #expect(!RowFilter.filters(channels: 4, rowBytes: 1 + 32) && RowFilter.filters(channels: 4, rowBytes: 1 + 36))
        #expect(!RowFilter.filters(channels: 1, rowBytes: 16) && RowFilter.filters(channels: 1, rowBytes: 17))
    }

    /// As they are: 10 + 20 + 30 = 60. Less the row above: 1, 0 and 30 - 250 = 36 (mod 256),
    /// 37 in all, so Up. A tie (5 and 251 against 0s above: 5 + 5 either way) is None, as
    /// is the first row; 1 and 2 under 200 and 100 are 57 + 98 = 155 against 3, None.
    @Test func aClearlySmallerSumWinsATieIsNone() {
        #expect(filtered([0, 10, 20, 30], above: [0, 9, 20, 250]) == [2, 1, 0, 36])
        #expect(filtered([0, 5, 251], above: [0, 0, 0]) == [0, 5, 251])
        #expect(filtered([0, 10, 20, 30], above: nil) == [0, 10, 20, 30])
        #expect(filtered([0, 1, 2], above: [0, 200, 100]) == [0, 1, 2])
        // Up only under 2/3 of the sum as it is (round six): 12, 12 (24) under 2, 0 is 10 + 12 = 22 less the
        // row above, smaller but 66 is not under 48, None; under 12, 0 it is 12 (36 < 48), Up; under 8, 0
        // it is 16, 48 against 48: not under, None.
        #expect(filtered([0, 12, 12], above: [0, 2, 0]) == [0, 12, 12])
        #expect(filtered([0, 12, 12], above: [0, 12, 0]) == [2, 0, 12])
        #expect(filtered([0, 12, 12], above: [0, 8, 0]) == [0, 12, 12])
        // A row equal to the one above: Up, zeros (sums 3 + 1 against 0); a row of zeros under
        // zeros ties, so None. Over 40 bytes: 128s under 127s sum 40 × 128 as they are and
        // 40 × 1 less the row above, so Up (1s); 129s under 1s sum 40 × 127 against 40 × 128, None.
        #expect(filtered([0, 3, 255], above: [0, 3, 255]) == [2, 0, 0])
        #expect(filtered([0, 0, 0], above: [0, 0, 0]) == [0, 0, 0])
        #expect(filtered([0] + [UInt8](repeating: 128, count: 40), above: [0] + [UInt8](repeating: 127, count: 40))
                    == [2] + [UInt8](repeating: 1, count: 40))
        #expect(filtered([0] + [UInt8](repeating: 129, count: 40), above: [0] + [UInt8](repeating: 1, count: 40))
                    == [0] + [UInt8](repeating: 129, count: 40))
    }

    /// Keys A B B B C A B B (rows 0-7). Plain copies: row 2 of 1, 3 of 2, 5 of 0, 6 of 3 (the
    /// last B before), 7 of 6. Filtered, rows 2, 3 and 7 equal the row above (left to their bytes);
    /// of the others, B/A (rows 1 and 6) recurs with the same row above, A (rows 0 and 5) only with
    /// another (none above, C above), and C once. So `noneRows` writes rows 0 and 5 None (each
    /// alone, 5 rows apart), and row 5 copies row 0 as it is; row 3 copies row 2, row 6 row 1,
    /// row 7 row 3 (the nearest B/B), and rows 1, 2 and 4 have no earlier row to copy. Looking back only
    /// to row 1, row 5 has none either. With a window of 4 rows, rows 0 and 5 are too far apart to be None;
    /// row 6's nearest B is row 3, the last of the run of rows 1-3, 3 back where row 1 is 5 back: rows 1,
    /// 3 and 6 are None, row 3 copies row 1 and row 6 row 3; row 7 (B/B) copies row 2, the one B/B left.
    @Test func aCopyOfFilteredRowsNeedsEqualRowsAboveOrBothNone() {
        let keys: [UInt64] = [1, 2, 2, 2, 3, 1, 2, 2]
        let map = RepeatMap(rowKeys: { range in range.map { RepeatMap.RowKey(high: keys[$0], low: 0) } }, columnPeriods: [])
        let wide = RepeatMap.Filtering(height: 8, window: 10), narrow = RepeatMap.Filtering(height: 8, window: 4)
        #expect(map.copies(of: 0..<8, lookingBackTo: 0) == [-1, -1, 1, 2, -1, 0, 3, 6])
        #expect(map.noneRows(0..<8, filtering: wide) == [true, false, false, false, false, true, false, false])
        #expect(map.noneRows(4..<6, filtering: wide) == [false, true])
        #expect(map.copies(of: 0..<8, lookingBackTo: 0, filtered: wide) == [-1, -1, -1, 2, -1, 0, 1, 3])
        #expect(map.copies(of: 3..<8, lookingBackTo: 1, filtered: wide) == [2, -1, -1, 1, 3])
        #expect(map.copies(of: 3..<8, lookingBackTo: 2, filtered: wide) == [2, -1, -1, -1, 3])
        #expect(map.noneRows(0..<8, filtering: narrow) == [false, true, false, true, false, false, true, false])
        #expect(map.copies(of: 0..<8, lookingBackTo: 0, filtered: narrow) == [-1, -1, -1, 1, -1, -1, 3, 2])
    }

    /// Keys A B B B C D E F B (rows 0-8), a window of 5 rows. Row 8's nearest B is row 3, 5 back, the
    /// last of the run of rows 1-3; row 1, the run's first and its nearest B not equal to the row above,
    /// is 7 back. So rows 1, 3 and 8 are None: row 3 copies row 1 (2 back) and row 8 row 3, where row 8
    /// had no row in reach to copy. Asked a few rows at a time, the rows are the same. With the run 7
    /// rows long (rows 1-7, then C D B), its last row is 6 rows from its first, further than the window,
    /// so no row is None: row 7 would have no row to copy.
    @Test func aRowCopiesTheLastRowOfARunWhereItsFirstIsOutOfReach() {
        func map(_ keys: [UInt64]) -> RepeatMap {
            RepeatMap(rowKeys: { range in range.map { RepeatMap.RowKey(high: keys[$0], low: 0) } }, columnPeriods: [])
        }
        let window = RepeatMap.Filtering(height: 9, window: 5)
        let run = map([1, 2, 2, 2, 3, 4, 5, 6, 2])
        let none = [false, true, false, true, false, false, false, false, true]
        #expect(run.noneRows(0..<9, filtering: window) == none)
        for rows in [0..<2, 2..<4, 3..<9, 8..<9] { #expect(run.noneRows(rows, filtering: window) == Array(none[rows])) }
        #expect(run.copies(of: 0..<9, lookingBackTo: 0, filtered: window) == [-1, -1, -1, 1, -1, -1, -1, -1, 3])
        let long = map([1, 2, 2, 2, 2, 2, 2, 2, 3, 4, 2])
        #expect(long.noneRows(0..<11, filtering: RepeatMap.Filtering(height: 11, window: 5)) == [Bool](repeating: false, count: 11))
    }

    /// A 64 × 20 grey gradient, a grey a row (20 colours: 8-bit indices, row y's index y).
    /// Raw rows are [0, y × 64]; less the row above, [·, 1 × 64]: sums 64y against 64, so
    /// rows 0 and 1 (a tie) are None and rows 2-19 Up (64 × 3 under 64y × 2), [2, 1 × 64]. zlib
    /// inflates the image data to exactly these rows, and libpng reads back the greys. (64 wide:
    /// at 4, its 20 rows of 5 bytes took more tokens than `PieceGuard` allows, and were zlib's, None.)
    @Test func aGradientsPaletteRowsAreUp() throws {
        let size = PixelSize(width: 64, height: 20)
        var pixels: [UInt8] = []
        for y in 0..<20 { for _ in 0..<64 { pixels += [UInt8(y * 10), UInt8(y * 10), UInt8(y * 10), 255] } }
        let writer = try PNGEncoder(target: .memory, size: size, opaque: true, compression: .fast, repeats: .none, threads: 1)
        try pixels.withUnsafeBufferPointer { try writer.write(premultipliedRows: $0.baseAddress!, count: 20) }
        try writer.finish()
        let file = writer.memoryData ?? []
        // The IDAT chunks' data, after the signature and IHDR, PLTE.
        var at = 8, zlibStream: [UInt8] = []
        while at + 8 <= file.count {
            let length = file[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            if Array(file[(at + 4)..<(at + 8)]) == Array("IDAT".utf8) { zlibStream += file[(at + 8)..<(at + 8 + length)] }
            at += 12 + length
        }
        var rows = [UInt8](repeating: 0, count: 1300)
        var length = uLong(1300)
        #expect(uncompress(&rows, &length, zlibStream, uLong(zlibStream.count)) == Z_OK && length == 1300)
        let expected: [UInt8] = [0] + [UInt8](repeating: 0, count: 64) + [0] + [UInt8](repeating: 1, count: 64)
            + (2..<20).flatMap { _ -> [UInt8] in [2] + [UInt8](repeating: 1, count: 64) }
        #expect(rows == expected)
        let decoded = try PNGDecoder.decode(data: Data(file), maxPixels: 1 << 20)
        #expect(decoded.rgba.pixels == pixels)
    }
}
