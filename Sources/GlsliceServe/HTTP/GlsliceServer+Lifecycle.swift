import Foundation
import GlsliceKit
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The server's lifetime: a swift-service-lifecycle service group that, on
/// SIGTERM or SIGINT, stops accepting, lets the answers in flight be written
/// (for at most the drain limit), then stops the render threads.
extension GlsliceServer {
    /// Serves until SIGTERM or SIGINT, drains, then stops the render threads.
    /// The drain stops accepting, lets the requests in flight finish and their
    /// answers be written, for at most `drainLimit`; then what is left is
    /// cancelled. Returns how many answers were cut off (0 when every answer
    /// was written whole).
    @discardableResult
    public func run(drainLimit: Duration = .seconds(30),
                    onListening: @escaping @Sendable (Int) async -> Void = { _ in }) async throws -> Int {
        defer { shutdown() }
        var configuration = ServiceGroupConfiguration(
            services: [.init(service: application(onListening: onListening)),
                       // Last, so the first to hear of the shutdown: answers failing from then on were cut off.
                       .init(service: DrainWatch(answers: answers), successTerminationBehavior: .ignore)],
            gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
        configuration.maximumGracefulShutdownDuration = drainLimit
        let group = ServiceGroup(configuration: configuration), answers = self.answers
        try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            tasks.addTask { await Self.releaseHeldCloses(answers, after: drainLimit) }
            try await tasks.next() // the service group ended
            tasks.cancelAll()
        }
        // The group ends when the handlers have returned; their last bytes may still be in NIO's queue.
        return await answers.drain(until: (answers.drainStarted ?? .now) + drainLimit)
    }

    /// Marks the answers' drain as begun when the service group starts shutting
    /// down. It returns at once: the group shuts its services down one after
    /// another, so one that waited here would keep the port open.
    struct DrainWatch: Service {
        let answers: AnswerBudget
        func run() async throws {
            try? await gracefulShutdown()
            answers.beginDraining()
        }
    }

    /// `limit` after the drain began, lets the closes held for unwritten bytes
    /// go through, so a client that stops reading cannot keep the server up.
    /// A child task of `run`, cancelled when the service group has ended.
    static func releaseHeldCloses(_ answers: AnswerBudget, after limit: Duration) async {
        do {
            while answers.drainStarted == nil { try await Task.sleep(for: .milliseconds(20)) }
            try await Task.sleep(until: (answers.drainStarted ?? .now) + limit, clock: .continuous)
            answers.releaseHeldCloses()
        } catch {
            return // the group ended first: nothing is held any more
        }
    }

    /// Whether the server could not start because another process listens on its address.
    public static func addressInUse(_ error: any Error) -> Bool { (error as? IOError)?.errnoCode == EADDRINUSE }

    /// Why the server could not start or run, in words (`Address already in use`, not NIO's call site).
    public static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }
}
