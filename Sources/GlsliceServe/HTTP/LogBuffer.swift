import Foundation
import GlsliceKit
import Logging

/// Log lines on their way to stderr through a bounded buffer and a thread of
/// their own: a request never waits for the log. When stderr is a pipe nobody
/// reads, the buffer fills and further lines are dropped and counted
/// (`glslice_log_lines_dropped_total`), and the server goes on answering.
public final class LogBuffer: Sendable {
    public static let capacity = 4096
    private let lines = BoundedQueue<String>(capacity: LogBuffer.capacity)
    private let dropped_ = Locked(0)
    private let descriptor: Int32

    public init(descriptor: Int32 = STDERR_FILENO) {
        self.descriptor = descriptor
        let lines = self.lines
        let thread = Thread {
            WorkerThreads.nameForTheOS("glslice-log")
            while let line = lines.pop() {
                var bytes = Array(line.utf8)
                bytes.append(0x0A)
                var offset = 0
                while offset < bytes.count {
                    let wrote = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, bytes.count - offset) }
                    if wrote < 0 && errno == EINTR { continue }
                    guard wrote > 0 else { break }
                    offset += wrote
                }
            }
        }
        thread.name = "glslice-log"
        thread.start()
    }

    /// Queues `line`; drops it (counted) when the buffer is full.
    public func add(_ line: String) {
        if !lines.tryPush(line) { dropped_.withLock { $0 += 1 } }
    }

    /// Lines dropped so far because the buffer was full.
    public var dropped: Int { dropped_.withLock { $0 } }

    /// A swift-log handler that writes through this buffer, as `StreamLogHandler` formats.
    public func handler(label: String) -> any LogHandler {
        EventHandler { [self] level, message, metadata in
            let fields = metadata.isEmpty ? "" : " " + metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let time = ISO8601DateFormatter.string(from: Date(), timeZone: .current, formatOptions: [.withInternetDateTime])
            add("\(time) \(level) \(label):\(fields) \(message)")
        }
    }
}
