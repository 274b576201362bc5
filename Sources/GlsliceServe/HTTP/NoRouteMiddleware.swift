import Hummingbird

/// A request no route takes gets the documented error body, one line of
/// JSON, not the router's empty 404: 404 for an unknown path, 405 with
/// `Allow` for a method the path does not answer.
struct NoRouteMiddleware<Context: RequestContext>: RouterMiddleware {
    let table: RouteTable

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let methods = table.methods(at: request.uri.path)
            guard !methods.isEmpty else { throw Refusal.notFound }
            throw Refusal.methodNotAllowed(request.method.rawValue, allowed: methods.map(\.rawValue))
        }
    }
}
