import Foundation
import GlsliceKit

/// Everything `glslice serve` is told, checked once before anything starts.
public struct ServeOptions: Sendable {
    public var root: SourceRoot
    /// `--bind`'s host as given (shown in the log line).
    public var host: String
    public var port: Int
    /// The address `host` resolved to: what is bound, and whether it is loopback.
    public var bindAddress: BindResolution
    /// The `Host` names answered (`--host-name`, and loopback ones on a loopback server).
    public var knownHosts: KnownHosts
    /// Set: every render URL must be signed with it.
    public var signer: URLSigner?
    public var backend: BackendChoice
    public var device: Int?
    /// Render threads (each with its own backend).
    public var workers: Int
    /// Renders that may wait for a thread; past this a request gets 503.
    public var queueLimit: Int
    /// Bytes of encoded PNG the response cache keeps.
    public var cacheBytes: Int
    /// Bytes of decoded sources the source cache keeps.
    public var sourceCacheBytes: Int
    public var limits: Limits
    /// How long a request waits for its render before a 503.
    public var timeout: Duration
    /// Serve the preview page at `/` (and the source list it reads).
    public var preview: Bool
    /// One log line per request.
    public var accessLog: Bool
    /// A connection with no request for this long, a request whose head has
    /// not arrived within it, or an answer the client has not read for this
    /// long, is closed.
    public var idleTimeout: Duration
    /// Connections open at once; past this the server stops accepting until one closes.
    public var maxConnections: Int
    /// Bytes of render answers being written at once; past this a render is a 503.
    public var answerBytes: Int
    /// Answer lossless WebP to a render URL without `format` whose `Accept` names
    /// `image/webp` (imgproxy's `IMGPROXY_AUTO_WEBP`); off, such URLs get PNG.
    public var autoWebP = true
    /// GPU memory the shared GPU thread's renderer is held to (`--gpu-mb`).
    public var gpuBudgetBytes = 256 << 20
    /// Encode `fast` PNGs with compute passes on the GPU thread (nil: on hardware GPUs).
    public var gpuEncoding: Bool?

    /// Connections: below the file-descriptor limit, with room for sources and logs.
    public static var defaultMaxConnections: Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur != rlim_t.max else { return 1024 }
        return max(16, min(4096, Int(limit.rlim_cur) - 64))
    }

    public static let defaultMaxOutputPixels = 16_777_216
    public static let defaultPort = 8080

    public init(root: SourceRoot, host: String = "127.0.0.1", port: Int = ServeOptions.defaultPort,
                signer: URLSigner? = nil, backend: BackendChoice = .auto, device: Int? = nil,
                workers: Int = ProcessInfo.processInfo.activeProcessorCount, queueLimit: Int = 64,
                cacheBytes: Int = 256 << 20, sourceCacheBytes: Int = 256 << 20,
                limits: Limits = Limits(maxOutputPixels: ServeOptions.defaultMaxOutputPixels),
                timeout: Duration = .seconds(30), preview: Bool? = nil, insecurePublic: Bool = false,
                accessLog: Bool = true, idleTimeout: Duration = .seconds(30),
                maxConnections: Int = ServeOptions.defaultMaxConnections, answerBytes: Int = 256 << 20,
                hostNames: [String] = [], resolve: (String) throws -> [String] = BindResolution.systemResolve) throws {
        guard idleTimeout > .zero else { throw UsageErrors.notPositive("--idle-timeout") }
        guard (1...1_000_000).contains(maxConnections) else {
            throw UsageErrors.outOfRange("--max-connections", 1...1_000_000, got: maxConnections)
        }
        guard answerBytes > 0 else { throw UsageErrors.notPositive("--answer-mb") }
        guard (1...1024).contains(workers) else { throw UsageErrors.outOfRange("--workers", 1...1024, got: workers) }
        guard (0...1_000_000).contains(queueLimit) else { throw UsageErrors.outOfRange("--queue", 0...1_000_000, got: queueLimit) }
        guard (0...65535).contains(port) else { throw UsageErrors.portOutOfRange(port) }
        guard timeout > .zero else { throw UsageErrors.notPositive("--timeout") }
        for name in hostNames where name.isEmpty || name.contains(where: { $0 == ":" || $0 == "/" || $0 == " " }) {
            throw UsageErrors.notAHostName(name)
        }
        let bound = try BindResolution(host: host, resolve: resolve)
        let loopback = bound.isLoopback
        if signer == nil && !loopback && !insecurePublic {
            throw UsageErrors.publicWithoutKey(host, address: bound.address)
        }
        if preview == true && signer != nil {
            throw UsageErrors.previewWithKey()
        }
        self.root = root
        self.host = host
        self.port = port
        bindAddress = bound
        knownHosts = KnownHosts(names: hostNames, loopbackServer: loopback)
        self.signer = signer
        self.backend = backend
        self.device = device
        self.workers = workers
        self.queueLimit = queueLimit
        self.cacheBytes = cacheBytes
        self.sourceCacheBytes = sourceCacheBytes
        self.limits = limits
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
        self.answerBytes = answerBytes
        self.timeout = timeout
        // On by default where only this machine can reach it and no key is asked for.
        self.preview = preview ?? (loopback && signer == nil)
        self.accessLog = accessLog
    }

    /// `HOST:PORT`, `[V6]:PORT`, `HOST` or `:PORT`.
    public static func parseBind(_ text: String) throws -> (host: String, port: Int) {
        var host = text, port = defaultPort
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":"), let value = Int(rest.dropFirst()) else { throw bindError(text) }
                port = value
            }
        } else if let colon = text.lastIndex(of: ":"), text.firstIndex(of: ":") == colon {
            host = String(text[..<colon])
            guard let value = Int(text[text.index(after: colon)...]) else { throw bindError(text) }
            port = value
            if host.isEmpty { host = "127.0.0.1" }
        }
        guard !host.isEmpty, (0...65535).contains(port) else { throw bindError(text) }
        return (host, port)
    }

    private static func bindError(_ text: String) -> GlsliceError {
        UsageErrors.notABind(text)
    }
}
