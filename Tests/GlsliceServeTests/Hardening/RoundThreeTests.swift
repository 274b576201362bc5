import Foundation
import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import NIOCore
import Testing

/// docs/HARDENING.md, round three: one test per finding (the GPU's float
/// limits, finding 11, are `GPUFloatLimitTests`).
@Suite struct RoundThreeTests {
    static let save = "/preview/save-nine-patch"
    static let saveBody = #"{"source": "panel.png", "output": "bubble.9.png", "x": [[6, 11]], "y": [[7, 9]]}"#

    // 1. A page elsewhere cannot write: a no-cors POST is text/plain with its own Origin.
    @Test func aCrossSitePostWritesNothing() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let target = world.root.appendingPathComponent("bubble.9.png")
        let contents = world.root.appendingPathComponent("ui/button.imageset/Contents.json")
        let (bubble, set) = (try Data(contentsOf: target), try Data(contentsOf: contents))
        try await withServer(world) { port, _ in
            // What fetch(url, {method: "POST", mode: "no-cors", body}) sends from https://evil.example.
            let simple = try await postJSON(port, Self.save, Self.saveBody, origin: "https://evil.example", contentType: "text/plain;charset=UTF-8")
            #expect(simple.status.code == 415, "\(simple.text)")
            let imageSet = try await postJSON(port, "/preview/write-image-set", #"{"source": "ui/button.imageset", "insets": "1,1,1,1"}"#,
                                              origin: "https://evil.example", contentType: "text/plain")
            #expect(imageSet.status.code == 415, "\(imageSet.text)")
            // JSON (which a foreign page could only send after a preflight) with a foreign Origin, or none.
            let foreign = try await postJSON(port, Self.save, Self.saveBody, origin: "https://evil.example")
            #expect(foreign.status.code == 403, "\(foreign.text)")
            let nullOrigin = try await postJSON(port, Self.save, Self.saveBody, origin: "null")
            #expect(nullOrigin.status.code == 403)
            let noOrigin = try await postJSON(port, Self.save, Self.saveBody, origin: nil)
            #expect(noOrigin.status.code == 403)
            #expect(noOrigin.errorMessage?.contains("Origin") == true, "\(noOrigin.text)")
        }
        #expect(try Data(contentsOf: target) == bubble)
        #expect(try Data(contentsOf: contents) == set)
    }

    // 2. DNS rebinding: a page whose name points at 127.0.0.1 sends its own name as Host.
    @Test func aForeignHostIsRefusedEverywhere() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let target = world.root.appendingPathComponent("bubble.9.png")
        let bubble = try Data(contentsOf: target)
        try await withServer(world) { port, _ in
            for path in ["/preview/sources", "/", "/render/panel.png?pixels=40x40&insets=8", "/healthz"] {
                let rebound = try await get(port, path, host: "rebind.evil.example:\(port)")
                #expect(rebound.status.code == 421, "\(path): \(rebound.text)")
            }
            // Same-origin for that page: Origin equals Host, and still refused.
            let write = try await postJSON(port, Self.save, Self.saveBody, host: "rebind.evil.example:\(port)",
                                           origin: "http://rebind.evil.example:\(port)")
            #expect(write.status.code == 421, "\(write.text)")
            for name in ["127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST", "[::1]:\(port)", "app.localhost:\(port)"] {
                let ok = try await get(port, "/preview/sources", host: name)
                #expect(ok.status == .ok, "\(name): \(ok.text)")
            }
        }
        #expect(try Data(contentsOf: target) == bubble)
    }

    @Test func hostNamesAddNamesAndRestrictAPublicServer() throws {
        let local = KnownHosts(names: ["Design.Lan"], loopbackServer: true)
        #expect(local.allows("design.lan:8080") && local.allows("127.0.0.1") && !local.allows("evil.example"))
        // A public server (a key) answers any name, unless names are given.
        #expect(KnownHosts(names: [], loopbackServer: false).allows("cdn.example"))
        let named = KnownHosts(names: ["img.example"], loopbackServer: false)
        #expect(named.allows("img.example:443") && !named.allows("other.example"))
        // An empty or malformed Host is not a known name.
        #expect(!local.allows(":8080") && !local.allows("[::1"))
    }

    // 3. Loopback is decided from the address bound, not from the text of --bind.
    @Test func aNameThatLooksLoopbackButIsNotIsRefusedWithoutAKey() throws {
        let root = try SourceRoot(fixtures.path)
        // 127.lan resolving to 0.0.0.0 (an /etc/hosts line): every interface.
        #expect(throws: GlsliceError.self) {
            _ = try ServeOptions(root: root, host: "127.lan", port: 0, resolve: { _ in ["0.0.0.0"] })
        }
        let keyed = try ServeOptions(root: root, host: "127.lan", port: 0,
                                     signer: try URLSigner(key: Data("0123456789abcdef0123456789abcdef".utf8)),
                                     resolve: { _ in ["0.0.0.0"] })
        #expect(!keyed.bindAddress.isLoopback && keyed.bindAddress.address == "0.0.0.0" && !keyed.preview)
        // A name that does resolve to loopback only is loopback, and what is bound is the address.
        let named = try ServeOptions(root: root, host: "design.lan", port: 0, resolve: { _ in ["127.0.0.1", "::1"] })
        #expect(named.bindAddress.address == "127.0.0.1" && named.bindAddress.isLoopback && named.preview)
        // One address elsewhere among loopback ones is not loopback.
        #expect(throws: GlsliceError.self) {
            _ = try ServeOptions(root: root, host: "mixed.lan", port: 0, resolve: { _ in ["127.0.0.1", "192.168.1.5"] })
        }
        // The system's resolver: localhost is loopback; the numeric forms, by address.
        #expect(try BindResolution(host: "localhost").isLoopback)
        #expect(try !BindResolution(host: "0.0.0.0").isLoopback)
        #expect(try BindResolution(host: "[::1]").isLoopback)
        for (text, loopback) in [("127.0.0.1", true), ("127.255.0.9", true), ("::1", true), ("::ffff:127.0.0.1", true),
                                 ("0.0.0.0", false), ("::", false), ("128.0.0.1", false), ("127.lan", false), ("::2", false)] {
            #expect(BindResolution.isLoopbackAddress(text) == loopback, "\(text)")
        }
    }

    // 4. A lattice is held to a nine-patch's 127 regions; at the limit it renders.
    @Test func aLatticePastTheRegionLimitIsRefused() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        // panel.png is 17x17: runs at 1-2, 3-4, ... make 2n+1 columns.
        @Sendable func runs(_ n: Int) -> String { (0..<n).map { "\(2 * $0 + 1)-\(2 * $0 + 2)" }.joined(separator: ",") }
        try await withServer(world) { port, _ in
            // 8 runs a side: 17 x 17 = 289 regions.
            let over = try await get(port, "/render/panel.png?pixels=90x90&lattice=x=\(runs(8));y=\(runs(8))&format=png")
            #expect(over.status == .badRequest, "\(over.text)")
            #expect(over.errorMessage?.contains("289 regions") == true, "\(over.text)")
            // 1,000 runs along one axis are refused before they are read as pixels.
            let thousand = (0..<1000).map { "\(2 * $0)-\(2 * $0 + 1)" }.joined(separator: ",")
            let long = try await get(port, "/render/panel.png?pixels=90x90&lattice=x=\(thousand)&format=png")
            #expect(long.status == .badRequest && long.errorMessage?.contains("more than 64 runs") == true, "\(long.text)")
            // 8 runs across (17 columns) and 1 down (3 rows): 51 regions, under the limit.
            let fine = try await get(port, "/render/panel.png?pixels=90x90&lattice=x=\(runs(8));y=6-7&format=png")
            #expect(fine.status == .ok, "\(fine.text)")
        }
        // The plan holds no more cells than regions.
        let source = try ResolvedSource.load(input: fixtures.appendingPathComponent("panel.png").path, outputScale: nil,
                                             maxPixels: 1 << 20)
        var request = RenderRequest(size: .pixels(PixelSize(width: 9000, height: 9000)))
        request.lattice = try LatticeRuns(parsing: "x=\(runs(8));y=2-3,5-6")
        let plan = try PlanBuilder.plan(request, source: source.source, limits: Limits(maxOutputPixels: 1 << 27))
        #expect(plan.cells.count <= Lattice.maxRegions && plan.cells.count == 17 * 5)
    }

    // 5. A WebP's encoding memory is counted in --answer-mb.
    @Test func aWebPTooLargeForTheBudgetIsRefusedOrFallsBack() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        // 1024x1024 px x 36 B = 36 MiB to encode, over an 8 MiB budget.
        try await withServer(world, answerBytes: 8 << 20) { port, _ in
            let asked = try await get(port, "/render/panel.png?pixels=1024x1024&insets=8&format=webp")
            #expect(asked.status == .badRequest, "\(asked.text)")
            #expect(asked.errorMessage?.contains("--answer-mb") == true && asked.errorMessage?.contains("<memory>") == false, "\(asked.text)")
            let browser = try await get(port, "/render/panel.png?pixels=1024x1024&insets=8", headers: [.accept: "image/webp,*/*"])
            #expect(browser.status == .ok && browser.headers[.contentType] == "image/png", "\(browser.text)")
            #expect(browser.bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]))
        }
    }

    @Test func twoWebPEncodesThatDoNotFitTogetherGetA503() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let gate = Gate()
        // Each 1024x1024 WebP holds 36 MiB while it renders; 48 MiB holds one.
        try await withServer(world, workers: 2, gate: gate, answerBytes: 48 << 20) { port, server in
            async let first = get(port, "/render/panel.png?pixels=1024x1024&insets=8&format=webp")
            try await eventually("the first WebP holds its encoding memory") { server.answers.inFlight.bytes > 0 }
            let second = try await get(port, "/render/panel.png?pixels=1024x1000&insets=8&format=webp")
            #expect(second.status == .serviceUnavailable && second.headers[.retryAfter] == "1", "\(second.text)")
            gate.open()
            let answered = try await first
            #expect(answered.status == .ok && answered.headers[.contentType] == "image/webp")
            try await eventually("the encoding memory is let go") { server.answers.inFlight.bytes == 0 }
            let again = try await get(port, "/render/panel.png?pixels=1024x1000&insets=8&format=webp")
            #expect(again.status == .ok)
        }
    }

    // 6. A browser (Accept: image/webp) gets PNG where WebP cannot hold the output.
    @Test(arguments: ["20000x2", "2x16384"])
    func aWideOutputFallsBackToPNG(pixels: String) async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let chromium = "image/avif,image/webp,image/apng,image/svg+xml,image/*,*/*;q=0.8"
            let browser = try await get(port, "/render/panel.png?pixels=\(pixels)&insets=0", headers: [.accept: chromium])
            #expect(browser.status == .ok && browser.headers[.contentType] == "image/png", "\(browser.text)")
            let curl = try await get(port, "/render/panel.png?pixels=\(pixels)&insets=0")
            #expect(curl.bytes == browser.bytes && curl.headers[.eTag] == browser.headers[.eTag])
            // Asked for by name: refused, naming the request's key, not `<memory>`.
            let asked = try await get(port, "/render/panel.png?pixels=\(pixels)&insets=0&format=webp")
            #expect(asked.status == .badRequest, "\(asked.text)")
            let message = asked.errorMessage ?? ""
            #expect(message.contains("format") && message.contains("16383") && !message.contains("<memory>"), "\(message)")
        }
    }

    // 7. A HEAD holds nothing of --answer-mb.
    @Test func headLeavesTheAnswerBudgetAsItFoundIt() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        // A budget smaller than one answer: only one answer at a time is let through.
        try await withServer(world, answerBytes: 64) { port, server in
            let path = "/render/button@2x.png?size=90x40&insets=14,12,14,12&format=png"
            let head = try await TestClient.withClient(host: "127.0.0.1", port: port, configuration: clientConfiguration) { client in
                try await client.head(path)
            }
            #expect(head.status == .ok && Int(head.headers[.contentLength] ?? "") ?? 0 > 64, "\(head.headers)")
            #expect(server.answers.inFlight == (0, 0))
            for _ in 0..<3 {
                let got = try await get(port, path)
                #expect(got.status == .ok, "\(got.text)")
                #expect(String(got.bytes.count) == head.headers[.contentLength])
            }
            try await eventually("every answer let go") { server.answers.inFlight == (0, 0) }
        }
    }

    // 8. A write the request cannot have is a 4xx, not "a bug".
    @Test(arguments: ["nope/x.9.png", "panel.png/x.9.png", "out/x.9.png"])
    func aWriteToNowhereIsTheRequestsFault(output: String) async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let body = #"{"source": "panel.png", "output": "\#(output)", "x": [], "y": []}"#
            let response = try await postJSON(port, Self.save, body)
            #expect((400..<500).contains(Int(response.status.code)), "\(output): \(response.text)")
            #expect(try await metric(port, "glslice_http_requests_total{status=\"500\"}") ?? 0 == 0)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: world.outside.path) == ["secret.png"])
    }

    @Test func aNinePatchNamedLikeAFolderIsTheRequestsFault() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try FileManager.default.createDirectory(at: world.root.appendingPathComponent("dir.9.png"), withIntermediateDirectories: true)
        try await withServer(world) { port, _ in
            let response = try await postJSON(port, Self.save, #"{"source": "panel.png", "output": "dir.9.png", "x": [], "y": []}"#)
            #expect(response.status.code == 409, "\(response.text)")
        }
    }

    // 9. The answer names the file written.
    @Test func writingThroughContentsJsonAnswersItsPath() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        try await withServer(world) { port, _ in
            let response = try await postJSON(port, "/preview/write-image-set",
                                              #"{"source": "ui/button.imageset/Contents.json", "insets": "10,8,10,8"}"#)
            #expect(response.status == .ok, "\(response.text)")
            #expect(response.text.contains(#""saved":"ui/button.imageset/Contents.json""#), "\(response.text)")
        }
    }
}
