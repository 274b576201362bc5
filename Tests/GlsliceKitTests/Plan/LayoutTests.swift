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
        #expect(try mapping(.space, 10) == .spaced(starts: [2, 5], tileLength: 3, k: 1))
        // auto: n = 3 tiles; a 1-px centre stretches.
        #expect(try mapping(.auto, 8) == .wrapped(origin: 1, num: 1, den: 1))
        let thin = [Segment(0, 1, scalable: false), Segment(1, 2, scalable: true), Segment(2, 3, scalable: false)]
        let span = try Layout.axis(thin, destination: 7, k: 1, mode: .auto, axisName: "x")[1]
        #expect(span.mapping == .clamped(origin: 1, num: 1, den: 5))
    }
}
