import Foundation
import GlsliceKit
import Synchronization

/// `make bench-cpu` / `make bench-gpu`: a fixed, generated job set over the fixtures, rendered to
/// PNG files by the product's batch; prints renders/s and output bytes. Not a test: numbers, not verdicts.
struct BenchJob: Sendable {
    var source: String
    var request: RenderRequest
}

let sources: [(String, Insets)] = [
    ("button.png", Insets(top: 14, left: 12, bottom: 14, right: 12)),
    ("button@2x.png", Insets(top: 14, left: 12, bottom: 14, right: 12)),
    ("button@3x.png", Insets(top: 14, left: 12, bottom: 14, right: 12)),
    ("panel.png", Insets(top: 8, left: 8, bottom: 8, right: 8)),
    ("bar.png", .zero),
    ("texture.png", Insets(top: 6, left: 6, bottom: 6, right: 6)),
    ("shadow.png", Insets(top: 16, left: 16, bottom: 16, right: 16)),
]

func makeJobs(count: Int, seed: UInt64) -> [BenchJob] {
    var rng = SeededGenerator(seed: seed)
    return (0..<count).map { _ in
        let (name, insets) = sources.randomElement(using: &rng)!
        let size = PixelSize(width: Int.random(in: 40...640, using: &rng), height: Int.random(in: 30...240, using: &rng))
        let scale = [1.0, 2.0, 3.0].randomElement(using: &rng)!
        let modes = PerAxis(x: ResizeMode.allCases.randomElement(using: &rng)!, y: ResizeMode.allCases.randomElement(using: &rng)!)
        let filter: Filter = Int.random(in: 0..<4, using: &rng) == 0 ? .nearest : .linear
        let fill = Int.random(in: 0..<8, using: &rng) != 0
        return BenchJob(source: name, request: RenderRequest(size: .pixels(size), outputScale: scale, insets: insets,
                                                              modes: modes, filter: filter, fillCenter: fill))
    }
}

struct Arguments: Sendable {
    var jobs = 1200
    var seed: UInt64 = 42
    var out = "out/bench"
    var backend = "cpu"
    var threads = ProcessInfo.processInfo.activeProcessorCount
    var fixtures = "Fixtures"

    init(_ argv: [String]) throws {
        var it = argv.dropFirst(argv.dropFirst().first?.hasPrefix("--") == false ? 2 : 1).makeIterator()
        while let flag = it.next() {
            guard let value = it.next() else { throw GlsliceError(.usage, "\(flag) needs a value") }
            switch flag {
            case "--jobs": jobs = Int(value) ?? jobs
            case "--seed": seed = UInt64(value) ?? seed
            case "--out": out = value
            case "--backend": backend = value
            case "--threads": threads = max(1, Int(value) ?? threads)
            case "--fixtures": fixtures = value
            default: throw GlsliceError(.usage, "unknown option \(flag)")
            }
        }
    }
}

/// The generated job set as a manifest in the output folder, rendered by the product's own batch
/// (`BatchRunner`, in-process, as `glslice batch` runs it: its stages, its GPU draw loop, atlases and
/// GPU encoding), so `make bench-cpu` and `make bench-gpu` measure what a farm runs.
func main() throws {
    let args = try Arguments(CommandLine.arguments)
    let choice = try BackendChoice(parsing: args.backend)
    try FileManager.default.createDirectory(atPath: args.out, withIntermediateDirectories: true)
    let jobs = makeJobs(count: args.jobs, seed: args.seed)
    let manifest = "\(args.out)/manifest.jsonl"
    try manifestText(jobs, fixtures: args.fixtures).write(toFile: manifest, atomically: true, encoding: .utf8)
    var options = BatchOptions(manifest: manifest)
    options.outputFolder = args.out
    options.backend = choice
    options.workers = args.threads
    let failures = Mutex([String]())
    let summary = try BatchRunner(options: options, onError: { line in failures.withLock { $0.append(line) } }).run()
    let pixels = jobs.reduce(0) { total, job in
        guard case .pixels(let size) = job.request.size else { return total }
        return total + size.pixelCount
    }
    for failure in failures.withLock({ $0 }).prefix(5) { print("failed: \(failure)") }
    print("renderer: \(summary.backend)")
    print(String(format: "backend=%@ jobs=%d threads=%d time=%.2fs renders/s=%.0f output=%.1f MB (%d bytes) megapixels/s=%.1f",
                 args.backend, summary.ok, args.threads, summary.seconds, Double(summary.ok) / summary.seconds,
                 Double(summary.bytes) / 1e6, summary.bytes, Double(pixels) / summary.seconds / 1e6))
    if !summary.succeeded { exit(1) }
}

do {
    switch CommandLine.arguments.dropFirst().first {
    case "manifest": try writeManifest(CommandLine.arguments)
    case "plans": try writePlans(CommandLine.arguments)
    case "floor": try encodeFloor(CommandLine.arguments)
    case "fills": try benchFills(CommandLine.arguments)
    case "blockcodes": benchBlockCodes(CommandLine.arguments)
    case "hybrid": try benchHybrid(CommandLine.arguments)
    case "bound": try benchBound(CommandLine.arguments)
    case "bound-file": try benchBoundFiles(CommandLine.arguments)
    case "shaders": try writeShaders(CommandLine.arguments)
    default: try main()
    }
} catch {
    FileHandle.standardError.write(Data("glslice-bench: \(error)\n".utf8))
    exit(64)
}
