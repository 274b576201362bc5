import Hummingbird

/// Answers 421 to a request whose `Host` the server is not known by
/// (`KnownHosts`): a DNS-rebinding page never reaches a route.
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let hosts: KnownHosts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard hosts.allows(request.head.authority) else {
            let name = request.head.authority ?? ""
            throw Refusal.unknownHost(name)
        }
        return try await next(request, context)
    }
}
