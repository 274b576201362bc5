import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import Testing

/// `GET /render/...` on a real loopback port: containment, errors, caching headers.
@Suite struct RenderEndpointTests {
    static let button = "/render/button@2x.png?size=60x22&insets=14,12,14,12"

    @Test func pathsThatLeaveTheRootAreNotFound() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            // The same file is reachable from inside the root, so a 404 below is containment, not a missing file.
            #expect(try await get(port, "/render/panel.png?pixels=20x20").status == .ok)
            let escapes = [
                "/render/../outside/secret.png?pixels=20x20",           // ..
                "/render/ui/../../outside/secret.png?pixels=20x20",     // .. after a real folder
                "/render/%2e%2e/outside/secret.png?pixels=20x20",       // encoded ..
                "/render/%2E%2E%2Foutside%2Fsecret.png?pixels=20x20",   // encoded .. and slashes
                "/render/escape.png?pixels=20x20",                      // a symlink out of the root
                "/render/out/secret.png?pixels=20x20",                  // a linked folder out of the root
                "/render/\(world.outside.path)/secret.png?pixels=20x20", // an absolute path (//...)
                "/render/%2F\(world.outside.path.dropFirst())/secret.png?pixels=20x20", // an encoded absolute path
                "/render/missing.png?pixels=20x20",
            ]
            for path in escapes {
                let response = try await get(port, path)
                #expect(response.status == .notFound, "\(path)")
                // Nothing about the file system in the body.
                #expect(response.text == "{\"error\":\"not found\"}\n", "\(path): \(response.text)")
                #expect(!response.text.contains(world.folder.path))
            }
        }
    }

    @Test func answersThePNGThatRenderWrites() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let expected = world.folder.appendingPathComponent("expected.png")
        let cli = try runGlslice(["render", world.root.appendingPathComponent("button@2x.png").path, "--size", "60x22",
                                  "--insets", "14,12,14,12", "--backend", "cpu", "-o", expected.path])
        #expect(cli.status == 0, "\(cli.stderr)")
        try await withServer(world) { port, _ in
            let response = try await get(port, Self.button)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "image/png")
            #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
            #expect(response.bytes == Array(try Data(contentsOf: expected)))
            // HEAD: the same status and headers, no body.
            let head = try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: clientConfiguration) { client in
                try await client.head(Self.button)
            }
            #expect(head.status == .ok)
            #expect(head.headers[.eTag] == response.headers[.eTag])
            #expect(head.headers[.contentLength] == String(response.bytes.count))
            #expect(head.bytes.isEmpty)
        }
    }

    @Test func etagAndIfNoneMatch() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let first = try await get(port, Self.button)
            let etag = try #require(first.headers[.eTag])
            // A strong tag: quoted, 32 hex digits, no W/.
            #expect(etag.wholeMatch(of: /"[0-9a-f]{32}"/) != nil, "\(etag)")
            for header in [etag, "\"0000\", \(etag)", "W/\(etag)", "*"] {
                let again = try await get(port, Self.button, headers: [.ifNoneMatch: header])
                #expect(again.status == .notModified, "\(header)")
                #expect(again.bytes.isEmpty)
                #expect(again.headers[.eTag] == etag)
            }
            let other = try await get(port, Self.button, headers: [.ifNoneMatch: "\"00000000000000000000000000000000\""])
            #expect(other.status == .ok)
            #expect(other.bytes == first.bytes)
            // Another size is another job: another tag.
            let wider = try await get(port, "/render/button@2x.png?size=80x22&insets=14,12,14,12", headers: [.ifNoneMatch: etag])
            #expect(wider.status == .ok)
            #expect(wider.headers[.eTag] != etag)
            // An edited source is a new job under the same URL: its old tag no longer matches.
            try FileManager.default.removeItem(at: world.root.appendingPathComponent("button@2x.png"))
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent("button@3x.png"),
                                             to: world.root.appendingPathComponent("button@2x.png"))
            let edited = try await get(port, "/render/button@2x.png?pixels=120x66&insets=14,12,14,12&source-scale=2",
                                       headers: [.ifNoneMatch: etag])
            #expect(edited.status == .ok)
            #expect(edited.headers[.eTag] != etag)
        }
    }

    @Test func badRequestsGet400WithTheCLIMessage() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world, limits: Limits(maxSourcePixels: 1000, maxOutputPixels: 10_000)) { port, _ in
            let cases: [(String, String)] = [
                ("/render/panel.png?pixels=101x100", "above the limit of 10000 pixels (--max-output-pixels)"),
                ("/render/panel.png?pixels=100x100", ""),  // exactly the limit: fine
                ("/render/button@2x.png?pixels=40x40", "image is 50x58 = 2900 pixels, above the limit of 1000"),
                ("/render/panel.png?pixels=20x20&insets=100", "exceed"),
                ("/render/panel.png?pixels=0x20", "must be positive"),
                ("/render/panel.png?pixels=20.5x20", "pixels must be whole numbers, got '20.5x20'"),
                ("/render/panel.png?pixels=20x20&mode=wobble", "mode must be one of: stretch, tile, auto, repeat, round, space, got 'wobble'"),
                // Options are named as query parameters, never as flags.
                ("/render/panel.png?pixels=20x20&source-scale=0", "source-scale must be a positive number, got '0'"),
                ("/render/panel.png?pixels=20x20&size=10x10", "size and pixels are alternatives"),
                ("/render/panel.png", "give the output size"),
                ("/render/panel.png?pixels=20x20&colour=red", "unknown parameter 'colour'"),
                ("/render/panel.png?pixels=20x20&mode=tiel", "got 'tiel'; did you mean 'tile'?"),
                ("/render/panel.png?pixels=20x20&pixels=30x30", "parameter 'pixels' is given twice"),
                ("/render/bubble.9.png?pixels=40x40&insets=2", "insets cannot be given for a .9.png: its markers give its lattice; drop insets, or give lattice"),
                ("/render/corrupt.png?pixels=20x20", "corrupt.png"),
            ]
            for (path, message) in cases {
                let response = try await get(port, path)
                if message.isEmpty {
                    #expect(response.status == .ok, "\(path): \(response.text)")
                    continue
                }
                #expect(response.status == .badRequest, "\(path): \(response.status)")
                #expect(response.headers[.contentType] == "application/json")
                // One line of JSON, naming the source by its path under the root only.
                #expect(response.text.filter { $0 == "\n" }.count == 1 && response.text.hasSuffix("}\n"), "\(response.text)")
                let error = try #require(response.errorMessage, "\(path): \(response.text)")
                #expect(error.contains(message), "\(path): \(error)")
                #expect(RequestOption.allCases.allSatisfy { !error.contains("--" + $0.rawValue) },
                        "an HTTP message names request options as query parameters: \(error)")
                #expect(!error.contains(world.folder.path), "\(error)")
            }
            // A failed render does not take the server down.
            #expect(try await get(port, "/render/panel.png?pixels=30x30").status == .ok)
            #expect(try await get(port, "/healthz").status == .ok)
        }
    }

    @Test func theSameMessagesAsRender() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let cli = try runGlslice(["render", world.root.appendingPathComponent("panel.png").path, "--pixels", "20x20",
                                  "--insets", "100", "-o", world.folder.appendingPathComponent("x.png").path])
        #expect(cli.status == 65)
        try await withServer(world) { port, _ in
            let error = try #require(try await get(port, "/render/panel.png?pixels=20x20&insets=100").errorMessage)
            // The CLI names the file by the path it was given; the server by the path under the root.
            let cliMessage = cli.stderr.replacingOccurrences(of: "glslice: \(world.root.path)/", with: "")
                .trimmingCharacters(in: .newlines)
            #expect(error == cliMessage)
        }
    }

    @Test func healthMetricsAndOneLogLinePerRequest() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let log = CapturedLog()
        try await withServer(world, log: log) { port, _ in
            let health = try await get(port, "/healthz")
            #expect(health.status == .ok)
            #expect(health.text.contains("\"status\":\"ok\"") && health.text.contains("\"backend\":\"cpu\""))
            _ = try await get(port, Self.button)
            _ = try await get(port, Self.button)
            _ = try await get(port, "/render/nothing.png?pixels=2x2")
            let metrics = try await get(port, "/metrics").text
            #expect(metrics.contains("glslice_http_requests_total{status=\"200\"} 3"), "\(metrics)")
            #expect(metrics.contains("glslice_http_requests_total{status=\"404\"} 1"))
            #expect(metrics.contains("glslice_renders_total 1\n"))
            #expect(metrics.contains("glslice_cache_hits_total 1\n"))
            #expect(metrics.contains("glslice_render_seconds_count 1\n"))
            #expect(metrics.contains("glslice_queue_depth 0"))
        }
        // healthz, 2 renders, 404, metrics: five requests, five lines, each with its status.
        let lines = log.requests
        #expect(lines.count == 5)
        #expect(lines.map { $0["status"]?.description } == ["200", "200", "200", "404", "200"])
        #expect(lines[1]["path"]?.description == "/render/button@2x.png?size=60x22&insets=14,12,14,12")
    }

    /// A path no route takes gets the documented body too, not an empty 404; a
    /// known path asked with another method gets 405, what it answers in `Allow`
    /// (RFC 9110 §15.5.6) and the same one line of JSON.
    @Test func noRouteAnswersTheDocumentedJSON() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let cases: [(HTTPRequest.Method, String, HTTPResponse.Status, String?)] = [
                (.get, "/nope", .notFound, nil),
                (.get, "/render", .notFound, nil),
                (.delete, "/render/panel.png", .methodNotAllowed, "GET, HEAD"),
                // HEAD is served wherever GET is (RFC 9110 §9.1), so both are allowed.
                (.post, "/healthz", .methodNotAllowed, "GET, HEAD"),
                (.put, "/metrics", .methodNotAllowed, "GET, HEAD"),
                (.get, "/preview/save-nine-patch", .methodNotAllowed, "POST"),
            ]
            for (method, path, status, allow) in cases {
                let response = try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: clientConfiguration) { client in
                    try await client.execute(TestClient.Request(path, method: method, headers: [:]))
                }
                #expect(response.status == status, "\(method) \(path)")
                #expect(response.headers[.allow] == allow, "\(method) \(path)")
                #expect(response.headers[.contentType] == "application/json", "\(method) \(path)")
                let expected = allow.map { "\(method.rawValue) not allowed here; this path answers \($0)" } ?? "not found"
                // HEAD's answer has headers only.
                if method != .head { #expect(response.errorMessage == expected, "\(method) \(path): \(response.text)") }
            }
        }
    }
}
