import CPNG
import Foundation
import GlsliceKit

/// Issue 42's first cut, for measurement only: a zlib stream of PNG scanlines
/// (filter None) whose repeats come from the plan's `RepeatMap` as deflate
/// matches, with no search: a row equal to an earlier row is one run of
/// matches at a whole number of rows back, and a span whose taps repeat with a
/// period is matched at that period. Everything else is literals, or, with
/// `matchLiterals`, a one-probe hash matcher over the literal runs. The tokens
/// are coded by GlsliceKit's `DeflateBlockWriter` (Huffman tables per block).
/// zlib's `uncompress` checks every stream it writes.
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

    func compress(_ data: [UInt8]) -> [UInt8] {
        var writer = DeflateBlockWriter(capacity: data.count / 4 + 64)
        var tokens: [DeflateToken] = []
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
                    for i in range { tokens.append(.literal(base[i])) }
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
                                tokens.append(.literal(base[i]))
                                i += 1
                                found = next
                                continue
                            }
                        }
                        tokens.append(.match(length: found.length, distance: found.distance))
                        i += found.length
                    } else {
                        tokens.append(.literal(base[i]))
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
                    tokens.append(.match(length: length, distance: distance))
                    at += length
                    left -= length
                }
                for i in at..<(at + left) { tokens.append(.literal(base[i])) }
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
                    writer.writeBlock(tokens, last: false)
                    tokens.removeAll(keepingCapacity: true)
                }
            }
        }
        writer.writeBlock(tokens, last: true)
        let adler = UInt32(adler32(adler32(0, nil, 0), data, uInt(data.count)))
        return [0x78, 0x9C] + writer.finish() + [UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)]
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
