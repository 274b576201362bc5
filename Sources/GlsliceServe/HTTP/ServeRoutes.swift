import Foundation
import GlsliceKit
import Hummingbird
import NIOCore

/// The server's routes as one collection: render, health, metrics and, when
/// enabled, the preview page and its two JSON helpers; and the table of
/// which methods each path answers (`NoRouteMiddleware`'s 405).
struct ServeRoutes: Sendable {
    let server: GlsliceServer

    /// Adds routes to a collection and records each in a table.
    private final class Builder {
        let collection = RouteCollection(context: BasicRequestContext.self)
        var table = RouteTable()

        func on(_ method: HTTPRequest.Method, _ pattern: String,
                _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response) {
            collection.on(RouterPath(pattern), method: method, use: handler)
            table.record(method, pattern)
        }
        /// GET, and HEAD with the same status and headers and no body (RFC 9110 §9.1:
        /// a server supports HEAD wherever it supports GET; load balancers probe with it).
        func get(_ pattern: String, _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response) {
            on(.get, pattern, handler)
            on(.head, pattern) { request, context in
                Self.headOnly(try await handler(request, context))
            }
        }
        /// A GET route whose HEAD answer is worked out by a handler of its own (`/render`).
        func getOnly(_ pattern: String, _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response) {
            on(.get, pattern, handler)
        }
        func head(_ pattern: String, _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response) {
            on(.head, pattern, handler)
        }
        /// `response` without its body, its length kept in Content-Length.
        static func headOnly(_ response: Response) -> Response {
            var head = Response(status: response.status, headers: response.headers)
            if let length = response.body.contentLength, head.headers[.contentLength] == nil {
                head.headers[.contentLength] = String(length)
            }
            return head
        }
        func post(_ pattern: String, _ handler: @escaping @Sendable (Request, BasicRequestContext) async throws -> Response) {
            on(.post, pattern, handler)
        }
    }

    func build() -> (collection: RouteCollection<BasicRequestContext>, table: RouteTable) {
        let routes = Builder()
        add(to: routes)
        return (routes.collection, routes.table)
    }

    private func add(to routes: Builder) {
        let server = self.server
        routes.get("/healthz") { _, _ in server.health() }
        routes.get("/metrics") { _, _ in
            server.service.updateGauges()
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: server.metrics.text())))
        }
        routes.getOnly("/render/**") { request, _ in
            await server.respond(to: request)
        }
        // What a CDN or `curl -I` asks: the same status and headers, no body (and no share of --answer-mb).
        routes.head("/render/**") { request, _ in
            await server.respond(to: request, headOnly: true)
        }
        guard server.options.preview else { return }
        routes.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache",
                                            .contentSecurityPolicy: GlsliceServer.previewPolicy],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: server.previewPage)))
        }
        routes.get("/preview/sources") { _, _ in
            guard let sources = await server.catalog.sources() else { throw Refusal.busy }
            return GlsliceServer.json(200, sources)
        }
        routes.get("/preview/info/**") { request, _ in
            let path = request.uri.path.dropFirst("/preview/info/".count)
            let scale = request.uri.queryParameters["scale"].flatMap { Double(String($0)) }
            switch await server.catalog.info(escapedPath: path, outputScale: scale) {
            case .success(let info): return GlsliceServer.json(200, info)
            case .failure(let refusal): throw refusal
            }
        }
        guard server.writesAllowed else { return }
        routes.post("/preview/save-nine-patch") { request, _ in
            try await Self.write(request, NinePatchSaver.Request.self,
                                 shape: #"{"source", "output", "x": [[start, end]], "y": [[start, end]]}"#) { await server.saver.save($0) }
        }
        routes.post("/preview/write-image-set") { request, _ in
            try await Self.write(request, ImageSetSaver.Request.self,
                                 shape: #"{"source", "insets": "T,L,B,R", "center"}"#) { await server.setSaver.save($0) }
        }
    }

    /// One of the page's writes: from the page only (`SameOriginWrite`), a JSON body of `shape` (at most 1 MiB), done by
    /// `save`, answered with what it wrote or its refusal.
    static func write<Body: Decodable & Sendable, Saved: Encodable>(
        _ request: Request, _ type: Body.Type, shape: String, save: (Body) async -> Result<Saved, Refusal>
    ) async throws -> Response {
        try SameOriginWrite.check(request)
        let body: Body
        do {
            body = try JSONDecoder().decode(Body.self, from: try await request.body.collect(upTo: 1 << 20))
        } catch {
            throw Refusal.badBody(shape: shape)
        }
        switch await save(body) {
        case .success(let saved): return GlsliceServer.json(200, saved)
        case .failure(let refusal): throw refusal
        }
    }
}
