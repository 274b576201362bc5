import Foundation
import Testing
@testable import GlsliceKit

/// `inspect` on every fixture. The expected bands are worked out by hand
/// from how Scripts/make-fixtures.py draws each one (the reasoning is beside
/// each case), not from the analysis code.
@Suite struct InspectionTests {
    /// (axis, start, end, content, period, pixels to lose)
    typealias Band = (String, Int, Int, String, Int?, Int)

    static let cases: [(file: String, insets: String?, bands: [Band])] = [
        // Rounded panel, radius 6: column 8 and row 8 change along their length (corners), 1 px already.
        ("panel.png", "8,8,8,8", [("x", 8, 9, "gradient", nil, 0), ("y", 8, 9, "gradient", nil, 0)]),
        ("button.png", "14,12,14,12", [("x", 12, 13, "gradient", nil, 0), ("y", 14, 15, "gradient", nil, 0)]),
        // @2x: caps 24/28 px, a 2-px centre whose two columns mirror each other about the
        // button's middle (x = 25), so they are equal: lose 1 x 58. Its fill is a vertical
        // gradient (green 130 + 60(1 - y/57): rows 28 and 29 give 161 and 159), so the
        // rows differ and the y band is needed whole.
        ("button@2x.png", "14,12,14,12", [("x", 24, 26, "gradient", nil, 58), ("y", 28, 30, "none", nil, 0)]),
        // @3x: a 3-px centre past the corners, where the fill changes only along y: lose 2 x 87.
        ("button@3x.png", "14,12,14,12", [("x", 36, 39, "gradient", nil, 174), ("y", 42, 45, "none", nil, 0)]),
        // 1x24 vertical gradient: one column (a gradient along y); its 24 rows all differ.
        ("bar.png", nil, [("x", 0, 1, "gradient", nil, 0), ("y", 0, 24, "none", nil, 0)]),
        // 8-px bricks offset by 4 on alternate courses: columns repeat every 8 (16 = 2 periods,
        // lose 8 columns x 28 rows); the two 8-row courses differ, so rows do not repeat.
        ("texture.png", "6,6,6,6", [("x", 6, 22, "periodic", 8, 224), ("y", 6, 22, "none", nil, 0)]),
        ("shadow.png", "16,16,16,16", [("x", 16, 17, "gradient", nil, 0), ("y", 16, 17, "gradient", nil, 0)]),
        // Columns 8-9 and 16-17 lie past the radius-7 corners and beside the tail: equal columns,
        // alpha falling off at the bottom (gradient, lose 22 each). Rows 8-9 are fully inside the
        // body: one colour (solid, lose 26).
        ("bubble.9.png", nil, [("x", 8, 10, "gradient", nil, 22), ("x", 16, 18, "gradient", nil, 22), ("y", 8, 10, "solid", nil, 26)]),
        ("bubble.compiled.9.png", nil, [("x", 8, 10, "gradient", nil, 22), ("x", 16, 18, "gradient", nil, 22), ("y", 8, 10, "solid", nil, 26)]),
        // The image set's @1x variant is button.png cropped to caps + a 1-px centre.
        ("button.imageset", nil, [("x", 12, 13, "gradient", nil, 0), ("y", 14, 15, "gradient", nil, 0)]),
        // Run 60 100 140 180 changes along x; the single row is not one colour.
        ("android/gradient.9.png", nil, [("x", 2, 6, "none", nil, 0), ("y", 0, 1, "gradient", nil, 0)]),
        // 9x6 of grey 70: both bands solid (2 columns x 6 rows and 2 rows x 9 columns, 1 of each kept).
        ("android/optical.9.png", nil, [("x", 3, 5, "solid", nil, 6), ("y", 2, 4, "solid", nil, 9)]),
        // 3x3 and 4x3 of one grey (sixteen: 0x12FF scales to 19 everywhere): solid bands.
        ("android/corners.9.png", nil, [("x", 1, 2, "solid", nil, 0), ("y", 1, 2, "solid", nil, 0)]),
        ("android/sixteen.9.png", nil, [("x", 1, 3, "solid", nil, 3), ("y", 1, 2, "solid", nil, 0)]),
        ("android/whole-axis.9.png", nil, [("x", 0, 4, "none", nil, 0), ("y", 1, 2, "gradient", nil, 0)]),
    ]

    static func json(_ inspection: Inspection) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(inspection.json.utf8)) as? [String: Any])
    }

    @Test(arguments: cases.indices)
    func bandsAreAnalysedAsWorkedOutByHand(_ index: Int) throws {
        let c = Self.cases[index]
        let inspection = try Inspection.make(path: fixtures.appendingPathComponent(c.file).path,
                                             insets: try c.insets.map(Insets.init(parsing:)) ?? .zero)
        let bands = try #require(try Self.json(inspection)["bands"] as? [[String: Any]])
        let got = bands.map { b in
            "\(b["axis"] ?? "") \(b["start"] ?? "")-\(b["end"] ?? "") \(b["content"] ?? "") \((b["period"] as? Int).map(String.init) ?? "-") \(b["pixels-to-lose"] ?? "")"
        }
        let expected = c.bands.map { "\($0.0) \($0.1)-\($0.2) \($0.3) \($0.4.map(String.init) ?? "-") \($0.5)" }
        #expect(got == expected, "\(c.file)")
    }

    @Test func jsonCarriesSizeLatticeAndBounds() throws {
        let object = try Self.json(try Inspection.make(path: fixtures.appendingPathComponent("android/optical.9.png").path))
        #expect(object["width"] as? Int == 9 && object["height"] as? Int == 6)
        #expect(object["kind"] as? String == "nine-patch" && object["default-mode"] as? String == "stretch")
        #expect((object["lattice-x"] as? [[String: Any]])?.map { $0["scalable"] as? Bool } == [false, true, false])
        let padding = try #require(object["padding"] as? [String: Int])
        #expect(padding == ["top": 1, "left": 3, "bottom": 2, "right": 2])
        #expect(object["optical"] as? [String: Int] == ["top": 0, "left": 2, "bottom": 1, "right": 1])
    }

    /// panel.png's centre pixel (8, 8) lies inside both rounded rects, so
    /// make-fixtures.py gives it 245 grey (0xF5), opaque: the one one-colour cell.
    @Test func jsonListsOneColourCells() throws {
        let object = try Self.json(try Inspection.make(path: fixtures.appendingPathComponent("panel.png").path,
                                                       insets: Insets(top: 8, left: 8, bottom: 8, right: 8)))
        let cells = try #require(object["filled-cells"] as? [[String: Any]])
        #expect(cells.count == 1)
        #expect(cells.first?["colour"] as? String == "#F5F5F5FF")
        #expect((cells.first?["x"] as? [String: Any])?["start"] as? Int == 8)
        #expect((cells.first?["y"] as? [String: Any])?["end"] as? Int == 9)
    }

    @Test func scaleSiblingsAgreeOrSayWhy() throws {
        let button = try Inspection.make(path: fixtures.appendingPathComponent("button@2x.png").path,
                                         insets: Insets(top: 14, left: 12, bottom: 14, right: 12))
        #expect(button.scales.variants.map(\.scale) == [1, 2, 3])
        #expect(button.scales.agree)
        let set = try Inspection.make(path: fixtures.appendingPathComponent("button.imageset").path)
        #expect(set.scales.variants.count == 3 && set.scales.agree)

        // A @3x that is not 3x the @1x.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-scales-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("button.png"), to: folder.appendingPathComponent("b.png"))
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("button@2x.png"), to: folder.appendingPathComponent("b@2x.png"))
        try FileManager.default.copyItem(at: fixtures.appendingPathComponent("texture.png"), to: folder.appendingPathComponent("b@3x.png"))
        let mixed = try Inspection.make(path: folder.appendingPathComponent("b.png").path, insets: Insets(top: 14, left: 12, bottom: 14, right: 12))
        #expect(!mixed.scales.agree, "\(mixed.scales.problems)")
        #expect(mixed.scales.problems.contains { $0.contains("b@3x.png is 9.333x9.333 pt (28x28 px at @3x), but b.png is 25x29 pt") },
                "\(mixed.scales.problems)")
        // 14.5 pt is 29 px at @2x but not a whole pixel at @1x.
        let half = try Inspection.make(path: folder.appendingPathComponent("b@2x.png").path, insets: Insets(top: 14.5, left: 12, bottom: 14, right: 12))
        #expect(half.scales.problems.contains { $0.contains("b.png") && $0.contains("not on whole pixels") }, "\(half.scales.problems)")
    }
}

/// The linear band analysis against the definitions it replaces (issue 19:
/// testing every period line by line was cubic).
@Suite struct LinearBandAnalysisTests {
    /// The smallest period by its definition, tried one p at a time.
    static func bruteForcePeriod(_ values: [Int]) -> Int {
        guard values.count > 1 else { return max(1, values.count) }
        for p in 1..<values.count where (0..<(values.count - p)).allSatisfy({ values[$0] == values[$0 + p] }) { return p }
        return max(1, values.count)
    }

    @Test func smallestPeriodMatchesItsDefinition() {
        var rng = SeededGenerator(seed: 19)
        for _ in 0..<2000 {
            let length = Int.random(in: 0...40, using: &rng)
            let alphabet = Int.random(in: 1...4, using: &rng)
            // Half the cases are built periodic, with a partial period at the end.
            let period = Int.random(in: 1...8, using: &rng)
            let base = (0..<period).map { _ in Int.random(in: 0..<alphabet, using: &rng) }
            let values = Bool.random(using: &rng) ? (0..<length).map { base[$0 % period] }
                : (0..<length).map { _ in Int.random(in: 0..<alphabet, using: &rng) }
            #expect(RegionAnalysis.smallestPeriod(values) == Self.bruteForcePeriod(values), "\(values)")
        }
    }

    /// Lines get equal numbers exactly when their pixels are equal.
    @Test func lineNumbersAreEqualExactlyForEqualLines() {
        // 6 columns: 0, 2 and 4 equal; 1 and 5 equal; 3 differs from all in one pixel.
        let columns: [[UInt8]] = [[1, 2], [3, 4], [1, 2], [1, 5], [1, 2], [3, 4]]
        var pixels: [UInt8] = []
        for y in 0..<2 { for x in 0..<6 { pixels += [columns[x][y], 0, 0, 255] } }
        let image = PremultipliedImage(RGBAImage(width: 6, height: 2, pixels: pixels))
        let numbers = RegionAnalysis.lineNumbers(Segment(0, 6, scalable: true), axis: .x, image)
        for i in 0..<6 { for j in 0..<6 { #expect((numbers[i] == numbers[j]) == (columns[i] == columns[j]), "\(i), \(j)") } }
    }
}
