import Testing
@testable import GlsliceKit

/// The repeat map (issue 42's input): what it claims is equal must be equal in
/// the drawn pixels, and on hand-made sources it finds what was built in.
@Suite struct RepeatMapTests {
    /// A 3x3 source, every pixel its own grey, one-pixel centre.
    func distinct() -> PremultipliedImage {
        PremultipliedImage(RGBAImage(width: 3, height: 3, pixels: (0..<9).flatMap { [UInt8(20 * $0 + 10), 7, 7, 255] }))
    }

    func plan(_ source: PremultipliedImage, size: PixelSize, modes: PerAxis<ResizeMode> = PerAxis(both: .stretch),
              filter: Filter = .linear) throws -> Plan {
        let segments = [Segment(0, 1, scalable: false), Segment(1, 2, scalable: true), Segment(2, 3, scalable: false)]
        let lattice = try Lattice(width: source.width, height: source.height, x: segments, y: segments)
        return try PlanBuilder.plan(lattice: lattice, size: size, k: 1, modes: modes, filter: filter, fillCenter: true)
    }

    /// Worked by hand: a 10x10 stretch of a one-pixel centre. Rows 1-8 show
    /// source row 1, so rows 2-8 repeat the row before; rows 0 and 9 are the
    /// caps, each its own. Across, the centre span (columns 1-8) is one texel
    /// blended with itself: period 1. The one-pixel caps cannot repeat.
    @Test func aStretchedCentreRepeatsRowsAndColumns() throws {
        let map = RepeatMap(plan: try plan(distinct(), size: PixelSize(width: 10, height: 10)), source: distinct())
        #expect(map.copies(of: 0..<10, lookingBackTo: 0) == [-1, -1, 1, 2, 3, 4, 5, 6, 7, -1])
        // An encoder asks about a piece and the window before it: nothing earlier is named.
        #expect(map.copies(of: 5..<10, lookingBackTo: 5) == [-1, 5, 6, 7, -1])
        #expect(map.copies(of: 5..<10, lookingBackTo: 3) == [4, 5, 6, 7, -1])
        #expect(map.columnPeriods.map(\.destination) == [0..<1, 1..<9, 9..<10])
        #expect(map.columnPeriods.map(\.period) == [1, 1, 1])
    }

    /// The worked example with its row keys worked out ahead (as a job is prepared): the same
    /// copies as asked a range at a time, the hand-worked ones above.
    @Test func rowKeysKeptAheadGiveTheSameCopies() throws {
        let map = RepeatMap(plan: try plan(distinct(), size: PixelSize(width: 10, height: 10)), source: distinct())
        let kept = map.keepingRowKeys(height: 10)
        #expect(kept.copies(of: 0..<10, lookingBackTo: 0) == [-1, -1, 1, 2, 3, 4, 5, 6, 7, -1])
        #expect(kept.copies(of: 5..<10, lookingBackTo: 3) == [4, 5, 6, 7, -1])
        let filtering = RepeatMap.Filtering(height: 10, window: 10)
        #expect(kept.copies(of: 3..<9, lookingBackTo: 0, filtered: filtering) == map.copies(of: 3..<9, lookingBackTo: 0, filtered: filtering))
        #expect(kept.copies(of: 0..<10, lookingBackTo: 0, filtered: filtering) == map.copies(of: 0..<10, lookingBackTo: 0, filtered: filtering))
        #expect(kept.columnPeriods.map(\.period) == [1, 1, 1])
    }

    /// An output taller than a queued job's kept keys (`keptRows`) has them kept while it is encoded
    /// (`RepeatDeflater`, up to `keptRowsWhileEncoding`): the worked example stretched down 100,000 rows
    /// copies as by hand, rows 2 to 99,998 each the row before, the caps none (filtered, only the keys are
    /// kept); past the limit none are kept.
    @Test func anEncoderKeepsTheRowKeysOfATallOutput() throws {
        let height = 100_000
        let map = RepeatMap(plan: try plan(distinct(), size: PixelSize(width: 10, height: height)), source: distinct())
            .keepingRowKeys(height: height)
        #expect(map.keptCopies == nil && !map.keepsRowKeys)
        let kept = RepeatDeflater(map: map, width: 10, rowBytes: 41, bitsPerPixel: 32, height: height).map.keptCopies
        #expect(kept == [-1, -1] + (1..<(height - 2)).map { Int32($0) } + [-1])
        // Filtered rows keep the keys, not plain copies, which their encoder never reads.
        let filtered = RepeatDeflater(map: map, width: 10, rowBytes: 41, bitsPerPixel: 32, filtersRows: true, height: height).map
        #expect(filtered.keepsRowKeys && filtered.keptCopies == nil)
        let past = RepeatMap.keptRowsWhileEncoding + 1
        let tall = RepeatMap(plan: try plan(distinct(), size: PixelSize(width: 5, height: past)), source: distinct())
        #expect(!RepeatDeflater(map: tall, width: 5, rowBytes: 21, bitsPerPixel: 32, height: past).map.keepsRowKeys)
    }

    /// Source rows 0 and 2 are the same bytes, so the bottom cap row is a copy
    /// of the top one; a nearest tile of a 1-px centre at width 7 has period 1.
    @Test func identicalSourceRowsRepeat() throws {
        var pixels = distinct().rgba.pixels
        for i in 0..<12 { pixels[24 + i] = pixels[i] } // row 2 := row 0
        let source = PremultipliedImage(RGBAImage(width: 3, height: 3, pixels: pixels))
        let map = RepeatMap(plan: try plan(source, size: PixelSize(width: 7, height: 4), modes: PerAxis(both: .tile), filter: .nearest),
                            source: source)
        #expect(map.copies(of: 0..<4, lookingBackTo: 0) == [-1, -1, 1, 0])
    }

    /// A 3x6 source, each row its own, tiled down a centre of 4 rows (1..<5): at k = 1 the
    /// centre's rows repeat every 4 exactly, so their keys are copied a period up rather than
    /// worked out (`AxisSpan.exactPeriod`). Worked by hand: 50 rows, rows 1-48 the centre;
    /// rows 5-48 copy the row 4 up; the caps (rows 0 and 49) and the first period copy nothing.
    @Test func aTileAtAWholeScaleRepeatsEveryPeriod() throws {
        let source = PremultipliedImage(RGBAImage(width: 3, height: 6, pixels: (0..<18).flatMap { [UInt8(12 * $0 + 5), 9, 9, 255] }))
        let y = [Segment(0, 1, scalable: false), Segment(1, 5, scalable: true), Segment(5, 6, scalable: false)]
        let x = [Segment(0, 1, scalable: false), Segment(1, 2, scalable: true), Segment(2, 3, scalable: false)]
        let lattice = try Lattice(width: 3, height: 6, x: x, y: y)
        let expected = (0..<50).map { $0 >= 5 && $0 < 49 ? Int32($0 - 4) : -1 }
        for filter in [Filter.nearest, .linear] {
            let plan = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: 3, height: 50), k: 1, modes: PerAxis(both: .tile),
                                            filter: filter, fillCenter: true)
            #expect(plan.ySpans.map(\.exactPeriod) == [nil, 4, nil])
            let map = RepeatMap(plan: plan, source: source)
            #expect(map.copies(of: 0..<50, lookingBackTo: 0) == expected, "\(filter)")
            // A piece starting mid-tile works its first period out, then copies: the same answers.
            for (start, back) in [(7, 7), (13, 9), (30, 2), (46, 46)] {
                let copies = map.copies(of: start..<50, lookingBackTo: back)
                #expect(copies == expected[start...].map { $0 >= Int32(back) ? $0 : -1 }, "\(filter) \(start) \(back)")
            }
        }
        // At k = 2 a texel is two rows across and the period 8; at k = 3 (a third is not exact) none is claimed.
        for (k, period) in [(2.0, 8 as Int?), (3.0, nil)] {
            let plan = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: 3, height: 50), k: k, modes: PerAxis(both: .tile),
                                            filter: .linear, fillCenter: true)
            #expect(plan.ySpans[1].exactPeriod == period, "k \(k)")
        }
        let stretched = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: 3, height: 50), k: 1, modes: PerAxis(both: .stretch),
                                             filter: .linear, fillCenter: true)
        #expect(stretched.ySpans.allSatisfy { $0.exactPeriod == nil })
    }

    /// On seeded random jobs (every mode, filter, scale and lattice parity
    /// draws), each claim is checked against the CPU's pixels.
    @Test func everyClaimHoldsInTheDrawnPixels() throws {
        var rows = 0, periodic = 0
        for index in 0..<400 {
            let job = Parity.job(index: index, seed: 4242)
            let map = RepeatMap(plan: job.plan, source: job.source)
            let image = try Backend.cpu.image(job.plan, source: job.source).rgba
            let width = image.width, pixels = image.pixels
            func pixel(_ x: Int, _ y: Int) -> ArraySlice<UInt8> { pixels[((y * width + x) * 4)..<((y * width + x) * 4 + 4)] }
            for (y, earlier) in map.copies(of: 0..<image.height, lookingBackTo: 0).enumerated() where earlier >= 0 {
                rows += 1
                let a = pixels[(y * width * 4)..<((y + 1) * width * 4)], b = pixels[(Int(earlier) * width * 4)..<((Int(earlier) + 1) * width * 4)]
                #expect(a == b, "\(job): row \(y) is not row \(earlier)")
            }
            for (destination, period) in map.columnPeriods where period < destination.count {
                periodic += 1
                for y in 0..<image.height {
                    for x in (destination.lowerBound + period)..<destination.upperBound where pixel(x, y) != pixel(x - period, y) {
                        Issue.record("\(job): pixel \(x),\(y) differs from \(period) to its left")
                    }
                }
            }
        }
        // The jobs give the map something to claim.
        #expect(rows > 1000 && periodic > 100, "\(rows) rows, \(periodic) spans")
    }
}
