import Hummingbird

/// A request no route takes (an unknown path, or a method the path does not
/// answer) gets the documented error body, one line of JSON, not the
/// router's empty 404.
struct NoRouteMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            throw Refusal.notFound
        }
    }
}
