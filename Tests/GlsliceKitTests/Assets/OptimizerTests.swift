import Foundation
import Testing
@testable import GlsliceKit

/// `optimize` on every fixture. The test does its own proof: it reads both
/// files back as any user would, renders them at 24 sizes of its own choosing
/// per reported mode (k = 1, both filters), and wants byte-identical pixels.
@Suite struct OptimizerTests {
    /// The modes each result must render the same in, written by hand from the
    /// rule (docs/GUIDE.md, "Asset tools in depth"): a copy (nothing to lose,
    /// or a smaller form that is no smaller a file) in all six; solid and
    /// gradient bands shrunk to 1 px in all but `space`; a texture kept at one
    /// period in `tile` and `auto` only. The optimizer may claim more, never less.
    static let all = Set(ResizeMode.allCases)
    static let stretchLike: Set<ResizeMode> = [.stretch, .tile, .auto, .repeat, .round]
    static let cases: [(file: String, insets: String?, keepPeriod: Bool, output: String, modes: Set<ResizeMode>)] = [
        ("panel.png", "8,8,8,8", false, "panel.png", all),
        ("button.png", "14,12,14,12", false, "button.png", all),
        ("button@2x.png", "14,12,14,12", false, "button@2x.png", stretchLike),   // 2 equal centre columns -> 1
        ("button@3x.png", "14,12,14,12", false, "button@3x.png", stretchLike),   // 3 -> 1
        ("bar.png", nil, false, "bar.png", all),
        ("texture.png", "6,6,6,6", false, "texture.png", all),
        ("texture.png", "6,6,6,6", true, "texture-period.png", [.tile, .auto]),  // 16 columns -> one 8-px period
        ("shadow.png", "16,16,16,16", false, "shadow.png", all),
        ("bubble.9.png", nil, false, "bubble.9.png", all),                        // 250 bytes would be more than 205
        ("bubble.compiled.9.png", nil, false, "bubble-raw.9.png", stretchLike),   // re-written raw, 2-px runs -> 1
        ("button.imageset", nil, false, "button.imageset", stretchLike),
        ("android/gradient.9.png", nil, false, "gradient.9.png", all),
        ("android/corners.9.png", nil, false, "corners.9.png", all),
        ("android/whole-axis.9.png", nil, false, "whole-axis.9.png", all),
        // Smaller form: 4x3 -> 3x3. Since renderer 13 `small` writes it grey + alpha, 83 bytes
        // against the input's 93 (as a palette it was larger, so the input was copied).
        ("android/sixteen.9.png", nil, false, "sixteen.9.png", stretchLike),
        ("android/optical.9.png", nil, false, "optical.9.png", all),              // likewise
    ]

    /// Sizes picked here, not by the optimizer: tiny, cap-sized, natural-ish, wide, tall, large.
    static let sizes: [PixelSize] = [(1, 1), (3, 2), (7, 5), (9, 6), (12, 12), (17, 17), (20, 21), (24, 29), (25, 29), (26, 22),
                                     (28, 28), (31, 40), (33, 33), (40, 8), (48, 30), (60, 13), (75, 87), (90, 41), (100, 100),
                                     (120, 44), (13, 120), (160, 60), (200, 17), (64, 150)].map { PixelSize(width: $0.0, height: $0.1) }

    static func render(_ path: String, insets: Insets, size: PixelSize, mode: ResizeMode, filter: Filter, scale: Double?) throws -> PremultipliedImage {
        let source = try SourceResolver.resolve(path: path, outputScale: scale) { try SourceImage.load(path: $0, maxPixels: 1 << 20) }
        var request = RenderRequest(size: .pixels(size), outputScale: scale, insets: source.hints.lattice == nil ? insets : .zero)
        request.modes = PerAxis(both: mode)
        request.filter = filter
        return try Backend.cpu.image(PlanBuilder.plan(request, source: source), source: source.image)
    }

    static func pixelCount(_ path: String) throws -> Int {
        if ImageSet.isImageSet(path: path) {
            return try ImageSet(path: path).variants.map { try PNGDecoder.decode(path: $0.file, maxPixels: 1 << 20) }
                .map { $0.width * $0.height }.reduce(0, +)
        }
        // The artwork's pixels: a raw .9.png's border is not part of the source.
        return try SourceImage.load(path: path, maxPixels: 1 << 20).size.pixelCount
    }

    @Test(arguments: cases.indices)
    func optimizedRendersTheSameInTheReportedModes(_ index: Int) throws {
        let c = Self.cases[index]
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-optimize-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = fixtures.appendingPathComponent(c.file).path, output = folder.appendingPathComponent(c.output).path
        let insets = try c.insets.map(Insets.init(parsing:)) ?? .zero
        let report = try Optimizer.optimize(input: input, output: output, insets: insets, keepPeriod: c.keepPeriod)
        #expect(c.modes.isSubset(of: Set(report.equalModes)), "\(c.file): claims \(report.equalModes), must hold at least \(c.modes.sorted { $0.rawValue < $1.rawValue })")
        // Smaller or unchanged; unchanged means the very same bytes.
        #expect(try Self.pixelCount(output) <= Self.pixelCount(input))
        if report.before == report.after, !ImageSet.isImageSet(path: input) {
            #expect(FileManager.default.contents(atPath: output) == FileManager.default.contents(atPath: input))
        }
        let scales: [Double?] = ImageSet.isImageSet(path: input) ? [1, 2, 3] : [nil]
        // Rendered in the modes written above and in any more it claims.
        for mode in ResizeMode.allCases where c.modes.contains(mode) || report.equalModes.contains(mode) {
            for scale in scales {
                for size in Self.sizes {
                    for filter in [Filter.linear, .nearest] {
                        let a = try Self.render(input, insets: insets, size: size, mode: mode, filter: filter, scale: scale)
                        let b = try Self.render(output, insets: insets, size: size, mode: mode, filter: filter, scale: scale)
                        #expect(a == b, "\(c.file) \(mode) \(size) \(filter) @\(scale ?? 0)")
                        if a != b { return }
                    }
                }
            }
        }
    }

    /// What each shrink may claim, worked out from the fixtures: a solid or
    /// gradient band shrinks to 1 px and stays equal in every mode but space
    /// (which lays whole tiles with gaps); a texture's one period only tiles the same.
    @Test func reportedModesAndSizes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-optimize-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bubble = try Optimizer.optimize(input: fixtures.appendingPathComponent("bubble.9.png").path,
                                            output: folder.appendingPathComponent("b.9.png").path)
        // Two 2-px x runs to 1 px each, one 2-px y run to 1 px; but that PNG
        // (250 bytes) is larger than the input's 205, so the input is copied.
        #expect(bubble.before == PixelSize(width: 26, height: 22) && bubble.after == bubble.before)
        #expect(bubble.notSmaller?.size == PixelSize(width: 24, height: 21))
        #expect(bubble.notSmaller.map { $0.bytes >= bubble.bytesBefore } == true && bubble.bytesAfter == bubble.bytesBefore)
        #expect(try Data(contentsOf: folder.appendingPathComponent("b.9.png"))
                == Data(contentsOf: fixtures.appendingPathComponent("bubble.9.png")))
        #expect(bubble.equalModes == ResizeMode.allCases) // a copy renders the same in every mode
        let reread = try SourceImage.load(path: folder.appendingPathComponent("b.9.png").path, maxPixels: 1 << 20)
        #expect(reread.hints.ninePatch?.padding == PixelInsets(top: 4, left: 4, bottom: 8, right: 4))
        let texture = try Optimizer.optimize(input: fixtures.appendingPathComponent("texture.png").path,
                                             output: folder.appendingPathComponent("t.png").path,
                                             insets: Insets(top: 6, left: 6, bottom: 6, right: 6), keepPeriod: true)
        // 16 columns of period 8 become 8; the rows have no period. Fewer bytes, so it is written.
        #expect(texture.after == PixelSize(width: 20, height: 28) && texture.notSmaller == nil)
        #expect(texture.bytesAfter < texture.bytesBefore)
        #expect(try SourceImage.load(path: folder.appendingPathComponent("t.png").path, maxPixels: 1 << 20).size == texture.after)
        #expect(texture.equalModes == [.tile, .auto])
        let untouched = try Optimizer.optimize(input: fixtures.appendingPathComponent("texture.png").path,
                                               output: folder.appendingPathComponent("t2.png").path,
                                               insets: Insets(top: 6, left: 6, bottom: 6, right: 6))
        #expect(untouched.after == untouched.before && untouched.equalModes == ResizeMode.allCases)
        // The optical fixture would shrink to 8x5 px, but in more bytes: it is copied, optical bounds and all.
        let opticalReport = try Optimizer.optimize(input: fixtures.appendingPathComponent("android/optical.9.png").path,
                                                   output: folder.appendingPathComponent("o.9.png").path)
        #expect(opticalReport.notSmaller?.size == PixelSize(width: 8, height: 5))
        let optical = try SourceImage.load(path: folder.appendingPathComponent("o.9.png").path, maxPixels: 1 << 20)
        #expect(optical.size == opticalReport.before)
        #expect(optical.hints.ninePatch?.optical == PixelInsets(top: 0, left: 2, bottom: 1, right: 1))
    }

    @Test func aNinePatchNeedsANinePatchOutputName() {
        #expect(throws: GlsliceError.self) {
            try Optimizer.optimize(input: fixtures.appendingPathComponent("bubble.compiled.9.png").path,
                                   output: FileManager.default.temporaryDirectory.appendingPathComponent("x.png").path)
        }
        #expect(throws: GlsliceError.self) {
            try Optimizer.optimize(input: fixtures.appendingPathComponent("panel.png").path,
                                   output: FileManager.default.temporaryDirectory.appendingPathComponent("x.9.png").path)
        }
    }
}
