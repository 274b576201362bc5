import CPNG
import Foundation
import Testing
@testable import GlsliceKit

/// `small`'s other try on a one-piece image (issue 71): rows filtered by the PNG filter whose
/// bytes sum least, coded by libdeflate.
@Suite struct SmallFiltersTests {
    /// Two rows of 10, 20, 30 (one byte a pixel). Row 0 (above it, zeros): None sums 60, Sub
    /// 10, 10, 10 = 30, Up 60, Average 10, 15, 20 = 45, Paeth (b = c = 0, so a) 30: Sub, the first
    /// of the least. Row 1, the same bytes: Up gives 0, 0, 0.
    @Test func eachRowTakesTheFilterWhoseBytesSumLeast() {
        let raw: [UInt8] = [0, 10, 20, 30, 0, 10, 20, 30]
        var out = [UInt8](repeating: 0xEE, count: raw.count)
        #expect(gs_filter_least_sum(raw, 2, 4, 1, &out) == 0)
        #expect(out == [1, 10, 10, 10, 2, 0, 0, 0])
    }

    /// A byte taken as signed counts its distance from 0: 200 is 56. Row 0 of 200, 200 (bpp 1):
    /// None 112, Sub 200, 0 = 56 (least), Up 112, Average 200, 100 = 56 + 100 (ties lose), Paeth 56.
    @Test func bytesCountAsSignedDistancesFromZero() {
        var out = [UInt8](repeating: 0xEE, count: 3)
        #expect(gs_filter_least_sum([0, 200, 200], 1, 3, 1, &out) == 0)
        #expect(out == [1, 200, 0])
    }

    /// Random rows (bpp 1-4, widths about the vector lengths, zero, one, a few): each row as the
    /// PNG specification's filters make it (§9.2, written here byte by byte), the one whose bytes
    /// sum least as signed distances from 0, the first of equals. The C function, whose filters run
    /// in loops of their own, must write the same.
    @Test func leastSumMatchesTheSpecificationsFilters() {
        var rng = SeededGenerator(seed: 71)
        for bpp in 1...4 {
            for width in [1, 2, 3, 5, 16, 31, 33, 64, 100, 257] {
                let n = width * bpp, rows = 7, rowBytes = n + 1
                var raw = [UInt8](repeating: 0, count: rows * rowBytes)
                for r in 0..<rows {
                    // Smooth rows, noisy rows and flat rows, so each filter wins somewhere.
                    for i in 0..<n {
                        raw[r * rowBytes + 1 + i] = switch r % 3 {
                        case 0: UInt8(truncatingIfNeeded: i * 3 + r * 5)
                        case 1: UInt8.random(in: 0...255, using: &rng)
                        default: UInt8(truncatingIfNeeded: 40 + (i / bpp) % 7)
                        }
                    }
                }
                var out = [UInt8](repeating: 0xEE, count: raw.count)
                #expect(gs_filter_least_sum(raw, rows, rowBytes, bpp, &out) == 0)
                #expect(out == Self.leastSum(raw, rows: rows, rowBytes: rowBytes, bpp: bpp), "bpp \(bpp), width \(width)")
            }
        }
    }

    /// The PNG specification's filters (§9.2) and the least-sum choice, byte by byte.
    static func leastSum(_ raw: [UInt8], rows: Int, rowBytes: Int, bpp: Int) -> [UInt8] {
        var out: [UInt8] = []
        for r in 0..<rows {
            let line = Array(raw[(r * rowBytes + 1)..<((r + 1) * rowBytes)])
            let above = r > 0 ? Array(raw[((r - 1) * rowBytes + 1)..<(r * rowBytes)]) : [UInt8](repeating: 0, count: line.count)
            var best: (sum: Int, type: Int, bytes: [UInt8])?
            for type in 0...4 {
                var bytes: [UInt8] = []
                for i in line.indices {
                    let a = i >= bpp ? Int(line[i - bpp]) : 0, b = Int(above[i]), c = i >= bpp ? Int(above[i - bpp]) : 0
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    let predicted = switch type {
                    case 0: 0
                    case 1: a
                    case 2: b
                    case 3: (a + b) / 2
                    default: pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                    }
                    bytes.append(UInt8(truncatingIfNeeded: Int(line[i]) - predicted))
                }
                let sum = bytes.reduce(0) { $0 + ($1 < 128 ? Int($1) : 256 - Int($1)) }
                if best == nil || sum < best?.sum ?? 0 { best = (sum, type, bytes) }
            }
            out.append(UInt8(best?.type ?? 0))
            out += best?.bytes ?? []
        }
        return out
    }

    /// A diagonal gradient (Paeth and Average country, where None and Up leave every byte):
    /// `small` decodes (libpng) to the pixels it was given, uses a filter glslice's deflate never
    /// writes, and comes out smaller than `default`.
    @Test func smallFiltersAGradientAndKeepsItsPixels() throws {
        let width = 96, height = 64
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { pixels += [UInt8((x * 2 + y) & 255), UInt8((x + y * 3) & 255), UInt8((x * 5) & 255), 255] }
        }
        let image = PremultipliedImage(RGBAImage(width: width, height: height, pixels: pixels))
        let small = try PNGEncoder.encode(image, compression: .small), plain = try PNGEncoder.encode(image, compression: .default)
        #expect(small.count < plain.count, "small \(small.count), default \(plain.count)")
        #expect(try PNGDecoder.decode(data: small, maxPixels: 1 << 20).rgba.pixels == pixels)
        let filters = try Self.filterBytes(small, rowBytes: 1 + width * 3, rows: height)
        #expect(filters.contains { $0 == 1 || $0 == 3 || $0 == 4 }, "\(filters)")
    }

    /// Each scanline's filter byte, from the file's image data inflated by zlib.
    static func filterBytes(_ png: Data, rowBytes: Int, rows: Int) throws -> [UInt8] {
        let bytes = [UInt8](png)
        var at = 8, idat: [UInt8] = []
        while at + 8 <= bytes.count {
            let length = bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self) == "IDAT" { idat += bytes[(at + 8)..<(at + 8 + length)] }
            at += 12 + length
        }
        var out = [UInt8](repeating: 0, count: rowBytes * rows), length = uLong(out.count)
        try #require(uncompress(&out, &length, idat, uLong(idat.count)) == Z_OK)
        return (0..<rows).map { out[$0 * rowBytes] }
    }
}
