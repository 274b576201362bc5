import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import NIOCore
import Testing

/// HEAD is answered wherever GET is (docs/HARDENING.md, round four, finding 4).
@Suite struct HeadTests {
    static func head(_ port: Int, _ path: String) async throws -> TestClient.Response {
        try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: clientConfiguration) { client in
            try await client.execute(TestClient.Request(path, method: .head))
        }
    }

    // 4. HEAD answered 405 where GET was served (RFC 9110 §9.1); load balancers probe with it.
    @Test func headIsAnsweredWhereverGetIs() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            for path in ["/healthz", "/metrics", "/", "/preview/sources", "/preview/info/panel.png", "/render/panel.png?pixels=40x40&insets=8"] {
                let get = try await get(port, path)
                let head = try await Self.head(port, path)
                #expect(get.status == .ok && head.status == .ok, "\(path): GET \(get.status), HEAD \(head.status)")
                #expect(head.bytes.isEmpty, "\(path): HEAD sent \(head.bytes.count) bytes")
                #expect(head.headers[.contentType] == get.headers[.contentType], "\(path)")
                if path != "/metrics" { // the metrics text grows with each request
                    #expect(head.headers[.contentLength] == String(get.bytes.count), "\(path): \(head.headers[.contentLength] ?? "none")")
                }
            }
            // A path that is not served is still 404 for HEAD, and a POST-only method list still 405.
            #expect(try await Self.head(port, "/nothing-here").status == .notFound)
        }
    }

}
