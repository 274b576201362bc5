import HTTPTypes
import NIOCore
import NIOHTTP1
import NIOPosix

/// The tests' HTTP client: one request on its own connection, over SwiftNIO's HTTP/1.1
/// handlers, which the server is built on already. HummingbirdTesting's client brought
/// AsyncHTTPClient and NIOSSL, so a second BoringSSL compiled for the tests (issue 70);
/// this keeps its shape (`withClient`, `execute`, `get`) so the tests read as before.
enum TestClient {
    struct Configuration: Sendable {
        var timeout: Duration
    }

    struct Request: Sendable {
        var path: String
        var method: HTTPRequest.Method
        /// The `Host` header; nil: the address connected to.
        var authority: String?
        var headers: HTTPFields
        var body: ByteBuffer?

        init(_ path: String, method: HTTPRequest.Method, authority: String? = nil, headers: HTTPFields = [:], body: ByteBuffer? = nil) {
            self.path = path
            self.method = method
            self.authority = authority
            self.headers = headers
            self.body = body
        }
    }

    struct Response: Sendable {
        var head: HTTPResponse
        var body: ByteBuffer?
        var status: HTTPResponse.Status { head.status }
        var headers: HTTPFields { head.headerFields }
    }

    enum Failure: Error { case timedOut(String), closedEarly(String) }

    struct Client: Sendable {
        let host: String
        let port: Int
        let configuration: Configuration

        func get(_ path: String, headers: HTTPFields = [:]) async throws -> Response {
            try await execute(Request(path, method: .get, headers: headers))
        }

        func head(_ path: String, headers: HTTPFields = [:]) async throws -> Response {
            try await execute(Request(path, method: .head, headers: headers))
        }

        /// Sends `request` on a new connection (`Connection: close`) and reads the whole answer.
        func execute(_ request: Request) async throws -> Response {
            let group = MultiThreadedEventLoopGroup.singleton
            let promise = group.next().makePromise(of: Response.self)
            let collector = Collector(promise: promise, path: request.path)
            let channel: any Channel
            do {
                channel = try await ClientBootstrap(group: group)
                    .channelInitializer { channel in
                        channel.pipeline.addHTTPClientHandlers().flatMap { channel.pipeline.addHandler(collector) }
                    }
                    .connect(host: host, port: port).get()
            } catch {
                // No channel, so nothing else completes the promise (NIO stops on a promise left pending).
                collector.finish(.failure(error))
                throw error
            }
            var head = HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: request.method.rawValue), uri: request.path)
            head.headers.add(name: "Host", value: request.authority ?? "\(host):\(port)")
            for field in request.headers { head.headers.add(name: field.name.rawName, value: field.value) }
            if let body = request.body { head.headers.add(name: "Content-Length", value: String(body.readableBytes)) }
            head.headers.add(name: "Connection", value: "close")
            channel.write(HTTPClientRequestPart.head(head), promise: nil)
            if let body = request.body { channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil) }
            channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
            let (seconds, attoseconds) = configuration.timeout.components
            let timeout = channel.eventLoop.scheduleTask(in: .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)) {
                collector.finish(.failure(Failure.timedOut(request.path)))
                channel.close(promise: nil)
            }
            defer { timeout.cancel() }
            let response = try await promise.futureResult.get()
            try? await channel.close().get()
            return response
        }
    }

    static func withClient<T>(host: String, port: Int, configuration: Configuration, _ body: (Client) async throws -> T) async throws -> T {
        try await body(Client(host: host, port: port, configuration: configuration))
    }

    /// Gathers one response: its head, its body's bytes, then its end. Used on its channel's
    /// event loop only (the timeout runs there too), so `done` needs no lock.
    private final class Collector: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = HTTPClientResponsePart
        let promise: EventLoopPromise<Response>
        let path: String
        var head: HTTPResponse?
        var body: ByteBuffer?
        var done = false

        /// The answer, once: what comes after (the close after the end, a late timeout) is dropped.
        func finish(_ result: Result<Response, any Error>) {
            guard !done else { return }
            done = true
            promise.completeWith(result)
        }

        init(promise: EventLoopPromise<Response>, path: String) {
            self.promise = promise
            self.path = path
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let received):
                var fields = HTTPFields()
                for (name, value) in received.headers {
                    if let field = HTTPField.Name(name) { fields.append(HTTPField(name: field, value: value)) }
                }
                head = HTTPResponse(status: .init(code: Int(received.status.code), reasonPhrase: received.status.reasonPhrase),
                                    headerFields: fields)
            case .body(var part):
                if body == nil { body = part } else { body?.writeBuffer(&part) }
            case .end:
                if let head { finish(.success(Response(head: head, body: body))) }
            }
        }

        func channelInactive(context: ChannelHandlerContext) {
            finish(.failure(Failure.closedEarly(path)))
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            finish(.failure(error))
            context.close(promise: nil)
        }
    }
}
