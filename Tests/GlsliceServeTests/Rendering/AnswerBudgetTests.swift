import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import NIOCore
import Testing

/// What one answer may cost (docs/HARDENING.md, round three): lattices past the region limit, WebP
/// encodes within `--answer-mb`, PNG where WebP cannot hold the output, and HEAD leaving the budget as it found it.
@Suite struct AnswerBudgetTests {
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
}
