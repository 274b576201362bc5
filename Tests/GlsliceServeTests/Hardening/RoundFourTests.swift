import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import NIOCore
import Testing

/// docs/HARDENING.md, round four: the server's findings (HEAD, the request
/// memo, hybrid and `gpu` on a source past the GPU's limit, GPU bytes in
/// `/metrics`). The GPU's own memory is `GPUMemoryTests`.
@Suite struct RoundFourTests {
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

    // 6. The memo was bounded at 100,000 keys: long URLs (the longest allowed
    // lattice) held 320 MiB. Now it is bounded in bytes, and a reset gives its storage back.
    @Test func theRequestMemoIsBoundedInBytes() throws {
        let scope = try FileScope.beneath(FileManager.default.temporaryDirectory.path)
        let memo = RequestMemo(scope: scope)
        let entry = RequestMemo.Entry(digest: String(repeating: "d", count: 64), format: .png,
                                      stamps: [FileStamp(path: "panel.png", in: scope)])
        let long = String(repeating: "x=1-2,", count: 550) // about 3.3 KB, as the longest lattice URL
        var largest = 0
        for index in 0..<20_000 {
            memo.remember("/render/panel.png?lattice=\(long)&n=\(index)", entry)
            largest = max(largest, memo.size.bytes)
        }
        #expect(largest <= RequestMemo.capacityBytes)
        #expect(memo.size.keys < 20_000 && memo.size.keys > 1000, "\(memo.size.keys) keys")
        // What it counts is near what it holds: each key's bytes at least.
        #expect(memo.size.bytes >= memo.size.keys * long.utf8.count)
    }
}

/// Finding 3 in serve: hybrid drew a source past the GPU's texture limit on
/// whichever side took it, so 12 concurrent requests answered a mix of 200 and
/// 400. Now hybrid draws it on the CPU, every time; `gpu` refuses it with 400
/// naming the limit. And `/metrics` says how many GPU bytes are held.
@Suite(.enabled(if: (try? GPUContext.make()) != nil || ProcessInfo.processInfo.environment["GLSLICE_REQUIRE_GPU"] == "1",
                "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct RoundFourGPUTests {
    @Test func hybridAnswersEveryRequestOnASourcePastTheGPUsLimit() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let limit = try GPUContext.make().limits.maxTextureSize
        let wide = Parity.noise(width: limit + 3616, height: 2)
        try PNGEncoder.write(wide, to: .file(world.root.appendingPathComponent("wide.png").path))
        let reference = world.folder.appendingPathComponent("wide-cpu.png")
        let cli = try runGlslice(["render", world.root.appendingPathComponent("wide.png").path, "--pixels", "300x4", "--insets", "0,8,0,8",
                                  "--max-source-pixels", "100000", "--backend", "cpu", "-o", reference.path])
        #expect(cli.status == 0, "\(cli.stderr)")
        let expected = Array(try Data(contentsOf: reference))
        let limits = Limits(maxSourcePixels: 100_000, maxOutputPixels: ServeOptions.defaultMaxOutputPixels)
        try await withServer(world, backend: .hybrid, workers: 2, limits: limits) { port, _ in
            let answers = try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
                for index in 0..<12 {
                    group.addTask {
                        // Distinct sizes, so nothing is coalesced; the first is the reference's.
                        let response = try await get(port, "/render/wide.png?pixels=\(300 + index)x4&insets=0,8,0,8&format=png")
                        return (Int(response.status.code), response.bytes)
                    }
                }
                var all: [(Int, [UInt8])] = []
                for try await answer in group { all.append(answer) }
                return all
            }
            #expect(answers.map(\.0) == [Int](repeating: 200, count: 12), "\(answers.map(\.0)) \(String(decoding: answers[0].1, as: UTF8.self))")
            let first = try await get(port, "/render/wide.png?pixels=300x4&insets=0,8,0,8&format=png")
            #expect(first.bytes == expected)
            #expect(try await metric(port, "glslice_gpu_bytes") != nil)
        }
        try await withServer(world, backend: .gpu, workers: 2, limits: limits) { port, _ in
            let refused = try await get(port, "/render/wide.png?pixels=300x4&insets=0,8,0,8")
            #expect(refused.status == .badRequest)
            #expect(refused.errorMessage?.contains("above this GPU's texture limit of \(limit)") == true, "\(refused.text)")
        }
    }
}
