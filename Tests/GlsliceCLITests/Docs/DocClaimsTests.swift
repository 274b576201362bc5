import Foundation
import Testing

/// Issue 70: statements in the docs and `--help` that had drifted from the tool, each checked
/// against what the tool does or prints.
@Suite struct DocClaimsTests {
    func doc(_ name: String) throws -> String { try String(contentsOf: packageRoot.appendingPathComponent(name), encoding: .utf8) }

    /// GUIDE.md's optimize example gives the bytes optimize prints (it said 216; the tool said 250).
    @Test func theGuidesOptimizeFiguresAreTheTools() throws {
        let folder = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let result = try glslice(["optimize", fixtures.appendingPathComponent("bubble.9.png").path, "-o", folder.appendingPathComponent("b.9.png").path])
        #expect(result.status == 0, "\(result.stderr)")
        let said = String(decoding: result.stdout, as: UTF8.self) + result.stderr
        let range = try #require(said.range(of: #"would take \d+ bytes, not fewer than its \d+"#, options: .regularExpression), "\(said)")
        let numbers = said[range].split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .punctuationCharacters)) }
        let guide = try doc("docs/GUIDE.md")
        #expect(guide.contains("would take \(numbers[0]) bytes, not fewer than its \(numbers[1])"), "\(numbers)")
        #expect(guide.contains("would take \(numbers[0]) bytes against its \(numbers[1])"), "\(numbers)")
    }

    /// `batch --help`: `--resume` reads the resume index, and an output's own record (a WebP's in XMP) where it has no line.
    @Test func batchHelpSaysResumeSkipsWebPs() throws {
        let help = try glslice(["batch", "--help"])
        #expect(help.status == 0)
        let text = String(decoding: help.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("goes to the resume index"), "\(text)")
        #expect(text.contains("or WebP of the job's size whose tEXt chunk or XMP packet holds the job's digest"), "\(text)")
    }

    /// `serve --help`: answers are WebP where the URL or the request's Accept asks.
    @Test func serveHelpSaysWhenAnswersAreWebP() throws {
        let help = try glslice(["serve", "--help"])
        #expect(help.status == 0)
        let text = String(decoding: help.stdout, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("Answers are image/png, or image/webp where format=webp or the request's Accept names image/webp (unless --no-auto-webp)"),
                "\(text)")
        #expect(!text.contains("Answers are image/png with"))
        // Render threads share one GPU thread (SERVE.md says so too); none has a backend of its own.
        #expect(text.contains("they share one GPU thread") && !text.contains("its own backend"), "\(text)")
        #expect(try doc("docs/SERVE.md").contains("one shared GL thread") || (try doc("docs/SERVE.md")).contains("one GPU thread"))
    }

    /// SERVE.md and the page agree: the copied command reads its source by its full path under the root.
    @Test func serveDocsSayWhereTheCopiedCommandReads() throws {
        let serve = try doc("docs/SERVE.md"), page = try doc("Sources/GlsliceServe/Preview/preview.html")
        #expect(!serve.contains("paths relative to the root"))
        #expect(serve.contains("reads its source by its full path under the root"))
        #expect(page.contains("Reads the source from the served folder"))
    }

    /// GUIDE's WebP table no longer calls today's `default` zlib 6; the README's speed table names this renderer.
    @Test func tablesSayWhatTheyMeasured() throws {
        let guide = try doc("docs/GUIDE.md"), readme = try doc("README.md")
        #expect(!guide.contains("| `default` (zlib 6, WebP preset 6) |"))
        #expect(guide.contains("| `default` (PNG zlib 6, today's `zlib`; WebP preset 6) |"))
        let digest = try doc("Sources/GlsliceKit/Engine/JobDigest.swift")
        let version = try #require(digest.range(of: #"glslice-render/\d+"#, options: .regularExpression))
        let current = digest[version].split(separator: "/")[1]
        let renderer = try #require(readme.range(of: #"2026-\d\d-\d\d \(renderer \d+\)"#, options: .regularExpression))
        #expect(readme[renderer].hasSuffix("(renderer \(current))"), "the README's speed table is from \(readme[renderer]); the renderer is \(current)")
    }

    /// HARDENING.md opens by topic (limits, inputs, server, files) before the rounds' record.
    @Test func hardeningIsByTopicFirst() throws {
        let text = try doc("docs/HARDENING.md")
        let byTopic = try #require(text.range(of: "## What you can rely on, by topic"))
        let firstRound = try #require(text.range(of: "## Round three"))
        #expect(byTopic.lowerBound < firstRound.lowerBound)
        var at = byTopic.upperBound
        for topic in ["**Limits.**", "**Inputs.**", "**Server.**", "**Files.**"] {
            let found = try #require(text.range(of: topic, range: at..<firstRound.lowerBound), "\(topic)")
            at = found.upperBound
        }
    }
}
