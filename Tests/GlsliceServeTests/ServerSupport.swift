import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import Testing

let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let fixtures = packageRoot.appendingPathComponent("Fixtures")

/// The `glslice` binary built beside this test bundle (or `GLSLICE_BIN`).
let glsliceBinary: URL = {
    if let path = ProcessInfo.processInfo.environment["GLSLICE_BIN"] { return URL(fileURLWithPath: path) }
    let me = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    return me.deletingLastPathComponent().appendingPathComponent("glslice")
}()

/// A fresh folder laid out as a server's world: `root/` with sources, and
/// `outside/` beside it holding a valid PNG that no request may reach.
struct ServeWorld {
    let folder: URL
    /// The root's name (the containment tests give it an accented one).
    var rootName = "root"
    var root: URL { folder.appendingPathComponent(rootName) }
    var outside: URL { folder.appendingPathComponent("outside") }

    init(rootName: String = "root") throws {
        self.rootName = rootName
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("glslice-serve-\(UUID().uuidString)")
        let files = FileManager.default
        try files.createDirectory(at: root.appendingPathComponent("ui"), withIntermediateDirectories: true)
        try files.createDirectory(at: outside, withIntermediateDirectories: true)
        for name in ["button@2x.png", "panel.png", "bubble.9.png"] {
            try files.copyItem(at: fixtures.appendingPathComponent(name), to: root.appendingPathComponent(name))
        }
        try files.copyItem(at: fixtures.appendingPathComponent("button.imageset"), to: root.appendingPathComponent("ui/button.imageset"))
        try files.copyItem(at: fixtures.appendingPathComponent("panel.png"), to: outside.appendingPathComponent("secret.png"))
        // A link inside the root that leads out of it.
        try files.createSymbolicLink(atPath: root.appendingPathComponent("escape.png").path,
                                     withDestinationPath: outside.appendingPathComponent("secret.png").path)
        try files.createSymbolicLink(atPath: root.appendingPathComponent("out").path, withDestinationPath: outside.path)
        // A corrupt PNG (PngSuite xcsn0g01: a wrong IDAT checksum).
        try files.copyItem(at: fixtures.appendingPathComponent("pngsuite/xcsn0g01.png"), to: root.appendingPathComponent("corrupt.png"))
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}

/// Log lines kept in memory, so a test can count them.
final class CapturedLog: Sendable {
    let lines = Locked<[(message: String, metadata: Logger.Metadata)]>([])

    var logger: Logger {
        Logger(label: "glslice-test") { _ in
            EventHandler { [self] _, message, metadata in lines.withLock { $0.append((message.description, metadata)) } }
        }
    }

    var requests: [Logger.Metadata] { lines.withLock { $0.filter { $0.message == "request" }.map(\.metadata) } }
}

/// Renders wait here until the test opens it.
final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func wait() { semaphore.wait(); semaphore.signal() }
    func open() { semaphore.signal() }
}

/// Runs `body` against a real server on a loopback port, then shuts it down gracefully.
func withServer(_ world: ServeWorld, signer: URLSigner? = nil, backend: BackendChoice = .cpu, workers: Int = 2, queueLimit: Int = 64,
                limits: Limits = Limits(maxOutputPixels: ServeOptions.defaultMaxOutputPixels),
                timeout: Duration = .seconds(600), log: CapturedLog = CapturedLog(), gate: Gate? = nil,
                idleTimeout: Duration = .seconds(300), maxConnections: Int = 1024, answerBytes: Int = 256 << 20,
                autoWebP: Bool = true, _ body: @Sendable (Int, GlsliceServer) async throws -> Void) async throws {
    var options = try ServeOptions(root: SourceRoot(world.root.path), host: "127.0.0.1", port: 0, signer: signer,
                                   backend: backend, workers: workers, queueLimit: queueLimit, limits: limits,
                                   timeout: timeout, preview: signer == nil ? true : nil, idleTimeout: idleTimeout,
                                   maxConnections: maxConnections, answerBytes: answerBytes)
    options.autoWebP = autoWebP
    let hold: (@Sendable () -> Void)? = gate.map { gate in { @Sendable in gate.wait() } }
    let server = try GlsliceServer(options: options, logger: log.logger, warn: { _ in }, beforeRender: hold)
    try await withRunning(server, gate: gate) { port in try await body(port, server) }
}

/// Runs `body` against `server` on a loopback port, then shuts it down gracefully.
func withRunning(_ server: GlsliceServer, gate: Gate? = nil, _ body: @Sendable (Int) async throws -> Void) async throws {
    let (ports, continuation) = AsyncStream<Int>.makeStream()
    let app = server.application { port in continuation.yield(port) }
    let group = ServiceGroup(configuration: .init(services: [app], logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })))
    try await withThrowingTaskGroup(of: Void.self) { tasks in
        tasks.addTask { try await group.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw ServeTestError.noPort }
        do {
            try await body(port)
        } catch {
            gate?.open()
            await group.triggerGracefulShutdown()
            throw error
        }
        gate?.open()
        await group.triggerGracefulShutdown()
        try await tasks.waitForAll()
    }
    server.shutdown()
}

enum ServeTestError: Error { case noPort }

/// Generous: a held render or a loaded CI machine must not look like a dead server.
let clientConfiguration = TestClient.Configuration(timeout: .seconds(120))

/// One GET on its own connection, the path sent exactly as written.
/// POSTs `json` to `path` as the preview page's save buttons do: JSON, with the
/// page's own `Host` and `Origin` (a browser sends both). `host`, `origin` and
/// `contentType` replace what the page would send (nil leaves the header out).
func postJSON(_ port: Int, _ path: String, _ json: String, host: String? = "", origin: String? = "",
              contentType: String? = "application/json") async throws -> TestClient.Response {
    let authority = host == "" ? "127.0.0.1:\(port)" : host
    var headers: HTTPFields = [:]
    if let contentType { headers[.contentType] = contentType }
    if let origin = origin == "" ? "http://127.0.0.1:\(port)" : origin { headers[.origin] = origin }
    let sent = headers
    return try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: clientConfiguration) { client in
        try await client.execute(TestClient.Request(path, method: .post, authority: authority, headers: sent,
                                                    body: ByteBuffer(string: json)))
    }
}

/// A GET whose `Host` is `host`, as a browser at that name sends it.
func get(_ port: Int, _ path: String, host: String) async throws -> TestClient.Response {
    try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: clientConfiguration) { client in
        try await client.execute(TestClient.Request(path, method: .get, authority: host))
    }
}

func get(_ port: Int, _ path: String, headers: HTTPFields = [:]) async throws -> TestClient.Response {
    try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: clientConfiguration) { client in
        try await client.get(path, headers: headers)
    }
}

extension TestClient.Response {
    var bytes: [UInt8] { body.map { Array($0.readableBytesView) } ?? [] }
    var text: String { String(decoding: bytes, as: UTF8.self) }
    /// The `error` of a JSON error body.
    var errorMessage: String? {
        (try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])?["error"] as? String
    }
}

/// A counter or gauge's value in `/metrics` (nil when absent).
func metric(_ port: Int, _ name: String) async throws -> Double? {
    let text = try await get(port, "/metrics").text
    for line in text.split(separator: "\n") where line.hasPrefix(name + " ") {
        return Double(line.split(separator: " ").last ?? "")
    }
    return nil
}

/// Polls `condition` until it holds (the test fails, it does not skip). Counted
/// in tries, not wall time: while the whole suite runs on two cores, the
/// cooperative threads can be busy for many seconds with other tests' processes,
/// and a wall-clock deadline would pass before the condition was tried again.
func eventually(_ what: String, tries: Int = 3000, _ condition: () async throws -> Bool) async throws {
    for _ in 0..<tries {
        if try await condition() { return }
        try await Task.sleep(for: .milliseconds(20))
    }
    Issue.record("gave up waiting (\(tries) tries) for: \(what)")
    throw ServeTestError.noPort
}

/// Runs glslice with `arguments`; returns status, stdout and stderr.
func runGlslice(_ arguments: [String]) throws -> (status: Int32, stdout: Data, stderr: String) {
    let process = Process()
    process.executableURL = glsliceBinary
    process.arguments = arguments
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, outData, String(decoding: errData, as: UTF8.self))
}

/// A raw TCP connection to the server, for clients that misbehave.
final class RawClient {
    let fd: Int32

    init(port: Int, receiveBuffer: Int32 = 4096) throws {
        // A small receive buffer (set before connecting), so an unread answer fills it soon.
        guard let fd = loopbackConnection(port: port, receiveBuffer: receiveBuffer) else { throw ServeTestError.noPort }
        self.fd = fd
    }

    func send(_ text: String) { _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) } }

    /// True once the server has closed the connection (a read gives 0 or an error), within `seconds`.
    func closedByServer(within seconds: Double) -> Bool {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while Date() < deadline {
            guard poll(&poller, 1, 100) > 0 else { continue }
            let got = recv(fd, &buffer, buffer.count, 0)
            if got <= 0 { return true }
        }
        return false
    }

    /// Reads what has arrived, waiting up to `seconds` for something; nil once the server closed.
    func read(waiting seconds: Double) -> [UInt8]? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(seconds * 1000)) > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        let got = recv(fd, &buffer, buffer.count, 0)
        return got <= 0 ? nil : Array(buffer.prefix(got))
    }

    deinit { close(fd) }
}
