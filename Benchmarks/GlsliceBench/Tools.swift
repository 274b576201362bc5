import Foundation
import GlsliceKit
import Shaders
import Synchronization

/// `glslice-bench manifest FILE [--jobs N] [--seed S] [--fixtures DIR]`: the
/// deterministic farm manifest behind `make bench` and `make bench-peers`.
func writeManifest(_ argv: [String]) throws {
    // `manifest --help` once wrote a manifest named "--help": an option is not a file.
    guard argv.count >= 3, !argv[2].hasPrefix("-") else {
        throw GlsliceError(.usage, "manifest needs an output file: glslice-bench manifest OUT.jsonl [--jobs N] [--seed S] [--fixtures DIR]")
    }
    let path = argv[2]
    let args = try Arguments([argv[0]] + Array(argv.dropFirst(3)))
    let text = manifestText(makeJobs(count: args.jobs, seed: args.seed), fixtures: args.fixtures)
    try text.write(toFile: path, atomically: true, encoding: .utf8)
    print("manifest: \(args.jobs) jobs (seed \(args.seed)) in \(path)")
}

/// The jobs as manifest lines, each source named by its absolute path under `fixtures`.
func manifestText(_ jobs: [BenchJob], fixtures: String) -> String {
    let fixtures = URL(fileURLWithPath: fixtures).standardizedFileURL.path
    var text = ""
    for (index, job) in jobs.enumerated() {
        guard case .pixels(let size) = job.request.size else { continue }
        let i = job.request.insets
        let insets = "\(Int(i.top)),\(Int(i.left)),\(Int(i.bottom)),\(Int(i.right))"
        let scale = Int(job.request.outputScale ?? 1)
        text += #"{"input": "\#(fixtures)/\#(job.source)", "output": "\#(index).png", "pixels": "\#(size.width)x\#(size.height)", "#
        text += #""scale": \#(scale), "insets": "\#(insets)", "#
        text += #""mode-x": "\#(job.request.modes.x.rawValue)", "mode-y": "\#(job.request.modes.y.rawValue)", "#
        text += #""filter": "\#(job.request.filter.rawValue)", "center": \#(job.request.fillCenter)}"# + "\n"
    }
    return text
}

/// `glslice-bench plans MANIFEST OUT.jsonl`: each job's cells as glslice lays
/// them out, so peer renderers draw the same geometry (they are timed on
/// drawing and encoding only, as glslice's batch is).
func writePlans(_ argv: [String]) throws {
    guard argv.count >= 4 else { throw GlsliceError(.usage, "plans needs a manifest and an output file") }
    let reader = try ManifestReader(path: argv[2])
    let cache = SourceCache(capacityBytes: 64 << 20, maxPixels: 1 << 24)
    var out = ""
    /// One affine run of a span, as a peer draws it.
    struct Run {
        var destination: Range<Int>
        var origin, num, den: Double
        var wrap: Bool
    }
    func axis(_ run: Run, _ span: AxisSpan) -> String {
        #"{"dst": [\#(run.destination.lowerBound), \#(run.destination.upperBound)], "src": [\#(span.segment.start), \#(span.segment.end)], "#
            + #""origin": \#(run.origin), "num": \#(run.num), "den": \#(run.den), "wrap": \#(run.wrap)}"#
    }
    while let (number, text) = reader.nextLine() {
        let job = try reader.job(line: number, text: text)
        let source = try SourceResolver.resolve(path: job.input, outputScale: job.request.outputScale) {
            try cache.source(at: $0).source
        }
        let plan = try PlanBuilder.plan(job.request, source: source)
        var cells: [String] = []
        // Peers draw `space` tile by tile: one run per tile, as the plan once listed them.
        func runs(_ span: AxisSpan) -> [Run] {
            guard let drawn = span.drawn else { return [] }
            switch span.mapping {
            case .clamped(let origin, let num, let den): return [Run(destination: drawn, origin: origin, num: num, den: den, wrap: false)]
            case .wrapped(let origin, let num, let den): return [Run(destination: drawn, origin: origin, num: num, den: den, wrap: true)]
            case .spaced(let spacing, let k):
                return (0..<spacing.count).compactMap { j in
                    let start = spacing.start(j), end = min(start + spacing.pixels, spacing.end)
                    guard start < end else { return nil }
                    return Run(destination: start..<end, origin: Double(start), num: 1, den: k, wrap: false)
                }
            }
        }
        for cell in plan.cells {
            for y in runs(cell.y) { for x in runs(cell.x) { cells.append(#"{"x": \#(axis(x, cell.x)), "y": \#(axis(y, cell.y))}"#) } }
        }
        out += #"{"input": "\#(job.input)", "output": "\#(URL(fileURLWithPath: job.output).lastPathComponent)", "#
            + #""width": \#(plan.size.width), "height": \#(plan.size.height), "linear": \#(plan.filter == .linear), "#
            + #""pieces": [\#(cells.joined(separator: ", "))]}"# + "\n"
    }
    try out.write(toFile: argv[3], atomically: true, encoding: .utf8)
}

/// `glslice-bench floor DIR [--threads N]`: the floor no renderer of DIR's
/// PNGs can beat, in two parts, each on every core:
///   encode: the decoded outputs encoded again (same settings, same digest
///   chunk) into /dev/null, so no file is made;
///   files:  the same bytes written into as many new files, in a fresh folder
///   beside DIR (same file system), the fastest plain way (open, one write, close).
func encodeFloor(_ argv: [String]) throws {
    guard argv.count >= 3 else { throw GlsliceError(.usage, "floor needs a folder of PNGs") }
    let folder = URL(fileURLWithPath: argv[2]).standardizedFileURL.path
    let args = try Arguments([argv[0]] + Array(argv.dropFirst(3)))
    let names = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }.sorted()
    let images: [(PremultipliedImage, String)] = try names.map { name in
        let path = "\(folder)/\(name)"
        return (try PNGDecoder.decode(path: path, maxPixels: 1 << 26).premultiplied(),
                FinishedOutput.read(path: path)?.digest ?? "")
    }
    let files: [[UInt8]] = try names.map { [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(folder)/\($0)"))) }

    let encoded = Mutex(0)
    let encodeStart = Date()
    DispatchQueue.concurrentPerform(iterations: args.threads) { worker in
        let sink = open("/dev/null", O_WRONLY)
        defer { close(sink) }
        var local = 0
        for index in stride(from: worker, to: images.count, by: args.threads) {
            let (image, digest) = images[index]
            local += (try? PNGEncoder.write(image, to: .descriptor(sink), text: (JobDigest.textKey, digest))) ?? 0
        }
        encoded.withLock { $0 += local }
    }
    let encodeSeconds = Date().timeIntervalSince(encodeStart)

    let scratch = folder + ".floor-files"
    try? FileManager.default.removeItem(atPath: scratch)
    try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: scratch) }
    let failures = Mutex(0)
    let filesStart = Date()
    DispatchQueue.concurrentPerform(iterations: args.threads) { worker in
        var failed = 0
        for index in stride(from: worker, to: files.count, by: args.threads) {
            let fd = open("\(scratch)/\(index).png", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            let written = files[index].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if fd < 0 || written != files[index].count { failed += 1 }
            close(fd)
        }
        failures.withLock { $0 += failed }
    }
    let filesSeconds = Date().timeIntervalSince(filesStart)
    guard failures.withLock({ $0 }) == 0 else { throw GlsliceError(.cannotWrite, file: scratch, "floor: writes failed") }

    let bytes = files.reduce(0) { $0 + $1.count }
    print(String(format: "floor: encode %d outputs in %.3f s (%d bytes); write %d files (%d bytes) in %.3f s; "
                 + "sum %.3f s on %d threads", images.count, encodeSeconds, encoded.withLock { $0 }, files.count, bytes,
                 filesSeconds, encodeSeconds + filesSeconds, args.threads))
}

/// `glslice-bench shaders DIR`: every shader as the driver gets it (the compute
/// shaders with their generated `#define`s and `#line 2`), for `make test`'s
/// glslang check (Scripts/check-shaders.py).
func writeShaders(_ argv: [String]) throws {
    guard argv.count >= 3, !argv[2].hasPrefix("-") else { throw GlsliceError(.usage, "shaders needs an output folder") }
    let folder = argv[2]
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let shaders = [("nine_slice.vert", ShaderSource.vertex), ("nine_slice.frag", ShaderSource.fragment),
                   ("deflate_tokens.comp", ShaderRecords.defining(ShaderSource.deflateTokens)),
                   ("deflate_pack.comp", ShaderRecords.defining(ShaderSource.deflatePack)),
                   ("deflate_code.comp", ShaderRecords.defining(ShaderSource.deflateCode)),
                   ("scanlines.comp", ShaderRecords.defining(ShaderSource.scanlines))]
    for (name, text) in shaders {
        try text.write(toFile: "\(folder)/\(name)", atomically: true, encoding: .utf8)
    }
    print("shaders: \(shaders.count) in \(folder)")
}
