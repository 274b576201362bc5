import Foundation
import Synchronization
import GlsliceKit
import GlsliceServe
import Hummingbird
import Logging

/// libFuzzer targets for every parser that reads what a farm is handed
/// (issue 10). One binary; `GLSLICE_FUZZ_TARGET` picks the target:
///
///   png       PNG decoding through the libpng shim
///   ninepatch `.9.png` border markers (decoded, then parsed)
///   nptc      a compiled nine-patch's `npTc` chunk
///   contents  an image set's `Contents.json`
///   contentsdisk  the same on disk: written into a set folder beneath a
///             scope (a root holding PNGs, a link out and a FIFO), then
///             read and resolved as `serve` reads it
///   manifest  one batch manifest line (paths, keys, values, containment)
///   options   the option schema that `render` and manifest lines share,
///             then layout and a CPU render of what it asks for
///   query     a request target (path and query, visible ASCII) sent to a
///             `serve` application, listening on a loopback port of its own
///
/// `make fuzz` builds it with `-sanitize=fuzzer,address -DFUZZING`. Without
/// FUZZING it is a plain executable that replays files through a target
/// (`glslice-fuzz TARGET FILE...`), so the corpora run in every test build.
enum FuzzTarget: String, CaseIterable {
    case png, ninepatch, nptc, contents, manifest, options, contentsdisk, query

    /// Runs one input. Errors are the expected answer to bad input; a crash,
    /// a trap or a sanitizer report is the bug being hunted.
    func run(_ data: Data) {
        switch self {
        case .png:
            _ = try? PNGDecoder.decodeFile(data: data, maxPixels: 1 << 22)
        case .ninepatch:
            _ = try? SourceImage.decode(data: data, path: "fuzz.9.png", maxPixels: 1 << 20)
        case .nptc:
            // The first two bytes choose the image the chunk describes.
            guard data.count >= 2 else { return }
            _ = try? NinePatch.compiled(chunk: data.dropFirst(2), width: Int(data[data.startIndex]) + 1,
                                        height: Int(data[data.startIndex + 1]) + 1)
        case .contents:
            guard let set = try? ImageSet(folder: "/nonexistent.imageset", contents: data) else { return }
            _ = set.variant(for: 2)
        case .contentsdisk:
            guard let world = DiskWorld.shared else { return }
            guard FileManager.default.createFile(atPath: world.contents, contents: data) else { return }
            _ = try? ImageSet.read(path: "set.imageset", in: world.scope)
            for scale in [1.0, 2, 3] {
                _ = try? ResolvedSource.load(input: "set.imageset", outputScale: scale, maxPixels: 1 << 20, scope: world.scope)
            }
        case .query:
            QueryClient.shared?.send(data)
        case .manifest:
            _ = try? FuzzTarget.reader?.job(line: 1, text: data)
        case .options:
            guard let request = try? JSONDecoder().decode(RenderRequest.self, from: data) else { return }
            let source = FuzzTarget.source
            guard let plan = try? PlanBuilder.plan(request, source: source, limits: Limits(maxSourcePixels: 1 << 20,
                                                                                          maxOutputPixels: 1 << 16)) else { return }
            _ = try? Backend.cpu.image(plan, source: source.image)
        }
    }

    /// A manifest reader over an empty file, for `job(line:text:)`.
    static let reader: ManifestReader? = {
        let path = NSTemporaryDirectory() + "/glslice-fuzz-manifest.jsonl"
        _ = FileManager.default.createFile(atPath: path, contents: Data())
        return try? ManifestReader(path: path, outputFolder: "/out")
    }()

    /// A root for `contentsdisk`: `set.imageset/` holding PNGs under the names a
    /// `Contents.json` would give, plus a link out of the root and a FIFO.
    struct DiskWorld {
        let scope: FileScope
        let contents: String

        static let shared: DiskWorld? = {
            let root = NSTemporaryDirectory() + "/glslice-fuzz-root-\(getpid())"
            let set = root + "/set.imageset"
            let files = FileManager.default
            try? files.createDirectory(atPath: set, withIntermediateDirectories: true)
            let png = (try? PNGEncoder.encode(FuzzTarget.source.image)) ?? Data()
            for name in ["a.png", "a@2x.png", "a@3x.png", "b.9.png", "c.png"] { _ = files.createFile(atPath: set + "/" + name, contents: png) }
            try? files.createSymbolicLink(atPath: set + "/out.png", withDestinationPath: "/etc/passwd")
            try? files.createSymbolicLink(atPath: set + "/up.png", withDestinationPath: "../../x.png")
            mkfifo(set + "/fifo.png", 0o600)
            guard let scope = try? FileScope.beneath(root) else { return nil }
            return DiskWorld(scope: scope, contents: set + "/Contents.json")
        }()
    }

    /// One `serve` application (no key, previews on, small limits) kept running on a
    /// loopback port of its own; each input is one GET on its own connection, through a
    /// plain socket (HummingbirdTesting's in-process client brought a TLS library to build).
    final class QueryClient: @unchecked Sendable {
        private let port: Int

        static let shared: QueryClient? = {
            let root = NSTemporaryDirectory() + "/glslice-fuzz-serve-\(getpid())"
            try? FileManager.default.createDirectory(atPath: root + "/ui", withIntermediateDirectories: true)
            let png = (try? PNGEncoder.encode(FuzzTarget.source.image)) ?? Data()
            for name in ["a.png", "a@2x.png", "b.9.png", "ui/c.png"] { _ = FileManager.default.createFile(atPath: root + "/" + name, contents: png) }
            guard let sourceRoot = try? SourceRoot(root),
                  let options = try? ServeOptions(root: sourceRoot, port: 0, backend: .cpu, workers: 2, queueLimit: 8,
                                                  cacheBytes: 1 << 20, sourceCacheBytes: 1 << 20,
                                                  limits: Limits(maxSourcePixels: 1 << 20, maxOutputPixels: 1 << 16),
                                                  timeout: .seconds(10), preview: true, accessLog: false),
                  let server = try? GlsliceServer(options: options, logger: Logger(label: "fuzz") { _ in SwiftLogNoOpLogHandler() })
            else { return nil }
            let listening = DispatchSemaphore(value: 0)
            let bound = Mutex(0)
            Task {
                try await server.application(onListening: { port in
                    bound.withLock { $0 = port }
                    listening.signal()
                }).runService()
            }
            guard listening.wait(timeout: .now() + 30) == .success else { return nil }
            return QueryClient(port: bound.withLock { $0 })
        }()

        private init(port: Int) { self.port = port }

        /// Sends `data` as a request target: visible ASCII only (the HTTP parser refuses the rest before glslice sees it).
        func send(_ data: Data) {
            var target = String(decoding: data.filter { (0x21...0x7E).contains($0) }, as: UTF8.self)
            if !target.hasPrefix("/") { target = "/" + target }
            guard let fd = loopbackConnection(port: port) else { return }
            defer { close(fd) }
            let request = Array("GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
            guard write(fd, request, request.count) == request.count else { return }
            // The whole answer, to the server's close: each input is answered before the next.
            var buffer = [UInt8](repeating: 0, count: 65536)
            while read(fd, &buffer, buffer.count) > 0 {}
        }
    }

    /// An 8x6 source with distinct pixels, for the options target's renders.
    static let source: SourceImage = {
        var pixels: [UInt8] = []
        for i in 0..<48 { pixels += [UInt8(i * 5), UInt8(255 - i * 5), UInt8(i * 3), UInt8(128 + i)] }
        return SourceImage(image: StraightImage(RGBAImage(width: 8, height: 6, pixels: pixels)).premultiplied(), file: "fuzz.png")
    }()

    static var selected: FuzzTarget {
        let name = ProcessInfo.processInfo.environment["GLSLICE_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTarget(rawValue: name) else {
            let names = allCases.map(\.rawValue).joined(separator: ", ")
            print("glslice-fuzz: set GLSLICE_FUZZ_TARGET to one of \(names)")
            exit(64)
        }
        return target
    }
}

#if FUZZING
nonisolated(unsafe) private var chosen: FuzzTarget?

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    if chosen == nil { chosen = FuzzTarget.selected }
    chosen?.run(Data(bytes: bytes, count: count))
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
               _ callback: @convention(c) (UnsafePointer<UInt8>, Int) -> CInt) -> CInt

/// SwiftPM links an executable's entry point as `<target>_main`; libFuzzer's driver runs from it.
@_cdecl("GlsliceFuzz_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var vector = argv
    return runDriver(&count, &vector) { fuzzOneInput($0, $1) }
}
#else
/// Replays files (or every file in folders) through a target: `glslice-fuzz TARGET PATH...`.
@main enum Replay {
    static func main() {
        let arguments = CommandLine.arguments.dropFirst()
        guard let name = arguments.first, let target = FuzzTarget(rawValue: name) else {
            print("usage: glslice-fuzz {\(FuzzTarget.allCases.map(\.rawValue).joined(separator: "|"))} FILE-OR-FOLDER...")
            exit(64)
        }
        var count = 0
        for path in arguments.dropFirst() {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
            let files = isFolder.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted().map { path + "/" + $0 }
                : [path]
            for file in files {
                guard let data = FileManager.default.contents(atPath: file) else { continue }
                target.run(data)
                count += 1
            }
        }
        print("glslice-fuzz: \(name): replayed \(count) inputs")
    }
}
#endif
