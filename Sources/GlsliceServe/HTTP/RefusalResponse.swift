import Hummingbird

/// A refusal thrown from a route answers as every refusal does: its status,
/// one line of JSON, and Retry-After when it says when.
extension Refusal: HTTPResponseError {
    public var status: HTTPResponse.Status { HTTPResponse.Status(code: statusCode) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        GlsliceServer.refusalResponse(self)
    }
}
