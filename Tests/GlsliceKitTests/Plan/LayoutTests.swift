import Testing
@testable import GlsliceKit

/// docs/RENDERING.md §2 boundaries, computed by hand.
@Suite struct LayoutTests {
    let nine = [Segment(0, 1, scalable: false), Segment(1, 4, scalable: true), Segment(4, 5, scalable: false)]

    func destinations(_ segments: [Segment], _ d: Int, k: Double) throws -> [Range<Int>] {
        try Layout.axis(segments, destination: d, k: k, mode: .stretch, axisName: "x").map(\.destination)
    }

    @Test func capsKeepTheirSizeAndTheCentreTakesTheRest() throws {
        #expect(try destinations(nine, 8, k: 1) == [0..<1, 1..<7, 7..<8])
        #expect(try destinations(nine, 14, k: 2) == [0..<2, 2..<12, 12..<14])
        // k = 1.5: caps of 1.5 px snap at running sums 1.5 → 2 and 7.5 → 8.
        #expect(try destinations(nine, 9, k: 1.5) == [0..<2, 2..<8, 8..<9])
    }

    @Test func capsShrinkWhenTheOutputIsSmallerThanThem() throws {
        let wide = [Segment(0, 2, scalable: false), Segment(2, 4, scalable: true), Segment(4, 6, scalable: false)]
        // F = 4 > D = 3: each cap gets 2 × 3/4 = 1.5; running sums 1.5, 1.5, 3 → 2, 2, 3.
        #expect(try destinations(wide, 3, k: 1) == [0..<2, 2..<2, 2..<3])
        #expect(try destinations(wide, 2, k: 1) == [0..<1, 1..<1, 1..<2])
        #expect(try destinations(nine, 1, k: 1) == [0..<1, 1..<1, 1..<1])
    }

    @Test func scalableSegmentsShareTheRestInProportion() throws {
        let lattice = [Segment(0, 1, scalable: false), Segment(1, 2, scalable: true), Segment(2, 3, scalable: false),
                       Segment(3, 6, scalable: true), Segment(6, 7, scalable: false)]
        // R = 8 shared 1:3 → 2 and 6.
        #expect(try destinations(lattice, 11, k: 1) == [0..<1, 1..<3, 3..<4, 4..<10, 10..<11])
        // R = 7 → 1.75 and 5.25: running sums 1, 2.75, 3.75, 9, 10 → 1, 3, 4, 9, 10.
        #expect(try destinations(lattice, 10, k: 1) == [0..<1, 1..<3, 3..<4, 4..<9, 9..<10])
    }

    @Test func noResizableAreaIsAnError() {
        let fixed = [Segment(0, 3, scalable: false)]
        #expect(throws: GlsliceError.self) { try destinations(fixed, 5, k: 1) }
        // A remainder under one pixel stretches the caps instead (docs/RENDERING.md §2.3).
        #expect((try? destinations(fixed, 3, k: 1)) == [0..<3])
    }

    @Test func modeConstants() throws {
        func mapping(_ mode: ResizeMode, _ d: Int, k: Double = 1) throws -> AxisMapping {
            try Layout.axis(nine, destination: d, k: k, mode: mode, axisName: "x")[1].mapping
        }
        // repeat: L = 6, n = 3 → o = floor(1.5 + 0.5) = 2, origin P + o = 3.
        #expect(try mapping(.repeat, 8) == .wrapped(origin: 3, num: 1, den: 1))
        // round: L = 7, n = 3 → c = floor(7/3 + 0.5) = 2, T = 3.5, n/T = 6/7.
        #expect(try mapping(.round, 9) == .wrapped(origin: 1, num: 6, den: 7))
        // space: L = 8, n = 3 → c = 2, g = 2/3; starts 1 + floor(2/3 + 0.5) = 2 and 1 + floor(2/3 + 3 + 2/3 + 0.5) = 5.
        guard case .spaced(let tiles, let k) = try mapping(.space, 10) else { Issue.record("not spaced"); return }
        #expect(k == 1 && tiles.count == 2 && tiles.pixels == 3 && tiles.start(0) == 2 && tiles.start(1) == 5)
        // Pixels 1..<9: gap at 1, tile 2..<5, gap, tile 5..<8, gap at 8.
        #expect((1..<9).map { tiles.start(containing: $0) } == [nil, 2, 2, 2, 5, 5, 5, nil])
        // auto: n = 3 tiles; a 1-px centre stretches.
        #expect(try mapping(.auto, 8) == .wrapped(origin: 1, num: 1, den: 1))
        let thin = [Segment(0, 1, scalable: false), Segment(1, 2, scalable: true), Segment(2, 3, scalable: false)]
        let span = try Layout.axis(thin, destination: 7, k: 1, mode: .auto, axisName: "x")[1]
        #expect(span.mapping == .clamped(origin: 1, num: 1, den: 5))
    }

    /// `space` is arithmetic per pixel, not a list of tiles: the count of tiles is
    /// the input's to choose (a 1-px tile at 1/64 scale once planned 64 million pieces).
    @Test func spaceIsOnePiecePerSpanWhateverTheTileCount() throws {
        let thin = [Segment(0, 16, scalable: false), Segment(16, 17, scalable: true), Segment(17, 33, scalable: false)]
        for (d, k) in [(1_000_000, 1.0 / 64), (100_000, 1.0), (100_000, 3.0)] {
            let spans = try Layout.axis(thin, destination: d, k: k, mode: .space, axisName: "x")
            #expect(spans.allSatisfy { $0.tiles != nil || $0.drawn == nil || !$0.segment.scalable })
        }
    }

    /// Against the starts written out as docs/RENDERING.md §3 states them,
    /// tile by tile, for lengths, tile sizes and scales that land on and off
    /// whole pixels: every pixel's tile (or gap) is the same, and so is how many are in tiles.
    @Test func spaceTileLookupAgreesWithTheListOfStarts() throws {
        for n in [1, 2, 3, 5, 7] {
            for k in [0.5, 2.0 / 3, 1, 1.5, 2, 3] {
                for length in [1, 2, 3, 7, 10, 31, 64, 101] {
                    let segments = [Segment(0, n, scalable: true)]
                    let span = try Layout.axis(segments, destination: length, k: k, mode: .space, axisName: "x")[0]
                    let tile = Double(n) * k, l = Double(length)
                    let c = Int((l / tile + 1e-9).rounded(.down))
                    let gap = (l - Double(c) * tile) / Double(c + 1)
                    let starts = (0..<max(c, 0)).map { Int((gap + Double($0) * (tile + gap) + 0.5 + 1e-9).rounded(.down)) }
                    let drawn = Int((tile - 0.5 - 1e-9).rounded(.up))
                    var covered = 0
                    for x in 0..<length {
                        let owner = starts.last { $0 <= x }
                        let expected = owner.flatMap { x - $0 < drawn ? $0 : nil }
                        let actual = span.drawn == nil ? nil : span.tiles?.start(containing: x)
                        #expect(actual == expected, "n \(n) k \(k) L \(length) x \(x)")
                        if expected != nil { covered += 1 }
                    }
                    // The pixels in tiles, summed tile by tile (what a job's opacity asks), are those counted here.
                    #expect(span.drawnCount == covered, "n \(n) k \(k) L \(length)")
                }
            }
        }
    }
}
