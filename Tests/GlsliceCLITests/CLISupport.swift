import Foundation
@testable import GlsliceKit

/// The `glslice` binary built beside this test bundle (or `GLSLICE_BIN`).
let glsliceBinary: URL = {
    if let path = ProcessInfo.processInfo.environment["GLSLICE_BIN"] { return URL(fileURLWithPath: path) }
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return me.deletingLastPathComponent().appendingPathComponent("glslice")
}()

let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let fixtures = packageRoot.appendingPathComponent("Fixtures")

struct RunResult {
    var status: Int32
    var stdout: Data
    var stderr: String
    var stderrLines: [Substring] { stderr.split(separator: "\n") }
}

/// Runs glslice with `arguments` and collects its output.
func glslice(_ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:],
             stdin: URL? = nil) throws -> RunResult {
    try run(glsliceBinary, arguments, in: folder, environment: environment, stdin: stdin)
}

/// Runs glslice under `timeout`, so a hang fails the test (exit 124) instead of stalling it.
func glsliceWithin(_ seconds: Int, _ arguments: [String]) throws -> RunResult {
    try run(URL(fileURLWithPath: "/usr/bin/timeout"), [String(seconds), glsliceBinary.path] + arguments)
}

/// Runs `executable` with `arguments` and collects its output.
func run(_ executable: URL, _ arguments: [String], in folder: URL? = nil, environment: [String: String] = [:],
         stdin: URL? = nil) throws -> RunResult {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = folder }
    if !environment.isEmpty {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let out = Pipe(), err = Pipe()
    if let stdin { process.standardInput = try FileHandle(forReadingFrom: stdin) }
    process.standardOutput = out
    process.standardError = err
    try process.run()
    // Read both pipes before waiting so a large output cannot fill a pipe and block.
    nonisolated(unsafe) var errData = Data()
    let group = DispatchGroup()
    group.enter()
    DispatchQueue.global().async {
        errData = err.fileHandleForReading.readDataToEndOfFile()
        group.leave()
    }
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    process.waitUntilExit()
    return RunResult(status: process.terminationStatus, stdout: outData,
                     stderr: String(decoding: errData, as: UTF8.self))
}

func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// Reads a FIFO to its end on a thread of its own, as a consumer of glslice's output would.
final class FIFOReader {
    private let received = Locked(Data())
    private let thread: Thread

    init(_ path: String) {
        let received = self.received
        thread = Thread {
            guard let handle = FileHandle(forReadingAtPath: path) else { return }
            let data = handle.readDataToEndOfFile()
            received.withLock { $0 = data }
        }
        thread.start()
    }

    /// Everything read, once the writer has closed.
    func bytes() -> Data {
        while !thread.isFinished { Thread.sleep(forTimeInterval: 0.01) }
        return received.withLock { $0 }
    }
}

/// Whether `image`'s top-left `width`×`height` px equal the source file's: a cap
/// copied unchanged (k = 1) holds exactly the source's premultiply/unpremultiply
/// round trip. The expectation comes from the fixture, read by libpng.
func topLeftCapMatches(_ image: StraightImage, source: String, width: Int, height: Int) throws -> Bool {
    let expected = try PNGDecoder.decode(path: source, maxPixels: 1 << 20).premultiplied().straight()
    guard image.width >= width, image.height >= height else { return false }
    for y in 0..<height { for x in 0..<width where image.rgba[x, y] != expected.rgba[x, y] { return false } }
    return true
}

/// Held by a test while a documented example serves on a fixed port (the
/// README's and `serve --help`'s `glslice serve --root Fixtures` both take
/// 8080): suites run in parallel, and two such servers would collide.
let documentedPortLock = NSLock()
