import Hummingbird

/// Counts every answered request by its status code (`glslice_http_requests_total`).
struct MetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServeMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            let response = try await next(request, context)
            metrics.countRequest(status: response.status.code)
            return response
        } catch let error as any HTTPResponseError {
            metrics.countRequest(status: error.status.code)
            throw error
        } catch {
            metrics.countRequest(status: 500)
            throw error
        }
    }
}
