import Foundation
import GlsliceKit

/// `glslice-bench bound [--width W] [--height H] [--runs R] [--seed S] [--write DIR] [--only NAME]` (`make bench-bound`, issue 69):
/// the default encoder against zlib 6 on the adversarial corpus (`EncoderCorpus`) and on
/// renders that were its round-six findings (narrow tall `round`, 1-px stretches past
/// 65,536 rows a texel): bytes and encode time (median of R, one thread, into memory),
/// each family's worst ratios. Figures, not verdicts. `--write DIR`: each corpus image's default
/// and zlib 6 files go there too (`NAME.png`, `NAME.zlib.png`), for study with other encoders.
/// `--only NAME`: that image alone (for a profiler).
func benchBound(_ argv: [String]) throws {
    var width = 1000, height = 400, runs = 3, seed = 69
    var folder: String?, only: String?
    var it = argv.dropFirst(2).makeIterator()
    while let flag = it.next() {
        if flag == "--write" || flag == "--only" {
            guard let value = it.next() else { throw GlsliceError(.usage, "\(flag) needs a value") }
            if flag == "--write" { folder = value } else { only = value }
            continue
        }
        guard let value = it.next(), let number = Int(value), number > 0 else { throw GlsliceError(.usage, "\(flag) needs a positive number") }
        switch flag {
        case "--width": width = number
        case "--height": height = number
        case "--runs": runs = number
        case "--seed": seed = number
        default: throw GlsliceError(.usage, "unknown option \(flag) (--width, --height, --runs, --seed, --write, --only)")
        }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    /// Bytes and median seconds of `encode` at each compression, alternated.
    func measure(_ encode: (Compression) throws -> Int) rethrows -> (ours: Int, zlib: Int, oursSeconds: Double, zlibSeconds: Double) {
        var ours = 0, zlib = 0, oursTimes: [Double] = [], zlibTimes: [Double] = []
        for _ in 0..<runs {
            var start = ContinuousClock.now
            ours = try encode(.default)
            oursTimes.append((ContinuousClock.now - start).inSeconds)
            start = ContinuousClock.now
            zlib = try encode(.zlib)
            zlibTimes.append((ContinuousClock.now - start).inSeconds)
        }
        return (ours, zlib, median(oursTimes), median(zlibTimes))
    }
    var rows: [(name: String, size: String, ours: Int, zlib: Int, oursSeconds: Double, zlibSeconds: Double)] = []
    for item in EncoderCorpus.cases(width: width, height: height, seed: UInt64(seed)) where only == nil || only == item.name {
        let m = try measure { try PNGEncoder.encode(item.image, compression: $0).count }
        if let folder {
            try Data(PNGEncoder.encode(item.image, compression: .default)).write(to: URL(fileURLWithPath: "\(folder)/\(item.name).png"))
            try Data(PNGEncoder.encode(item.image, compression: .zlib)).write(to: URL(fileURLWithPath: "\(folder)/\(item.name).zlib.png"))
        }
        rows.append((item.name, "\(width)x\(height)", m.ours, m.zlib, m.oursSeconds, m.zlibSeconds))
    }
    // Renders: the plan's map is the encoder's, as batch and render give it.
    let renders: [(String, String, String)] = [
        ("round-button", "button.png", "60x8000 round"), ("round-texture", "texture.png", "28x8000 round"),
        ("space-button", "button.png", "60x8000 space"), ("round-strip", "texture.png", "2x400000 round"),
        ("stretch-1px-5", "bar.png", "1x393716 stretch"), ("stretch-1px-gradient", "shadow.png", "1x2000000 stretch"),
    ]
    for (name, file, spec) in renders where only == nil || only == name {
        let parts = spec.split(separator: " "), size = parts[0].split(separator: "x").compactMap { Int($0) }
        let image = try PNGDecoder.decode(path: "Fixtures/\(file)", maxPixels: 1 << 24).premultiplied()
        let source = ResolvedSource(source: SourceImage(image: image, file: file), key: SourceKey(contentHash: "bound:\(file)", recipe: .plain))
        let mode = try ResizeMode(parsing: String(parts[1]))
        let m = try measure { compression in
            var request = RenderRequest(size: .pixels(PixelSize(width: size[0], height: size[1])), insets: .zero, modes: PerAxis(x: mode, y: mode))
            request.compression = compression
            if name.hasPrefix("stretch") { request.filter = .linear }
            let job = try PreparedJob(request: request, source: source, limits: Limits())
            return try Engine.encode(job, drawing: .here, to: .memory).byteCount
        }
        rows.append((name, String(parts[0]), m.ours, m.zlib, m.oursSeconds, m.zlibSeconds))
    }
    print("| image | size | default bytes | zlib 6 bytes | bytes / zlib 6 | default s | zlib 6 s | time / zlib 6 |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for row in rows {
        print(String(format: "| %@ | %@ | %d | %d | %.3f | %.4f | %.4f | %.2f |", row.name, row.size, row.ours, row.zlib,
                     Double(row.ours) / Double(row.zlib), row.oursSeconds, row.zlibSeconds, row.oursSeconds / row.zlibSeconds))
    }
    print("\nworst by family (bytes / zlib 6, time / zlib 6):")
    guard !rows.isEmpty else { throw GlsliceError(.usage, "--only \(only ?? ""): no such image in the corpus") }
    let families = Dictionary(grouping: rows) { String($0.name.split(separator: "-").first ?? "") }
    for (family, members) in families.sorted(by: { $0.key < $1.key }) {
        let bytes = members.max { Double($0.ours) / Double($0.zlib) < Double($1.ours) / Double($1.zlib) }!
        let time = members.max { $0.oursSeconds / $0.zlibSeconds < $1.oursSeconds / $1.zlibSeconds }!
        print(String(format: "- %@: bytes %.3f (%@), time %.2f (%@)", family, Double(bytes.ours) / Double(bytes.zlib), bytes.name,
                     time.oursSeconds / time.zlibSeconds, time.name))
    }
    let worstBytes = rows.map { Double($0.ours) / Double($0.zlib) }.max() ?? 0, worstTime = rows.map { $0.oursSeconds / $0.zlibSeconds }.max() ?? 0
    print(String(format: "worst: bytes %.3fx zlib 6, time %.2fx", worstBytes, worstTime))
}

/// `glslice-bench bound-file PNG...`: each PNG's pixels through the default encoder and zlib 6 (as
/// `bound` does the corpus, without a plan), bytes and their ratio: images made elsewhere, studied.
func benchBoundFiles(_ argv: [String]) throws {
    for path in argv.dropFirst(2) {
        let image = try PNGDecoder.decode(path: path, maxPixels: 1 << 28).premultiplied()
        let ours = try PNGEncoder.encode(image, compression: .default).count, zlib = try PNGEncoder.encode(image, compression: .zlib).count
        print(String(format: "%@: default %d, zlib 6 %d, %.3fx", path, ours, zlib, Double(ours) / Double(zlib)))
    }
}
