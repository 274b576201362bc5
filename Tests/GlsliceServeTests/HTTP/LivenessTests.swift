import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Logging
import Testing

/// The server stays alive and bounded against clients that hold it (issue 19):
/// half-sent requests and idle connections are closed, connections are
/// capped, unread answers hold at most --answer-mb, and a stderr nobody
/// reads never stops a request.
@Suite struct LivenessTests {
    @Test func halfSentRequestsAndIdleConnectionsAreClosed() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world, idleTimeout: .seconds(1)) { port, _ in
            let halfSent = try RawClient(port: port)
            halfSent.send("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            let idle = try RawClient(port: port)
            #expect(halfSent.closedByServer(within: 20), "a half-sent request stayed open")
            #expect(idle.closedByServer(within: 20), "an idle connection stayed open")
        }
    }

    /// Past --max-connections the server stops accepting; as idle ones close, /healthz is answered.
    @Test func healthIsAnsweredPastTheConnectionLimit() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world, idleTimeout: .seconds(1), maxConnections: 8) { port, _ in
            let hogs = try (0..<40).map { _ in try RawClient(port: port) }
            for hog in hogs { hog.send("GET /healthz HTTP/1.1\r\nHo") }
            let answer = try await get(port, "/healthz")
            #expect(answer.status == .ok)
            _ = hogs
        }
    }

    /// Clients that ask for large renders and never read: the answers held stay
    /// within --answer-mb (the rest are 503), and stalled connections are closed.
    @Test func unreadAnswersAreBounded() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        // Noise drawn 1:1: answers of about 12 MB that no socket buffer holds.
        var generator = SeededGenerator(seed: 7)
        let side = 2048
        let pixels = (0..<(side * side * 4)).map { i in i % 4 == 3 ? UInt8(255) : UInt8.random(in: 0...255, using: &generator) }
        try PNGEncoder.write(StraightImage(RGBAImage(width: side, height: side, pixels: pixels)).premultiplied(),
                             to: .file(world.root.appendingPathComponent("noise.png").path), compression: .fast)
        let budget = 16 << 20
        try await withServer(world, idleTimeout: .seconds(2), answerBytes: budget) { port, server in
            let readers = try (0..<6).map { index -> RawClient in
                let client = try RawClient(port: port)
                client.send("GET /render/noise.png?pixels=2048x\(2048 - index)&filter=nearest HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                return client
            }
            // A poll whose connection the server closed meanwhile (--idle-timeout 2 s, while a loaded
            // machine kept the test away for longer) counts as not yet, not as a failure.
            try await eventually("every answer held or refused") {
                let refused = (try? await metric(port, "glslice_answers_refused_total")) ?? nil ?? 0
                return Int(refused) + server.answers.history.held >= 6
            }
            // Counted over the run (a loaded machine may close stalled ones before the last is answered).
            let history = server.answers.history
            // Six ~12 MB answers unread would be ~72 MB held; the cap keeps it to one at a time.
            #expect(history.held >= 1, "\(history)")
            #expect(history.peakBytes <= budget, "\(history) over the \(budget)-byte budget")
            // Stalled past --idle-timeout: closed, and their memory released.
            try await eventually("stalled answers released") { server.answers.inFlight.answers == 0 }
            try await eventually("/healthz answered") { (try? await get(port, "/healthz"))?.status == .ok }
            _ = readers
        }
    }

    /// A stderr pipe that nobody reads: requests keep being answered, and the dropped lines are counted.
    @Test func anUnreadStderrDropsLogLinesNotRequests() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0) // both ends left open, never read: the log thread blocks for good
        let buffer = LogBuffer(descriptor: pipeEnds[1])
        let options = try ServeOptions(root: SourceRoot(world.root.path), host: "127.0.0.1", port: 0, backend: .cpu, workers: 2)
        var logger = Logger(label: "glslice") { label in buffer.handler(label: label) }
        logger.logLevel = .info
        let server = try GlsliceServer(options: options, logger: logger, logBuffer: buffer)
        try await withRunning(server) { port in
            for index in 0..<(LogBuffer.capacity + 2000) {
                let answer = try await get(port, "/healthz?n=\(index)")
                #expect(answer.status == .ok)
                if answer.status != .ok { break }
            }
            #expect((try await metric(port, "glslice_log_lines_dropped_total") ?? 0) > 0)
        }
    }
}
