import Foundation
import GlsliceKit

/// `make bench-cpu`: renders a fixed, generated job set over the fixtures to PNG
/// files and prints renders/s and output bytes. Not a test: numbers, not verdicts.
struct BenchJob {
    var source: String
    var options: RenderOptions
}

/// SplitMix64: a tiny seeded generator so every run renders the same jobs.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
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
    var rng = SeededGenerator(state: seed)
    return (0..<count).map { _ in
        let (name, insets) = sources.randomElement(using: &rng)!
        let size = PixelSize(width: Int.random(in: 40...640, using: &rng), height: Int.random(in: 30...240, using: &rng))
        let scale = [1.0, 2.0, 3.0].randomElement(using: &rng)!
        let modes = PerAxis(x: ResizeMode.allCases.randomElement(using: &rng)!, y: ResizeMode.allCases.randomElement(using: &rng)!)
        let filter: Filter = Int.random(in: 0..<4, using: &rng) == 0 ? .nearest : .linear
        let fill = Int.random(in: 0..<8, using: &rng) != 0
        return BenchJob(source: name, options: RenderOptions(size: .pixels(size), outputScale: scale, insets: insets,
                                                              modes: modes, filter: filter, fillCenter: fill))
    }
}

struct Arguments {
    var jobs = 1200
    var seed: UInt64 = 42
    var out = "out/bench"
    var backend = "cpu"
    var threads = ProcessInfo.processInfo.activeProcessorCount
    var fixtures = "Fixtures"

    init(_ argv: [String]) throws {
        var it = argv.dropFirst().makeIterator()
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

func main() throws {
    let args = try Arguments(CommandLine.arguments)
    guard args.backend == "cpu" else { throw GlsliceError(.usage, "unknown backend '\(args.backend)'") }
    try FileManager.default.createDirectory(atPath: args.out, withIntermediateDirectories: true)
    // Sources are decoded once, as a render farm's cache would.
    var decoded: [String: PremultipliedImage] = [:]
    for (name, _) in sources {
        decoded[name] = try PNGDecoder.decode(path: "\(args.fixtures)/\(name)", maxPixels: 1 << 24).premultiplied()
    }
    let images = decoded
    let jobs = makeJobs(count: args.jobs, seed: args.seed)
    let lock = NSLock()
    nonisolated(unsafe) var bytes = 0
    nonisolated(unsafe) var pixels = 0
    nonisolated(unsafe) var failures: [String] = []
    let start = Date()
    DispatchQueue.concurrentPerform(iterations: args.threads) { worker in
        var index = worker
        var localBytes = 0, localPixels = 0
        while index < jobs.count {
            let job = jobs[index]
            do {
                guard let source = images[job.source] else { throw GlsliceError(.internal, "no source") }
                let plan = try job.options.plan(sourceSize: PixelSize(width: source.width, height: source.height),
                                                path: job.source)
                let image = CPURenderer().render(plan, source: source)
                localBytes += try PNGEncoder.write(image, to: .file("\(args.out)/\(index).png"),
                                                   compression: job.options.compression)
                localPixels += plan.size.pixelCount
            } catch {
                lock.lock(); failures.append("job \(index): \(error)"); lock.unlock()
            }
            index += args.threads
        }
        lock.lock(); bytes += localBytes; pixels += localPixels; lock.unlock()
    }
    let seconds = Date().timeIntervalSince(start)
    for failure in failures.prefix(5) { print("failed: \(failure)") }
    let rendered = jobs.count - failures.count
    print(String(format: "backend=%@ jobs=%d threads=%d time=%.2fs renders/s=%.0f output=%.1f MB (%d bytes) megapixels/s=%.1f",
                 args.backend, rendered, args.threads, seconds, Double(rendered) / seconds,
                 Double(bytes) / 1e6, bytes, Double(pixels) / seconds / 1e6))
    if !failures.isEmpty { exit(1) }
}

do {
    try main()
} catch {
    FileHandle.standardError.write(Data("glslice-bench: \(error)\n".utf8))
    exit(64)
}
