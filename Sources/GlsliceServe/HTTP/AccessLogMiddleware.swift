import Foundation
import Hummingbird
import Logging

/// One structured log line per request (swift-log), the signature left out.
struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
    let logger: Logger
    let enabled: Bool

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard enabled else { return try await next(request, context) }
        let clock = ContinuousClock()
        let started = clock.now
        var status = 500
        var bytes: Int?
        defer {
            let elapsed = clock.now - started
            let ms = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
            logger.info("request", metadata: [
                "method": .string(request.method.rawValue),
                "path": .string(Self.redacted(path: request.uri.path, query: request.uri.query)),
                "status": .stringConvertible(status),
                "bytes": .stringConvertible(bytes ?? 0),
                "ms": .string(String(format: "%.2f", ms)),
            ])
        }
        do {
            let response = try await next(request, context)
            status = response.status.code
            bytes = response.body.contentLength
            return response
        } catch let error as any HTTPResponseError {
            status = error.status.code
            throw error
        }
    }

    /// The path and query with the signature's value left out, whichever way
    /// its name is escaped (`%73ig=` is `sig=` to the signer, so to the log too).
    static func redacted(path: String, query: String?) -> String {
        guard let query, !query.isEmpty else { return path }
        let parts = query.split(separator: "&").map { URLSigner.isSignature($0) ? "\(URLSigner.parameter)=…" : String($0) }
        return path + "?" + parts.joined(separator: "&")
    }
}
