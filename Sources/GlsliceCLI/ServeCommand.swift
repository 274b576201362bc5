import ArgumentParser
import Foundation
import GlsliceKit
import GlsliceServe
import Logging

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve nine-slice images on demand over HTTP, and a live preview page.",
        discussion: """
        GET /render/PATH?pixels=WxH|size=WxH&scale=…&insets=…&mode=…&mode-x=…&mode-y=…&filter=…&center=… renders the source PATH under --root with the same options as 'render' and a manifest line. Answers are image/png, or image/webp where format=webp or the request's Accept names image/webp (unless --no-auto-webp), with a strong ETag (the job digest) and Cache-Control: immutable; If-None-Match gets 304. Identical requests in flight render once; encoded answers are kept in an LRU of --cache-mb.

        Errors: 400 bad request (one line of JSON with the CLI's message), 403 missing or wrong signature, 404 no such source under the root (or a path that leads out of it), 421 a Host this server is not known by (see --host-name), 503 queue full, render timed out or --answer-mb full (with Retry-After).

        GET /healthz says whether the render threads are up; GET /metrics gives Prometheus text. With --key-file every render URL must carry sig= (see 'glslice sign'); without one the server listens on loopback only, unless --insecure-public. The preview page at / is on by default on loopback without a key. SIGTERM or SIGINT: stop accepting, finish the requests in flight and the answers being written (up to --drain-timeout), exit 0; exit 75 when answers were cut off.

        Examples (from the repository root; each serves until Ctrl-C):
          # Designers' preview on this machine: open http://127.0.0.1:8080/
          glslice serve --root Fixtures

          # Then, from another shell, a 320x200 px panel from that server:
          #   curl -o out/panel-320x200.png \\
          #     'http://127.0.0.1:8080/render/panel.png?pixels=320x200&insets=8'

          # A farm node: signed URLs only (see 'glslice sign'), 4 render threads,
          # 512 MiB of cached answers (reachable from other machines with
          # --bind 0.0.0.0:8081); its key is a secret, kept out of the repository:
          head -c 32 /dev/urandom | base64 > /tmp/glslice-serve.key
          glslice serve --root Fixtures --bind 127.0.0.1:8081 \\
              --key-file /tmp/glslice-serve.key --workers 4 --cache-mb 512
        """
    )

    @Option(help: ArgumentHelp("The folder sources are read from; nothing outside it is served.", valueName: "DIR"), completion: .directory)
    var root: String

    @Option(help: ArgumentHelp("Address and port to listen on (port 0 picks a free one).", valueName: "HOST:PORT"))
    var bind = "127.0.0.1:8080"

    @Option(help: ArgumentHelp("Require render URLs signed with this key (HMAC-SHA256; at least 16 bytes).", valueName: "K"))
    var keyFile: String?

    @Option(help: ArgumentHelp("Another name this server is reached by (Host); repeat for more. A loopback server answers only loopback names and these; a public one, only these once any is given.", valueName: "NAME"))
    var hostName: [String] = []

    @Flag(help: "Listen on a non-loopback address without --key-file: anyone who can reach it may render.")
    var insecurePublic = false

    @Option(help: ArgumentHelp("Rendering backend (see 'glslice render --help').", valueName: "B"))
    var backend: BackendChoice = .auto

    @Option(help: ArgumentHelp("EGL device index to render on.", valueName: "N"))
    var gpu: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("GPU memory in MiB the GPU thread holds at most: framebuffer, cell textures, read-back buffers and the GPU encoder's buffers (16 or more; /metrics shows glslice_gpu_bytes).", valueName: "MB"))
    var gpuMb: Int = GPUMemory.defaultBudget >> 20

    @Option(parsing: .unconditional, help: ArgumentHelp("Render threads (the default is this machine's core count): each draws on the CPU and encodes; with a GPU they share one GPU thread.", valueName: "N"))
    var workers: Int = ProcessInfo.processInfo.activeProcessorCount

    @Option(parsing: .unconditional, help: ArgumentHelp("Renders that may wait for a thread; past this, 503 with Retry-After.", valueName: "N"))
    var queue: Int = 64

    @Option(parsing: .unconditional, help: ArgumentHelp("MiB of encoded PNG answers kept in memory.", valueName: "MB"))
    var cacheMb: Int = 256

    @Option(parsing: .unconditional, help: ArgumentHelp("MiB of decoded sources kept in memory.", valueName: "MB"))
    var sourceCacheMb: Int = 256

    @Option(parsing: .unconditional, help: ArgumentHelp("Refuse outputs with more pixels than this (400).", valueName: "N"))
    var maxOutputPixels: Int = ServeOptions.defaultMaxOutputPixels

    @Option(parsing: .unconditional, help: ArgumentHelp("Refuse sources with more pixels than this (400).", valueName: "N"))
    var maxSourcePixels: Int = Limits.defaultMaxSourcePixels

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds a request waits for its render before a 503.", valueName: "S"))
    var timeout: Double = 30

    @Flag(inversion: .prefixedNo, help: "Serve the preview page at / (default: on for loopback without --key-file).")
    var preview: Bool?

    @Flag(help: "Leave out the access log (one line per request on stderr).")
    var noAccessLog = false

    @Flag(help: "Answer PNG even when Accept names image/webp (a URL's format=webp still gets WebP); like imgproxy's IMGPROXY_AUTO_WEBP=false.")
    var noAutoWebp = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Close a connection idle, sending its request, or not reading its answer for this long.", valueName: "S"))
    var idleTimeout: Double = 30

    @Option(parsing: .unconditional, help: ArgumentHelp("Connections open at once; past this, new ones wait (the default stays under the file limit).", valueName: "N"))
    var maxConnections: Int = ServeOptions.defaultMaxConnections

    @Option(parsing: .unconditional, help: ArgumentHelp("MiB of render answers being written at once; past this, 503.", valueName: "MB"))
    var answerMb: Int = 256

    @Option(parsing: .unconditional, help: ArgumentHelp("On SIGTERM, seconds to wait for answers still being written.", valueName: "S"))
    var drainTimeout: Double = 30

    func run() async throws {
        // Bounded so that `<< 20` cannot overflow into a negative or zero cache (2^43 MiB did).
        guard (0...1_048_576).contains(cacheMb) else { throw UsageErrors.outOfRange("--cache-mb", 0...1_048_576, got: cacheMb) }
        guard (0...1_048_576).contains(sourceCacheMb) else {
            throw UsageErrors.outOfRange("--source-cache-mb", 0...1_048_576, got: sourceCacheMb)
        }
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw UsageErrors.secondsOutOfRange("--timeout", most: 86_400, zeroAllowed: false, got: timeout)
        }
        guard idleTimeout.isFinite, idleTimeout > 0, idleTimeout <= 86_400 else {
            throw UsageErrors.secondsOutOfRange("--idle-timeout", most: 86_400, zeroAllowed: false, got: idleTimeout)
        }
        guard drainTimeout.isFinite, drainTimeout >= 0, drainTimeout <= 86_400 else {
            throw UsageErrors.secondsOutOfRange("--drain-timeout", most: 86_400, zeroAllowed: true, got: drainTimeout)
        }
        guard (1...1_048_576).contains(answerMb) else { throw UsageErrors.outOfRange("--answer-mb", 1...1_048_576, got: answerMb) }
        let (host, port) = try ServeOptions.parseBind(bind)
        var settings = try ServeOptions(
            root: SourceRoot(root), host: host, port: port, signer: try keyFile.map(URLSigner.init(keyFile:)),
            backend: backend, device: try gpuDevice(gpu), workers: workers, queueLimit: queue,
            cacheBytes: cacheMb << 20, sourceCacheBytes: sourceCacheMb << 20,
            limits: try Limits.given(maxSourcePixels: maxSourcePixels, maxOutputPixels: maxOutputPixels),
            timeout: .milliseconds(Int64(timeout * 1000)), preview: preview, insecurePublic: insecurePublic,
            accessLog: !noAccessLog, idleTimeout: .milliseconds(Int64(idleTimeout * 1000)),
            maxConnections: maxConnections, answerBytes: answerMb << 20, hostNames: hostName)
        settings.autoWebP = !noAutoWebp
        settings.gpuBudgetBytes = try gpuBudget(megabytes: gpuMb)
        settings.gpuEncoding = gpuEncodingSetting()
        let options = settings
        // A server lives for days: large blocks go back to the system when freed (`LargeAllocations`).
        LargeAllocations.returnToTheSystem()
        // Log lines go through a bounded buffer: a stderr nobody reads drops lines, never requests.
        let logBuffer = LogBuffer()
        LoggingSystem.bootstrap { label in logBuffer.handler(label: label) }
        var logger = Logger(label: "glslice")
        logger.logLevel = .info
        let server = try GlsliceServer(options: options, logger: logger, warn: warn, logBuffer: logBuffer,
                                       beforeRender: Self.renderGate())
        let shown = host.contains(":") ? "[\(host)]" : host
        let cutOff: Int
        do {
            cutOff = try await server.run(drainLimit: .milliseconds(Int64(drainTimeout * 1000))) { port in
                standardError("glslice: serving \(options.root.path) on http://\(shown):\(port)/ with \(server.backendDescription), \(options.workers) render threads\(options.preview ? "; preview at /" : "")\(options.signer != nil ? "; signed URLs only" : "")\n")
            }
        } catch {
            if GlsliceServer.addressInUse(error) { throw UnavailableErrors.addressInUse(bind) }
            throw UnavailableErrors.cannotServe(on: bind, GlsliceServer.describe(error))
        }
        if cutOff > 0 {
            standardError("glslice: stopped; \(cutOff) answer\(cutOff == 1 ? " was" : "s were") still being written after --drain-timeout and cut off\n")
            throw ExitCode(75)
        }
        standardError("glslice: stopped; the requests in flight were answered\n")
    }
}

extension ServeCommand {
    /// A failpoint for the tests: with `GLSLICE_RENDER_GATE=PATH` each render
    /// waits until PATH exists, so a shutdown can be caught with a render in flight.
    static func renderGate() -> (@Sendable () -> Void)? {
        guard let gate = ProcessInfo.processInfo.environment["GLSLICE_RENDER_GATE"], !gate.isEmpty else { return nil }
        return { while access(gate, F_OK) != 0 { usleep(10_000) } }
    }
}
