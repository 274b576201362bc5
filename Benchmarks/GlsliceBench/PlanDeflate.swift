import CPNG
import Foundation
import GlsliceKit

/// Issue 42's first cut, for measurement only: a zlib stream of PNG scanlines
/// (filter None) whose repeats come from the plan's `RepeatMap` as deflate
/// matches, with no search: a row equal to an earlier row is one run of
/// matches at a whole number of rows back, and a span whose taps repeat with a
/// period is matched at that period. Everything else is literals, or, with
/// `matchLiterals`, a one-probe hash matcher over the literal runs. Each block
/// gets Huffman tables built from its own symbol counts. zlib's `uncompress`
/// checks every stream it writes.
struct PlanDeflate {
    let rowBytes: Int
    let bytesPerPixel: Int
    let map: RepeatMap
    var matchLiterals = false
    /// Ignore the plan (every row literal, matched by the literal matcher): a control.
    var ignorePlan = false
    /// Use the plan's repeats only as candidates of the literal matcher, over whole rows.
    var planAsHints = false
    /// One step of lazy matching, as zlib's levels 4-9 do.
    var lazy = false
    /// The shortest match the literal matcher takes (deflate allows 3).
    var minMatch = 4
    /// Earlier places with the same 4 bytes tried per literal position.
    var chainDepth = 1
    /// Tokens per block: each block has its own Huffman tables.
    var blockTokens = 1 << 15

    /// A literal byte (< 256), or a match: 0x8000_0000 | length << 16 | distance.
    private typealias Token = UInt32

    func compress(_ data: [UInt8]) -> [UInt8] {
        var writer = BitWriter(capacity: data.count / 4 + 64)
        writer.bytes += [0x78, 0x9C]
        var tokens: [Token] = []
        tokens.reserveCapacity(blockTokens + 512)
        let rows = data.count / rowBytes
        let planned = rowTemplate()
        let template = ignorePlan || planAsHints ? [(bytes: 0..<rowBytes, distance: 0)] : planned
        // Per byte of a row: the period distance the plan gives there, or 0.
        var periodAt = [Int32](repeating: 0, count: rowBytes)
        for part in planned where part.distance > 0 { for b in part.bytes { periodAt[b] = Int32(part.distance) } }
        var rowHint = 0, rowStart = 0
        var hash = [Int32](repeating: -1, count: 1 << 15)
        var previous = [Int32](repeating: -1, count: 1 << 15)
        data.withUnsafeBufferPointer { buffer in
            let base = buffer.baseAddress!
            func literals(_ range: Range<Int>) {
                guard matchLiterals else {
                    for i in range { tokens.append(Token(base[i])) }
                    return
                }
                /// The longest match at `i` among the candidates (ties keep the one tried first, the nearer),
                /// and `i` entered in the hash chains.
                func search(_ i: Int) -> (length: Int, distance: Int) {
                    var best = 0, bestDistance = 0
                    func consider(_ candidate: Int) {
                        guard candidate >= 0, i - candidate <= 32768, i - candidate > 0 else { return }
                        var length = 0
                        while length < 258, i + length < range.upperBound, base[candidate + length] == base[i + length] { length += 1 }
                        if length > best { (best, bestDistance) = (length, i - candidate) }
                    }
                    consider(i - bytesPerPixel)
                    consider(i - rowBytes)
                    if planAsHints {
                        if rowHint > rowBytes { consider(i - rowHint) }
                        let period = Int(periodAt[i - rowStart])
                        if period > bytesPerPixel { consider(i - period) }
                    }
                    if i + minMatch <= range.upperBound {
                        var word = UInt32(base[i])
                        word |= UInt32(base[i + 1]) << 8
                        word |= UInt32(base[i + 2]) << 16
                        if minMatch > 3 { word |= UInt32(base[i + 3]) << 24 }
                        let h = Int((word &* 2_654_435_761) >> 17) & 0x7FFF
                        var candidate = Int(hash[h]), tries = 0
                        while best < 258, candidate >= 0, i - candidate <= 32768, tries < chainDepth {
                            consider(candidate)
                            candidate = Int(previous[candidate & 0x7FFF])
                            tries += 1
                        }
                        previous[i & 0x7FFF] = hash[h]
                        hash[h] = Int32(i)
                    }
                    return (best, bestDistance)
                }
                var i = range.lowerBound
                var found = search(i)
                while i < range.upperBound {
                    if found.length >= minMatch {
                        // One step of lazy matching: a longer match one byte on wins, and this byte is a literal.
                        if lazy, found.length < 32, i + 1 < range.upperBound {
                            let next = search(i + 1)
                            if next.length > found.length {
                                tokens.append(Token(base[i]))
                                i += 1
                                found = next
                                continue
                            }
                        }
                        tokens.append(0x8000_0000 | UInt32(found.length) << 16 | UInt32(found.distance))
                        i += found.length
                    } else {
                        tokens.append(Token(base[i]))
                        i += 1
                    }
                    if i < range.upperBound { found = search(i) }
                }
            }
            func match(at start: Int, length total: Int, distance: Int) {
                var at = start, left = total
                while left >= 3 {
                    var length = min(258, left)
                    if (1...2).contains(left - length) { length = left - 3 }
                    tokens.append(0x8000_0000 | UInt32(length) << 16 | UInt32(distance))
                    at += length
                    left -= length
                }
                for i in at..<(at + left) { tokens.append(Token(base[i])) }
            }
            for y in 0..<rows {
                let row = y * rowBytes
                let earlier = ignorePlan ? -1 : Int(map.rowCopyOf[y])
                rowStart = row
                rowHint = earlier >= 0 && (y - earlier) * rowBytes <= 32768 ? (y - earlier) * rowBytes : 0
                if !planAsHints, earlier >= 0, (y - earlier) * rowBytes <= 32768 {
                    // A copy of an earlier row: its periodic parts are still cheapest one period back,
                    // the rest comes from the earlier row.
                    for part in template {
                        match(at: row + part.bytes.lowerBound, length: part.bytes.count,
                              distance: part.distance == 0 ? (y - earlier) * rowBytes : part.distance)
                    }
                } else {
                    for part in template {
                        if part.distance == 0 {
                            literals((row + part.bytes.lowerBound)..<(row + part.bytes.upperBound))
                        } else {
                            match(at: row + part.bytes.lowerBound, length: part.bytes.count, distance: part.distance)
                        }
                    }
                }
                if tokens.count >= blockTokens {
                    writeBlock(tokens, last: false, into: &writer)
                    tokens.removeAll(keepingCapacity: true)
                }
            }
        }
        writeBlock(tokens, last: true, into: &writer)
        writer.alignToByte()
        let adler = UInt32(adler32(adler32(0, nil, 0), data, uInt(data.count)))
        writer.bytes += [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
        return writer.bytes
    }

    /// One row's parts, the same for every row that is not a copy: the filter
    /// byte and each x span's first period as literals, the rest of a periodic
    /// span as a match one period back.
    private func rowTemplate() -> [(bytes: Range<Int>, distance: Int)] {
        var parts: [(bytes: Range<Int>, distance: Int)] = [(0..<1, 0)]
        func add(_ range: Range<Int>, _ distance: Int) {
            guard !range.isEmpty else { return }
            if distance == 0, let last = parts.last, last.distance == 0, last.bytes.upperBound == range.lowerBound {
                parts[parts.count - 1].bytes = last.bytes.lowerBound..<range.upperBound
            } else {
                parts.append((range, distance))
            }
        }
        for (destination, period) in map.columnPeriods {
            let start = 1 + destination.lowerBound * bytesPerPixel, end = 1 + destination.upperBound * bytesPerPixel
            let distance = period * bytesPerPixel
            if period < destination.count, distance <= 32768 {
                add(start..<(start + distance), 0)
                add((start + distance)..<end, distance)
            } else {
                add(start..<end, 0)
            }
        }
        return parts
    }

    private func writeBlock(_ tokens: [Token], last: Bool, into writer: inout BitWriter) {
        var litCounts = [Int](repeating: 0, count: 286), distCounts = [Int](repeating: 0, count: 30)
        for token in tokens {
            if token & 0x8000_0000 == 0 {
                litCounts[Int(token)] += 1
            } else {
                litCounts[257 + Deflate.lengthCode[Int(token >> 16 & 0x1FF)]] += 1
                distCounts[Deflate.distanceCode(Int(token & 0xFFFF))] += 1
            }
        }
        litCounts[256] = 1
        if distCounts.allSatisfy({ $0 == 0 }) { distCounts[0] = 1 }
        let litLengths = Huffman.lengths(litCounts, limit: 15), distLengths = Huffman.lengths(distCounts, limit: 15)
        let litCodes = Huffman.codes(litLengths), distCodes = Huffman.codes(distLengths)
        let nlit = max(257, (litLengths.lastIndex { $0 > 0 } ?? 0) + 1), ndist = max(1, (distLengths.lastIndex { $0 > 0 } ?? 0) + 1)
        // The code lengths, run-length coded with 16 (repeat previous), 17 and 18 (zeros).
        let all = Array(litLengths[0..<nlit]) + Array(distLengths[0..<ndist])
        var runs: [(symbol: Int, extra: Int, bits: Int)] = []
        var i = 0
        while i < all.count {
            var run = 1
            while i + run < all.count, all[i + run] == all[i] { run += 1 }
            if all[i] == 0 && run >= 3 {
                let n = min(run, 138)
                runs.append(n >= 11 ? (18, n - 11, 7) : (17, n - 3, 3))
                i += n
            } else if all[i] != 0 && run >= 4 {
                runs.append((all[i], 0, 0))
                let n = min(run - 1, 6)
                runs.append((16, n - 3, 2))
                i += 1 + n
            } else {
                runs.append((all[i], 0, 0))
                i += 1
            }
        }
        var clCounts = [Int](repeating: 0, count: 19)
        for run in runs { clCounts[run.symbol] += 1 }
        let clLengths = Huffman.lengths(clCounts, limit: 7), clCodes = Huffman.codes(clLengths)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        let nclen = max(4, (order.lastIndex { clLengths[$0] > 0 } ?? 0) + 1)
        writer.write(last ? 1 : 0, 1)
        writer.write(2, 2)
        writer.write(UInt64(nlit - 257), 5)
        writer.write(UInt64(ndist - 1), 5)
        writer.write(UInt64(nclen - 4), 4)
        for symbol in order.prefix(nclen) { writer.write(UInt64(clLengths[symbol]), 3) }
        for run in runs {
            writer.write(UInt64(clCodes[run.symbol]), clLengths[run.symbol])
            if run.bits > 0 { writer.write(UInt64(run.extra), run.bits) }
        }
        for token in tokens {
            if token & 0x8000_0000 == 0 {
                writer.write(UInt64(litCodes[Int(token)]), litLengths[Int(token)])
            } else {
                let length = Int(token >> 16 & 0x1FF), distance = Int(token & 0xFFFF)
                let lc = Deflate.lengthCode[length], dc = Deflate.distanceCode(distance)
                writer.write(UInt64(litCodes[257 + lc]), litLengths[257 + lc])
                if Deflate.lengthExtra[lc] > 0 { writer.write(UInt64(length - Deflate.lengthBase[lc]), Deflate.lengthExtra[lc]) }
                writer.write(UInt64(distCodes[dc]), distLengths[dc])
                if Deflate.distanceExtra[dc] > 0 { writer.write(UInt64(distance - Deflate.distanceBase[dc]), Deflate.distanceExtra[dc]) }
            }
        }
        writer.write(UInt64(litCodes[256]), litLengths[256])
    }
}

/// Deflate's length and distance alphabets (RFC 1951 §3.2.5).
enum Deflate {
    static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073,
                               4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]
    /// Length (3...258) → its code's index in `lengthBase`.
    static let lengthCode: [Int] = (0...258).map { length in
        length < 3 ? 0 : (lengthBase.lastIndex { $0 <= length } ?? 0)
    }
    private static let distanceCodes: [UInt8] = (0..<32768).map { d in UInt8(distanceBase.lastIndex { $0 <= d + 1 } ?? 0) }
    static func distanceCode(_ distance: Int) -> Int { Int(distanceCodes[distance - 1]) }
}

/// Huffman code lengths from counts, at most `limit` bits (counts halved until
/// they fit), and their canonical codes, bit-reversed for deflate's bit order.
enum Huffman {
    static func lengths(_ counts: [Int], limit: Int) -> [Int] {
        let lengths = unlimited(counts)
        guard let longest = lengths.max(), longest > limit else { return lengths }
        // JPEG's Annex K.3: move leaves up from the deepest levels until none is past `limit`,
        // then hand the lengths out again, shortest to the most frequent.
        var perLength = [Int](repeating: 0, count: longest + 1)
        for length in lengths where length > 0 { perLength[length] += 1 }
        var deepest = longest
        while deepest > limit {
            while perLength[deepest] > 0 {
                var j = deepest - 2
                while perLength[j] == 0 { j -= 1 }
                perLength[deepest] -= 2
                perLength[deepest - 1] += 1
                perLength[j + 1] += 2
                perLength[j] -= 1
            }
            deepest -= 1
        }
        let byCount = counts.indices.filter { counts[$0] > 0 }.sorted { (counts[$0], $1) > (counts[$1], $0) }
        var result = [Int](repeating: 0, count: counts.count), at = 0
        for length in 1...limit {
            for _ in 0..<perLength[length] {
                result[byCount[at]] = length
                at += 1
            }
        }
        return result
    }

    private static func unlimited(_ counts: [Int]) -> [Int] {
        let used = counts.indices.filter { counts[$0] > 0 }.sorted { (counts[$0], $0) < (counts[$1], $1) }
        var lengths = [Int](repeating: 0, count: counts.count)
        if used.count == 1 { lengths[used[0]] = 1 }
        guard used.count > 1 else { return lengths }
        // Merge the two lightest until one tree is left; a parent's index is above its children's.
        var parent = [Int](repeating: -1, count: 2 * used.count - 1)
        var queue = used.enumerated().map { (weight: counts[$1], node: $0) }
        var node = used.count
        while queue.count > 1 {
            let a = queue.removeFirst(), b = queue.removeFirst()
            parent[a.node] = node
            parent[b.node] = node
            let merged = (weight: a.weight + b.weight, node: node)
            let at = queue.firstIndex { $0.weight > merged.weight } ?? queue.count
            queue.insert(merged, at: at)
            node += 1
        }
        var depth = [Int](repeating: 0, count: node)
        for n in stride(from: node - 2, through: 0, by: -1) where parent[n] >= 0 { depth[n] = depth[parent[n]] + 1 }
        for (i, symbol) in used.enumerated() { lengths[symbol] = depth[i] }
        return lengths
    }

    static func codes(_ lengths: [Int]) -> [UInt32] {
        var counts = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { counts[length] += 1 }
        var next = [UInt32](repeating: 0, count: 16), code: UInt32 = 0
        for bits in 1..<16 {
            code = (code + UInt32(counts[bits - 1])) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let value = next[length]
            next[length] += 1
            var reversed: UInt32 = 0
            for bit in 0..<length where value >> UInt32(bit) & 1 == 1 { reversed |= 1 << UInt32(length - 1 - bit) }
            return reversed
        }
    }
}

/// Deflate's bit order: values least significant bit first.
struct BitWriter {
    var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func write(_ value: UInt64, _ bits: Int) {
        buffer |= value << UInt64(count)
        count += bits
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    mutating func alignToByte() {
        if count > 0 { write(0, 8 - count) }
    }
}

/// `glslice-bench plan-deflate MANIFEST [--limit N] [--hints] [--lazy] [--min 3|4] [--chain N]
/// [--block TOKENS] [--ignore-plan] [--indexed] [--verbose]`: every job drawn on the CPU,
/// its scanlines (RGB when opaque, filter None, as the encoder writes them;
/// with `--indexed`, one palette index a byte where there are at most 256 colours) compressed by zlib at levels 6 and 1 and by `PlanDeflate` with and
/// without its literal matcher; bytes and single-thread time of each, summed,
/// and today's PNG bytes (which may be indexed) for reference. Every
/// `PlanDeflate` stream is inflated by zlib and compared with its input.
func benchPlanDeflate(_ argv: [String]) throws {
    guard argv.count >= 3 else { throw GlsliceError(.usage, "plan-deflate needs a manifest") }
    func option(_ name: String, _ value: Int) -> Int {
        guard let at = argv.firstIndex(of: name), at + 1 < argv.count else { return value }
        return Int(argv[at + 1]) ?? value
    }
    let limit = option("--limit", Int.max), chainDepth = option("--chain", 1), blockTokens = option("--block", 1 << 15)
    let minMatch = option("--min", 4), hints = argv.contains("--hints"), lazy = argv.contains("--lazy")
    let indexed = argv.contains("--indexed")
    var indexedJobs = 0
    let reader = try ManifestReader(path: argv[2])
    let cache = SourceCache(capacityBytes: 64 << 20, maxPixels: 1 << 26)
    let clock = ContinuousClock()
    var bytes = [Int](repeating: 0, count: 5), times = [Duration](repeating: .zero, count: 5)
    var jobs = 0, raw = 0, mapTime = Duration.zero
    while jobs < limit, let (number, text) = reader.nextLine() {
        let job = try reader.job(line: number, text: text)
        let source = try SourceResolver.resolve(path: job.input, outputScale: job.request.outputScale) { try cache.source(at: $0).source }
        let plan = try PlanBuilder.plan(job.request, source: source)
        let image = try Backend.cpu.image(plan, source: source.image)
        let straight = image.straight().rgba
        let pixels = straight.pixels, width = plan.size.width
        let opaque = stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
        // With --indexed, an output of at most 256 colours is written as one palette index a byte, as
        // today's encoder indexes it (it also packs 2-16 colours into 1-4 bits, which this does not).
        var palette: [UInt32: UInt8] = [:]
        if indexed {
            for i in stride(from: 0, to: pixels.count, by: 4) where palette.count <= 256 {
                var word = UInt32(pixels[i])
                word |= UInt32(pixels[i + 1]) << 8
                word |= UInt32(pixels[i + 2]) << 16
                word |= UInt32(pixels[i + 3]) << 24
                if palette[word] == nil { palette[word] = UInt8(truncatingIfNeeded: palette.count) }
            }
        }
        let index = indexed && palette.count <= 256
        let bpp = index ? 1 : opaque ? 3 : 4
        if index { indexedJobs += 1 }
        let rowBytes = 1 + width * bpp
        var data = [UInt8](repeating: 0, count: rowBytes * plan.size.height)
        for y in 0..<plan.size.height {
            for x in 0..<width {
                let to = y * rowBytes + 1 + x * bpp, from = (y * width + x) * 4
                if index {
                    var word = UInt32(pixels[from])
                    word |= UInt32(pixels[from + 1]) << 8
                    word |= UInt32(pixels[from + 2]) << 16
                    word |= UInt32(pixels[from + 3]) << 24
                    data[to] = palette[word] ?? 0
                } else {
                    for c in 0..<bpp { data[to + c] = pixels[from + c] }
                }
            }
        }
        raw += data.count
        func zlib(_ level: Int32) -> Int {
            var length = compressBound(uLong(data.count))
            var out = [UInt8](repeating: 0, count: Int(length))
            _ = compress2(&out, &length, data, uLong(data.count), level)
            return Int(length)
        }
        for (slot, level) in [(0, Int32(6)), (1, Int32(1))] {
            let start = clock.now
            bytes[slot] += zlib(level)
            times[slot] += clock.now - start
        }
        var start = clock.now
        let map = RepeatMap(plan: plan, source: source.image)
        mapTime += clock.now - start
        if argv.contains("--verbose") {
            let copies = map.rowCopyOf.filter { $0 >= 0 }.count
            print("line \(number): \(plan.size) bpp \(bpp), \(copies) copied rows, periods \(map.columnPeriods.map { "\($0.destination):\($0.period)" })")
        }
        for (slot, matchLiterals) in [(2, false), (3, true)] {
            var deflate = PlanDeflate(rowBytes: rowBytes, bytesPerPixel: bpp, map: map)
            deflate.matchLiterals = matchLiterals
            deflate.chainDepth = chainDepth
            deflate.blockTokens = blockTokens
            deflate.ignorePlan = argv.contains("--ignore-plan")
            deflate.planAsHints = hints
            deflate.lazy = lazy
            deflate.minMatch = minMatch
            start = clock.now
            let stream = deflate.compress(data)
            times[slot] += clock.now - start
            bytes[slot] += stream.count
            var back = [UInt8](repeating: 0, count: data.count)
            var length = uLong(data.count)
            guard uncompress(&back, &length, stream, uLong(stream.count)) == Z_OK, back == data else {
                throw GlsliceError(.internal, "line \(number): PlanDeflate's stream does not inflate to its input")
            }
        }
        bytes[4] += try PNGEncoder.encode(image).count
        jobs += 1
    }
    func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
    let mode = (hints ? "plan as the matcher's candidates" : "plan matches") + (lazy ? ", lazy" : "") + ", min \(minMatch), chain \(chainDepth)"
    print("plan-deflate: \(jobs) jobs (\(indexedJobs) indexed), \(raw) scanline bytes (\(mode)); every PlanDeflate stream inflates to its input (zlib)")
    print(String(format: "  today's PNG files (indexed where they can be): %d bytes", bytes[4]))
    for (slot, name) in [(0, indexed ? "zlib-6 (today's rows)" : "zlib-6 (today's truecolor path)"), (1, "zlib-1"), (2, "plan matches, literals plain"),
                         (3, "plan matches + literal matcher")] {
        print(String(format: "  %-34@ %10d bytes (%.3fx zlib-6)  %8.1f ms (%.3fx)", name as NSString, bytes[slot],
                     Double(bytes[slot]) / Double(bytes[0]), ms(times[slot]), ms(times[slot]) / ms(times[0])))
    }
    print(String(format: "  repeat maps: %.1f ms (not in the times above)", ms(mapTime)))
}
