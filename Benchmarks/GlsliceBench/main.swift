import Foundation
import GlsliceKit
import Synchronization

/// `make bench-cpu` / `make bench-gpu`: renders a fixed, generated job set over
/// the fixtures to PNG files and prints renders/s and output bytes. Not a test:
/// numbers, not verdicts.
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

func main() throws {
    let args = try Arguments(CommandLine.arguments)
    let choice = try BackendChoice(parsing: args.backend)
    try FileManager.default.createDirectory(atPath: args.out, withIntermediateDirectories: true)
    // Sources are decoded once, as a render farm's cache would (batch's `SourceCache`).
    var decoded: [String: ResolvedSource] = [:]
    for (name, _) in sources {
        let image = try PNGDecoder.decode(path: "\(args.fixtures)/\(name)", maxPixels: 1 << 24).premultiplied()
        decoded[name] = ResolvedSource(source: SourceImage(image: image, file: name), key: SourceKey(contentHash: "bench:\(name)", recipe: .plain))
    }
    let resolved = decoded
    let jobs = makeJobs(count: args.jobs, seed: args.seed)
    let totals = Mutex((bytes: 0, pixels: 0, failures: [String]()))
    /// The job as batch's prepare stage makes it: its plan, and its repeat map made ahead.
    @Sendable func prepare(_ index: Int) throws -> PreparedJob {
        let job = jobs[index]
        guard let source = resolved[job.source] else { throw GlsliceError(.internal, "no source \(job.source)") }
        var prepared = try PreparedJob(request: job.request, source: source, limits: Limits())
        prepared.prepareAhead()
        return prepared
    }
    /// The output as the product writes it: through the engine's one encode step, as batch, serve and render do.
    @Sendable func encode(_ index: Int, _ job: PreparedJob, _ drawing: Drawing) throws -> Int {
        try Engine.encode(job, drawing: drawing, backend: .cpu, to: .file("\(args.out)/\(index).png")).byteCount
    }
    var rendererName = "cpu"
    let start = Date()
    if choice == .cpu {
        DispatchQueue.concurrentPerform(iterations: args.threads) { worker in
            var index = worker
            var localBytes = 0, localPixels = 0
            while index < jobs.count {
                do {
                    let job = try prepare(index)
                    localBytes += try encode(index, job, .here)
                    localPixels += job.size.pixelCount
                } catch {
                    totals.withLock { $0.failures.append("job \(index): \(error)") }
                }
                index += args.threads
            }
            totals.withLock { $0.bytes += localBytes; $0.pixels += localPixels }
        }
    } else {
        // One GL thread renders; PNG encoding runs on the other cores, from each output's pixels as one
        // strip (as batch encodes an atlas's strip where the GPU does not encode).
        let resolved = try BackendResolution.resolve(choice, for: .serve, device: nil)
        if let warning = resolved.warning { print("warning: \(warning)") }
        let backend = resolved.backend
        rendererName = resolved.description
        let encoders = DispatchQueue(label: "encode", attributes: .concurrent)
        let slots = DispatchSemaphore(value: max(1, args.threads))
        let group = DispatchGroup()
        for index in jobs.indices {
            do {
                let job = try prepare(index)
                let drawing = Drawing.strip(of: try backend.image(job.plan, source: job.source.source.image))
                slots.wait()
                encoders.async(group: group) {
                    defer { slots.signal() }
                    do {
                        let written = try encode(index, job, drawing)
                        totals.withLock { $0.bytes += written; $0.pixels += job.size.pixelCount }
                    } catch {
                        totals.withLock { $0.failures.append("job \(index): \(error)") }
                    }
                }
            } catch {
                totals.withLock { $0.failures.append("job \(index): \(error)") }
            }
        }
        group.wait()
    }
    let seconds = Date().timeIntervalSince(start)
    let (bytes, pixels, failures) = totals.withLock { ($0.bytes, $0.pixels, $0.failures) }
    for failure in failures.prefix(5) { print("failed: \(failure)") }
    let rendered = jobs.count - failures.count
    print("renderer: \(rendererName)")
    print(String(format: "backend=%@ jobs=%d threads=%d time=%.2fs renders/s=%.0f output=%.1f MB (%d bytes) megapixels/s=%.1f",
                 args.backend, rendered, args.threads, seconds, Double(rendered) / seconds,
                 Double(bytes) / 1e6, bytes, Double(pixels) / seconds / 1e6))
    if !failures.isEmpty { exit(1) }
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
