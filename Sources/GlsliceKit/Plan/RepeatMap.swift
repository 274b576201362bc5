/// What repeats in an output, known from its plan and source before a pixel
/// is drawn (issue 42): which rows equal an earlier row, and, within each x
/// span, the period after which every row's pixels repeat. A PNG encoder can
/// write these as deflate matches instead of searching for them.
///
/// Two output pixels are equal when they read the same texels with the same
/// weight in cells drawn alike, so equality is decided on taps: a row's
/// vertical taps (and whether its y span leaves the centre out), a column's
/// horizontal taps within one x span.
/// Source rows (columns) with the same bytes count as the same texel, so
/// identical cap rows of the source repeat too.
package struct RepeatMap: Sendable {
    /// Per output row: the nearest earlier row it equals, or -1.
    package let rowCopyOf: [Int32]
    /// Per x span: its destination and the smallest period, in pixels, of its
    /// columns' taps (every pixel equals the one `period` to its left, from
    /// `destination.lowerBound + period` on); `period == count` when none repeats.
    package let columnPeriods: [(destination: Range<Int>, period: Int)]

    package init(plan: Plan, source: PremultipliedImage) {
        let rowClass = Self.rowClasses(source), columnClass = Self.columnClasses(source)
        // Rows: one key per visible row; an invisible row (a `space` gap) is all transparent. Which
        // y span a row is in matters only where it leaves the centre out (`fillCenter` off):
        // elsewhere every x span draws the same cells (a filled cell gives the bytes sampling does).
        let hollow = plan.ySpans.map { $0.segment.scalable && !plan.fillCenter }
        struct RowKey: Hashable { var span: Int32, first: Int32, second: Int32, weight: UInt32, visible: Bool }
        var rowCopyOf = [Int32](repeating: -1, count: plan.size.height)
        var last: [RowKey: Int32] = [:]
        let strip = 4096
        var y0 = 0
        while y0 < plan.size.height {
            let range = y0..<min(plan.size.height, y0 + strip)
            let taps = AxisTaps(spans: plan.ySpans, range: range, filter: plan.filter)
            for y in range {
                let i = y - range.lowerBound
                let first = rowClass[Int(taps.first[i])], second = rowClass[Int(taps.second[i])]
                // A blend of two equal lines is that line, exactly (the weights add up to one): the weight drops out.
                let key = taps.visible[i]
                    ? RowKey(span: hollow[Int(taps.spanIndex[i])] ? 1 : 0, first: first, second: second,
                             weight: first == second ? 0 : taps.weight[i], visible: true)
                    : RowKey(span: -1, first: 0, second: 0, weight: 0, visible: false)
                if let earlier = last[key] { rowCopyOf[y] = earlier }
                last[key] = Int32(y)
            }
            y0 = range.upperBound
        }
        self.rowCopyOf = rowCopyOf
        // Columns: the smallest period of each x span's tap sequence (KMP's failure function).
        var periods: [(destination: Range<Int>, period: Int)] = []
        for span in plan.xSpans where !span.destination.isEmpty {
            let taps = AxisTaps(spans: plan.xSpans, range: span.destination, filter: plan.filter)
            struct ColumnKey: Equatable { var first: Int32, second: Int32, weight: UInt32, visible: Bool }
            let keys = (0..<span.destination.count).map { i in
                let first = columnClass[Int(taps.first[i])], second = columnClass[Int(taps.second[i])]
                return taps.visible[i] ? ColumnKey(first: first, second: second, weight: first == second ? 0 : taps.weight[i], visible: true)
                    : ColumnKey(first: 0, second: 0, weight: 0, visible: false)
            }
            var border = [Int](repeating: 0, count: keys.count)
            var k = 0
            for i in keys.indices.dropFirst() {
                while k > 0 && keys[i] != keys[k] { k = border[k - 1] }
                if keys[i] == keys[k] { k += 1 }
                border[i] = k
            }
            periods.append((span.destination, keys.count - (border.last ?? 0)))
        }
        columnPeriods = periods
    }

    /// Per source row, the first row with the same bytes.
    private static func rowClasses(_ image: PremultipliedImage) -> [Int32] {
        let stride = image.width * 4
        return image.rgba.pixels.withUnsafeBufferPointer { pixels in
            classes(count: image.height, hashes: (0..<image.height).map { y in fnv(pixels[(y * stride)..<((y + 1) * stride)]) }) { a, b in
                pixels[(a * stride)..<((a + 1) * stride)].elementsEqual(pixels[(b * stride)..<((b + 1) * stride)])
            }
        }
    }

    /// Per source column, the first column with the same pixels, found in one pass over the rows.
    private static func columnClasses(_ image: PremultipliedImage) -> [Int32] {
        image.rgba.pixels.withUnsafeBufferPointer { bytes in
            let pixels = UnsafeRawBufferPointer(bytes).bindMemory(to: UInt32.self)
            var hashes = [UInt64](repeating: 0xCBF2_9CE4_8422_2325, count: image.width)
            for y in 0..<image.height {
                for x in 0..<image.width { hashes[x] = (hashes[x] ^ UInt64(pixels[y * image.width + x])) &* 0x100_0000_01B3 }
            }
            return classes(count: image.width, hashes: hashes) { a, b in
                (0..<image.height).allSatisfy { pixels[$0 * image.width + a] == pixels[$0 * image.width + b] }
            }
        }
    }

    /// FNV-1a over `bytes`.
    private static func fnv(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> UInt64 {
        bytes.reduce(0xCBF2_9CE4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 }
    }

    /// Per line, the first line equal to it: lines are compared only where their hashes agree.
    private static func classes(count: Int, hashes: [UInt64], equal: (Int, Int) -> Bool) -> [Int32] {
        var seen: [UInt64: [Int32]] = [:]
        return (0..<count).map { line in
            if let earlier = seen[hashes[line]]?.first(where: { equal(Int($0), line) }) { return earlier }
            seen[hashes[line], default: []].append(Int32(line))
            return Int32(line)
        }
    }
}
