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
        let files = PreviewFiles(root: options.root, limits: options.limits, pool: service.pool)
        catalog = PreviewCatalog(files: files)
        saver = NinePatchSaver(files: files)
        setSaver = ImageSetSaver(files: files)
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

    /// Lets queued renders finish and stops the render threads.
    public func shutdown() { service.shutdown() }
}
