import Testing
@testable import GlsliceKit

/// Hand-computed pixels for docs/RENDERING.md §3. Source row: caps 10 | 20 30 40 | 50.
/// Every expectation below was worked out on paper from the formulas in the
/// spec (see the comments), never produced by the renderer.
/// Outputs wider than one column window (65,536 px), and wider than the
/// width whose windows are kept (1,048,576 px): the per-axis tables are made
/// window by window (issue 10), and every pixel still follows §3.
@Suite struct CPUWindowTests {
    @Test(arguments: [70_001, 1_048_577 + 3])
    func tiledPixelsAcrossWindows(width: Int) throws {
        // Caps 10 | 20 30 40 | 50, tile at k = 1, nearest: pixel x in the centre
        // [1, width − 1) shows texel 1 + (x − 1) mod 3, i.e. 20, 30, 40 repeating.
        let values: [UInt8] = [10, 20, 30, 40, 50]
        let lattice = try lineLattice([(0, 1, false), (1, 4, true), (4, 5, false)], vertical: false)
        let plan = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: width, height: 2), k: 1,
                                  modes: PerAxis(x: .tile, y: .stretch), filter: .nearest, fillCenter: true)
        let image = try Backend.cpu.image(plan, source: greyRow(values))
        var wrong = 0
        for y in 0..<2 {
            for x in 0..<width {
                let expected: UInt8 = x == 0 ? 10 : x == width - 1 ? 50 : [20, 30, 40][(x - 1) % 3]
                if image.rgba[x, y] != [expected, expected, expected, 255] { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }
}

@Suite struct CPUDrawerTests {
    let source: [UInt8] = [10, 20, 30, 40, 50]
    let nine = [(0, 1, false), (1, 4, true), (4, 5, false)]

    func line(_ mode: ResizeMode, _ length: Int, k: Double, _ filter: Filter = .linear,
              vertical: Bool) throws -> [Expected] {
        try renderLine(source, segments: nine, length: length, k: k, mode: mode, filter: filter, vertical: vertical)
    }

    // MARK: stretch

    @Test(arguments: [false, true])
    func stretch(vertical: Bool) throws {
        // k = 1, L = 6: u = 1 + (x − 0.5)/2 → 1.25, 1.75, … 3.75; blends 20/30/40 at 0.25 steps.
        #expect(try line(.stretch, 8, k: 1, vertical: vertical) == [10, 20, 23, 28, 33, 38, 40, 50])
        // k = 2: caps 2 px of one texel each; centre [2, 14), L = 12, n = 3.
        // u = 1 + (x − 1.5)/4: 1.125, 1.375, … 3.875; f in steps of 0.25.
        #expect(try line(.stretch, 16, k: 2, vertical: vertical) ==
                [10, 10, 20, 20, 21, 24, 26, 29, 31, 34, 36, 39, 40, 40, 50, 50])
        // k = 1.5: boundaries 2 and 8, centre L = 6 as at k = 1.
        #expect(try line(.stretch, 9, k: 1.5, vertical: vertical) == [10, 10, 20, 23, 28, 33, 38, 40, 50])
    }

    @Test(arguments: [false, true])
    func stretchNearest(vertical: Bool) throws {
        #expect(try line(.stretch, 8, k: 1, .nearest, vertical: vertical) == [10, 20, 20, 30, 30, 40, 40, 50])
        #expect(try line(.stretch, 16, k: 2, .nearest, vertical: vertical) ==
                [10, 10, 20, 20, 20, 20, 30, 30, 30, 30, 40, 40, 40, 40, 50, 50])
    }

    // MARK: tile

    @Test(arguments: [false, true])
    func tile(vertical: Bool) throws {
        // k = 1: exact texels, phase at the segment start.
        #expect(try line(.tile, 8, k: 1, vertical: vertical) == [10, 20, 30, 40, 20, 30, 40, 50])
        // k = 2: u = 1 + mod((x − 1.5)/2, 3); wrap blends 40 with 20 at the seam (25 and 35).
        #expect(try line(.tile, 14, k: 2, vertical: vertical) ==
                [10, 10, 25, 23, 28, 33, 38, 35, 25, 23, 28, 33, 50, 50])
        // k = 1.5: u = 1 + mod((x − 1.5)/1.5, 3) = 4/3, 2, 8/3, 10/3, 1, 5/3.
        #expect(try line(.tile, 9, k: 1.5, vertical: vertical) == [10, 10, 23, 25, 32, 38, 30, 22, 50])
    }

    @Test(arguments: [false, true])
    func tileNearest(vertical: Bool) throws {
        #expect(try line(.tile, 14, k: 2, .nearest, vertical: vertical) ==
                [10, 10, 20, 20, 30, 30, 40, 40, 20, 20, 30, 30, 50, 50])
    }

    // MARK: repeat

    @Test(arguments: [false, true])
    func repeatCentresOneTile(vertical: Bool) throws {
        // k = 1, L = 6: o = 2, so the whole tile 20 30 40 sits at x = 3…5.
        #expect(try line(.repeat, 8, k: 1, vertical: vertical) == [10, 30, 40, 20, 30, 40, 20, 50])
        // k = 2, L = 10, n·k = 6: o = floor(2.5) = 2; u = 1 + mod((x − 3.5)/2, 3).
        #expect(try line(.repeat, 14, k: 2, vertical: vertical) ==
                [10, 10, 38, 35, 25, 23, 28, 33, 38, 35, 25, 23, 50, 50])
        // k = 1.5, L = 6, n·k = 4.5: o = floor(1.25) = 1; u = 1 + mod((x − 2.5)/1.5, 3)
        // = 11/3, 4/3, 2, 8/3, 10/3, 1.
        #expect(try line(.repeat, 9, k: 1.5, vertical: vertical) == [10, 10, 37, 23, 25, 32, 38, 30, 50])
    }

    // MARK: round

    @Test(arguments: [false, true])
    func roundFitsWholeTiles(vertical: Bool) throws {
        // k = 1, L = 7, n = 3: c = 2, T = 3.5, u = 1 + mod((x − 0.5) × 6/7, 3).
        #expect(try line(.round, 9, k: 1, vertical: vertical) == [10, 21, 28, 36, 30, 24, 32, 39, 50])
        #expect(try line(.round, 9, k: 1, .nearest, vertical: vertical) == [10, 20, 30, 40, 20, 20, 30, 40, 50])
        // k = 2, L = 10, n·k = 6: c = floor(10/6 + 0.5) = 2, T = 5; u = 1 + mod((x − 1.5) × 0.6, 3).
        // u − 1 = 0.3, 0.9, 1.5, 2.1, 2.7, then again.
        #expect(try line(.round, 14, k: 2, vertical: vertical) ==
                [10, 10, 24, 24, 30, 36, 36, 24, 24, 30, 36, 36, 50, 50])
        // k = 1.5, L = 6, n·k = 4.5: c = floor(1.833) = 1, T = 6; u = 1 + (x − 1.5)/2 as stretch, but wrapped.
        #expect(try line(.round, 9, k: 1.5, vertical: vertical) == [10, 10, 25, 23, 28, 33, 38, 35, 50])
    }

    // MARK: space

    @Test(arguments: [false, true])
    func spaceLeavesTransparentGaps(vertical: Bool) throws {
        // k = 1, L = 8: c = 2, tiles at 2 and 5; x = 1 and x = 8 are gaps.
        #expect(try line(.space, 10, k: 1, vertical: vertical) == [10, T, 20, 30, 40, 20, 30, 40, T, 50])
        // k = 2, L = 12: c = 2, g = 0, tiles at 2 and 8; clamp keeps tile edges at 20 and 40.
        #expect(try line(.space, 16, k: 2, vertical: vertical) ==
                [10, 10, 20, 23, 28, 33, 38, 40, 20, 23, 28, 33, 38, 40, 50, 50])
        // k = 1.5, L = 10 (D = 13): n·k = 4.5, c = 2, g = 1/3; starts 2 + floor(0.833) = 2 and 2 + floor(5.667) = 7.
        // Tile 1 covers centres in [2, 6.5): x = 2…5; x = 6 is a gap; tile 2 covers [7, 11.5): x = 7…10; x = 11 gap.
        // u = 1 + (x + 0.5 − start)/1.5 = 4/3, 2, 8/3, 10/3.
        #expect(try line(.space, 13, k: 1.5, vertical: vertical) ==
                [10, 10, 20, 25, 32, 38, T, 20, 25, 32, 38, T, 50])
        // No whole tile fits: the centre is transparent.
        #expect(try line(.space, 4, k: 1, vertical: vertical) == [10, T, T, 50])
    }

    // MARK: auto

    @Test(arguments: [false, true])
    func autoTilesWideCentresAndStretchesOnePixel(vertical: Bool) throws {
        #expect(try line(.auto, 14, k: 2, vertical: vertical) ==
                [10, 10, 25, 23, 28, 33, 38, 35, 25, 23, 28, 33, 50, 50])
        // A 1-px centre stretches: every centre pixel is exactly that texel, never a cap's.
        let thin = try renderLine([10, 99, 50], segments: [(0, 1, false), (1, 2, true), (2, 3, false)],
                                  length: 9, k: 1.5, mode: .auto, vertical: vertical)
        #expect(thin == [10, 10, 99, 99, 99, 99, 99, 99, 50])
    }

    // MARK: caps

    @Test(arguments: [false, true])
    func capsShrink(vertical: Bool) throws {
        let wide: [UInt8] = [10, 20, 30, 40, 50, 60]
        let segments = [(0, 2, false), (2, 4, true), (4, 6, false)]
        // D = 3: left cap [0, 2) exact; right cap [2, 3) n = 2, L = 1: u = 5 → blend 50/60.
        #expect(try renderLine(wide, segments: segments, length: 3, k: 1, mode: .tile, vertical: vertical) == [10, 20, 55])
        #expect(try renderLine(wide, segments: segments, length: 3, k: 1, mode: .tile, filter: .nearest,
                               vertical: vertical) == [10, 20, 60])
        // D = 2: u = 1 in the left cap (blend 10/20), u = 5 in the right.
        #expect(try renderLine(wide, segments: segments, length: 2, k: 1, mode: .tile, vertical: vertical) == [15, 55])
    }

    @Test(arguments: [false, true])
    func multiSegmentLattice(vertical: Bool) throws {
        let values: [UInt8] = [10, 20, 30, 40, 50, 60, 70]
        let segments = [(0, 1, false), (1, 2, true), (2, 3, false), (3, 6, true), (6, 7, false)]
        #expect(try renderLine(values, segments: segments, length: 11, k: 1, mode: .stretch, vertical: vertical) ==
                [10, 20, 20, 30, 40, 43, 48, 53, 58, 60, 70])
        // D = 10: segments [1,3) and [4,9); nearest u = 3 + (x − 3.5) × 3/5.
        #expect(try renderLine(values, segments: segments, length: 10, k: 1, mode: .stretch, filter: .nearest,
                               vertical: vertical) == [10, 20, 20, 30, 40, 40, 50, 60, 60, 70])
    }
}

/// Two-dimensional cases: bilinear rounding, bleeding, centre fill, alpha.
@Suite struct CPURenderer2DTests {
    func grey(_ rows: [[UInt8]]) -> PremultipliedImage {
        PremultipliedImage(RGBAImage(width: rows[0].count, height: rows.count,
                                     pixels: rows.flatMap { $0.flatMap { [$0, $0, $0, 255] } }))
    }

    func render(_ source: PremultipliedImage, insets: PixelInsets, size: PixelSize, k: Double = 1,
                mode: ResizeMode = .stretch, filter: Filter = .linear, fill: Bool = true) throws -> PremultipliedImage {
        let lattice = try Lattice(width: source.width, height: source.height, insets: insets)
        let plan = try PlanBuilder.plan(lattice: lattice, size: size, k: k, modes: PerAxis(both: mode),
                                  filter: filter, fillCenter: fill)
        return try Backend.cpu.image(plan, source: source)
    }

    @Test func bilinearRoundsOnceAtTheEnd() throws {
        // 2×2 → 4×4 stretch: at (1,1) fx = fy = 0.25: top 25, bottom 213.75 → 72.1875 → 72.
        // At (2,1): fx = 0.75, fy = 0.25: top 75, bottom 241.25 → 116.5625 → 117.
        let out = try render(grey([[0, 100], [200, 255]]), insets: .init(top: 0, left: 0, bottom: 0, right: 0),
                             size: PixelSize(width: 4, height: 4))
        #expect(out.rgba[1, 1] == [72, 72, 72, 255])
        #expect(out.rgba[2, 1] == [117, 117, 117, 255])
        #expect(out.rgba[0, 0] == [0, 0, 0, 255])
        #expect(out.rgba[3, 3] == [255, 255, 255, 255])
    }

    @Test func clampNeverReadsANeighbouringSegment() throws {
        // Transparent caps around an opaque red centre, stretched 2× with linear:
        // every centre pixel stays exactly opaque red and every cap exactly clear.
        let clear: [UInt8] = [0, 0, 0, 0], red: [UInt8] = [255, 0, 0, 255]
        var pixels: [UInt8] = []
        for y in 0..<3 { for x in 0..<3 { pixels += (x == 1 && y == 1) ? red : clear } }
        let source = PremultipliedImage(RGBAImage(width: 3, height: 3, pixels: pixels))
        let out = try render(source, insets: .init(top: 1, left: 1, bottom: 1, right: 1),
                             size: PixelSize(width: 10, height: 10), k: 2)
        for y in 0..<10 {
            for x in 0..<10 {
                let inside = (2..<8).contains(x) && (2..<8).contains(y)
                #expect(out.rgba[x, y] == (inside ? red : clear), "pixel \(x),\(y)")
            }
        }
    }

    @Test func centreOffLeavesTheCentreTransparent() throws {
        let source = grey([[10, 20, 30], [40, 50, 60], [70, 80, 90]])
        let out = try render(source, insets: .init(top: 1, left: 1, bottom: 1, right: 1),
                             size: PixelSize(width: 5, height: 4), fill: false)
        let expected: [[UInt8?]] = [
            [10, 20, 20, 20, 30],
            [40, nil, nil, nil, 60],
            [40, nil, nil, nil, 60],
            [70, 80, 80, 80, 90],
        ]
        for (y, row) in expected.enumerated() {
            for (x, value) in row.enumerated() {
                #expect(out.rgba[x, y] == (value.map { [$0, $0, $0, 255] } ?? [0, 0, 0, 0]), "pixel \(x),\(y)")
            }
        }
    }

    @Test func exactCopyAtOneToOne() throws {
        // Output the same size as the source at k = 1: a copy, under both filters.
        let source = grey([[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12]])
        for filter in Filter.allCases {
            for mode in ResizeMode.allCases {
                let out = try render(source, insets: .init(top: 1, left: 1, bottom: 1, right: 1),
                                     size: PixelSize(width: 4, height: 3), mode: mode, filter: filter)
                #expect(out == source, "\(mode) \(filter)")
            }
        }
    }

    @Test func premultipliedBlendOfTranslucentTexels() throws {
        // Straight (255,0,0,255) and (0,0,255,0) premultiply to (255,0,0,255) and (0,0,0,0).
        // Midway (f = 0.5): (127.5, 0, 0, 127.5) → (128, 0, 0, 128); unpremultiplied (255, 0, 0, 128).
        let straight = StraightImage(RGBAImage(width: 2, height: 1, pixels: [255, 0, 0, 255, 0, 0, 255, 0]))
        let source = straight.premultiplied()
        let lattice = try Lattice(width: 2, height: 1, x: [Segment(0, 2, scalable: true)], y: [Segment(0, 1, scalable: true)])
        // 2 → 4: x = 1 has u = 0.75, t = 0.25 … use 2 → 1: u = 1.0, t = 0.5, f = 0.5.
        let plan = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: 1, height: 1), k: 1,
                                  modes: PerAxis(both: .stretch), filter: .linear, fillCenter: true)
        let out = try Backend.cpu.image(plan, source: source)
        #expect(out.rgba.pixels == [128, 0, 0, 128])
        #expect(out.straight().rgba.pixels == [255, 0, 0, 128])
    }
}
