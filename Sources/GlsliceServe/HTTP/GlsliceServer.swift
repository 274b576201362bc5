import Foundation
import GlsliceKit
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// `glslice serve`: the render endpoint, health, metrics and the preview page
/// on Hummingbird. Its lifetime is a swift-service-lifecycle service, so
/// SIGTERM stops new connections, lets the requests in flight finish, and
/// only then returns.
public final class GlsliceServer: Sendable {
    public let options: ServeOptions
    public let metrics = ServeMetrics()
    let service: ImageService
    let catalog: PreviewCatalog
    let saver: NinePatchSaver
    let setSaver: ImageSetSaver
    /// The page may write files (its save buttons) only where nobody else can ask:
    /// a loopback server without a key.
    var writesAllowed: Bool { options.preview && options.bindAddress.isLoopback && options.signer == nil }
    let logger: Logger
    /// Render answers being written, capped (`--answer-mb`).
    let answers: AnswerBudget
    /// Where log lines wait for stderr (its drops are in `/metrics`); nil when the caller logs elsewhere.
    let logBuffer: LogBuffer?

    /// Opens the render threads and their backends (a failure here, such as
    /// `--backend gpu` without a GPU, is thrown before any port is bound).
    /// `beforeRender` runs on a render thread before each render: a hook for
    /// tests and failpoints that need a render to be slow.
    public init(options: ServeOptions, logger: Logger, warn: @escaping @Sendable (String) -> Void = { _ in },
                logBuffer: LogBuffer? = nil, beforeRender: (@Sendable () -> Void)? = nil) throws {
        self.options = options
        self.logger = logger
        self.logBuffer = logBuffer
        answers = AnswerBudget(capacity: options.answerBytes)
        if let logBuffer { metrics.droppedLogLines.withLock { $0 = { logBuffer.dropped } } }
        service = try ImageService(options: options, metrics: metrics, answers: answers, warn: warn, beforeRender: beforeRender)
        catalog = PreviewCatalog(root: options.root, limits: options.limits, pool: service.pool)
        saver = NinePatchSaver(root: options.root, limits: options.limits, pool: service.pool)
        setSaver = ImageSetSaver(root: options.root, limits: options.limits, pool: service.pool)
    }

    /// What the render threads draw with (`cpu`, or `gpu (RENDERER)`).
    public var backendDescription: String { service.backendDescription }

    /// The Hummingbird application; `onListening` gets the bound port (useful with port 0).
    /// The render pool runs in the application's service group, which stops it
    /// only after the server has drained.
    public func application(onListening: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        router.add(middleware: AccessLogMiddleware(logger: logger, enabled: options.accessLog))
        router.add(middleware: HostCheckMiddleware(hosts: options.knownHosts))
        let routes = ServeRoutes(server: self).build()
        router.add(middleware: NoRouteMiddleware(table: routes.table))
        router.addRoutes(routes.collection)
        let address = BindAddress.hostname(options.bindAddress.address, port: options.port)
        let idle = TimeAmount.nanoseconds(Int64(options.idleTimeout.components.seconds) * 1_000_000_000
                                          + options.idleTimeout.components.attoseconds / 1_000_000_000)
        // Idle and half-sent requests: Hummingbird's idle timeout; an answer nobody reads: WriteStallHandler.
        let answers = self.answers
        let http1 = HTTP1Channel.Configuration(additionalChannelHandlers: [WriteStallHandler(limit: idle), PendingWritesHandler(answers: answers)],
                                               idleTimeout: idle)
        return Application(
            router: router,
            server: .http1(configuration: http1),
            configuration: ApplicationConfiguration(address: address, serverName: "glslice",
                                                    availableConnectionsDelegate: MaximumAvailableConnections(options.maxConnections)),
            services: [service.pool],
            onServerRunning: { channel in await onListening(channel.localAddress?.port ?? 0) },
            logger: logger
        )
    }

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

    /// Why the server could not start or run, in words (`Address already in use`, not NIO's call site).
    public static func describe(_ error: any Error) -> String {
        if let error = error as? IOError { return String(cString: strerror(error.errnoCode)) }
        return "\(error)"
    }

    /// Lets queued renders finish and stops the render threads.
    public func shutdown() { service.shutdown() }

    /// A render answer; `headOnly` (HEAD) gives its status and headers with no
    /// body, so nothing is held against `--answer-mb`.
    func respond(to request: Request, headOnly: Bool = false) async -> Response {
        let answer = await service.answer(path: Substring(request.uri.path), query: request.uri.query.map { Substring($0) },
                                          ifNoneMatch: request.headers[.ifNoneMatch], accept: request.headers[.accept])
        switch answer {
        case .image(let image, let format, let etag):
            let bytes = image.readableBytes
            let headers: HTTPFields = [.contentType: format.mediaType, .eTag: etag, .cacheControl: Self.immutable, .vary: "Accept"]
            if headOnly {
                var response = Response(status: .ok, headers: headers)
                response.headers[.contentLength] = String(bytes)
                return response
            }
            guard answers.reserve(bytes) else {
                metrics.answersRefused.increment()
                return Self.refusalResponse(.answersFull)
            }
            // Held until written (or the connection is gone), so unread answers stay within --answer-mb.
            // Written in slices: the writer then waits while the socket is full, so the bytes are
            // still counted (and a drain still waits) until the kernel has taken nearly all of them;
            // one write of the whole buffer returned at once and left it all in NIO's queue.
            let answers = self.answers
            let body = ResponseBody(contentLength: bytes) { writer in
                defer { answers.release(bytes) }
                do {
                    var rest = image
                    while let slice = rest.readSlice(length: min(Self.sliceBytes, rest.readableBytes)), slice.readableBytes > 0 {
                        try await writer.write(slice)
                    }
                    try await writer.finish(nil)
                } catch {
                    answers.answerFailed()
                    throw error
                }
            }
            // Vary: the same URL answers WebP or PNG by Accept, so a cache must key on it.
            return Response(status: .ok, headers: headers, body: body)
        case .notModified(let etag):
            return Response(status: .notModified, headers: [.eTag: etag, .cacheControl: Self.immutable, .vary: "Accept"])
        case .refused(let refusal):
            var response = Self.refusalResponse(refusal)
            response.headers[.vary] = "Accept"
            return response
        }
    }

    static let immutable = "public, max-age=31536000, immutable"
    /// An answer is handed to its connection this much at a time.
    static let sliceBytes = 256 << 10
    /// The page loads nothing from elsewhere; its script and style are inline.
    /// The preview page, saying which folder its command lines run from (the root, HTML-escaped).
    var previewPage: String {
        let escaped = options.root.path.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
        return String(decoding: PackageResources.preview_html, as: UTF8.self).replacingOccurrences(of: "__GLSLICE_ROOT__", with: escaped)
    }

    static let previewPolicy = "default-src 'self'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'; connect-src 'self'"

    func health() -> Response {
        let load = service.load
        return Self.json(200, Health(status: "ok", backend: service.backendDescription, backendReason: service.autoReason,
                                     workers: service.pool.workers, queued: load.queued, rendering: load.running))
    }

    struct Health: Encodable {
        var status: String
        var backend: String
        /// Why `--backend auto` took the CPU over a software rasteriser, when it did.
        var backendReason: String?
        var workers: Int
        var queued: Int
        var rendering: Int
    }

    struct ErrorBody: Encodable {
        var error: String
    }

    static func refusalResponse(_ refusal: Refusal) -> Response {
        var response = json(refusal.statusCode, ErrorBody(error: refusal.message))
        if let retry = refusal.retryAfter { response.headers[.retryAfter] = String(retry) }
        if let allow = refusal.allow { response.headers[.allow] = allow }
        return response
    }

    /// One line of JSON and a newline.
    static func json<T: Encodable>(_ status: Int, _ value: T) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        var bytes = (try? encoder.encode(value)) ?? Data("{}".utf8)
        bytes.append(0x0A)
        return Response(status: HTTPResponse.Status(code: status), headers: [.contentType: "application/json"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }
}

