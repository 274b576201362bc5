import Foundation
import Testing
@testable import GlsliceKit

/// The README's examples run as printed, in order, from a copy of the
/// repository's `Fixtures` with `glslice` on the PATH: every `sh` block's
/// command lines, exit status 0 unless the comment above says "(exit N". The
/// install lines (`git clone`, `cd glslice`, `make …`) are left out: they are
/// checked on a fresh Debian system instead (docs/DESIGN.md, "Building and CI").
/// A `glslice serve` line starts the server, the block's later lines run while
/// it listens, and then it gets SIGINT ("use Ctrl-C") and must exit 0.
@Suite struct ReadmeExamplesTests {
    struct Block {
        var commands: [(command: String, status: Int32)] = []
    }

    static let readme = packageRoot.appendingPathComponent("README.md")
    static let setupPrefixes = ["git clone", "cd glslice", "make "]

    /// The `sh` blocks' commands: `#` lines are comments, `\`-continued lines joined.
    static func blocks(_ text: String) -> [Block] {
        var blocks: [Block] = []
        var current: Block?
        var expected: Int32 = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            // A fence may be indented (a block inside a list item): it runs too.
            let fence = raw.trimmingCharacters(in: .whitespaces)
            if fence.hasPrefix("```") {
                if let block = current { blocks.append(block); current = nil } else if fence == "```sh" { current = Block() }
                expected = 0
                continue
            }
            guard current != nil else { continue }
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") {
                if let range = line.range(of: #"\(exit (\d+)"#, options: .regularExpression) {
                    expected = Int32(line[range].dropFirst("(exit ".count)) ?? 0
                }
                continue
            }
            guard !line.isEmpty, !setupPrefixes.contains(where: line.hasPrefix) else { continue }
            // A trailing comment after a command is the shell's to drop.
            current?.commands.append((line, expected))
            expected = 0
        }
        return blocks
    }

    @Test func theREADMEIsShortAndItsExamplesAreFound() throws {
        let text = try String(contentsOf: Self.readme, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).count
        #expect(lines <= 250, "README.md has \(lines) lines; the issue's budget is 250")
        let commands = Self.blocks(text).flatMap(\.commands)
        #expect(commands.count >= 15, "\(commands.map(\.command))")
        for name in ["render", "batch", "serve", "inspect", "optimize", "compare", "preview"] {
            #expect(commands.contains { $0.command.hasPrefix("glslice \(name) ") }, "no `glslice \(name)` example")
        }
    }

    @Test func examplesRunAsPrinted() throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: fixtures, to: root.appendingPathComponent("Fixtures"))
        try runBlocks(Self.blocks(try String(contentsOf: Self.readme, encoding: .utf8)), in: root)
        // What the examples promised: the served PNG is the rendered one, and --resume skipped.
        let served = try Data(contentsOf: root.appendingPathComponent("out/served.png"))
        let rendered = try glslice(["render", "Fixtures/button@2x.png", "--insets", "14,12,14,12", "--size", "120x44", "-o", "-"], in: root)
        #expect(served == rendered.stdout)
        let results = try String(contentsOf: root.appendingPathComponent("out/farm/results.jsonl"), encoding: .utf8)
        #expect(!results.isEmpty && !results.contains("\"status\":\"ok\""), "\(results)")
        // Nothing is left in the clone's root but what was there and out/ (git ignores it).
        let litter = try Self.litter(in: root)
        #expect(litter.isEmpty, "\(litter)")
    }

    /// What the examples wrote outside `out/`: into the root, or new files under `Fixtures/`.
    static func litter(in root: URL) throws -> [String] {
        let rootLitter = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !["Fixtures", "out"].contains($0) }
        let copied = Set(try fixtureFiles(under: fixtures))
        let fixtureLitter = try fixtureFiles(under: root.appendingPathComponent("Fixtures")).filter { !copied.contains($0) }
        return (rootLitter + fixtureLitter.map { "Fixtures/\($0)" }).sorted()
    }

    /// Every file under `folder`, as a path relative to it.
    static func fixtureFiles(under folder: URL) throws -> [String] {
        (FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String]) ?? []
    }

    /// The `sh` blocks of the docs run as the README's do, from a copy of the
    /// repository root; `text` blocks are illustrations (hosts, shared folders,
    /// a cluster) and are not run.
    @Test(arguments: ["docs/DESIGN.md", "docs/GUIDE.md", "docs/SERVE.md", "docs/RENDERING.md", "docs/BENCHMARKS.md", "docs/BENCHMARKS-LOG.md", "docs/HARDENING.md",
                      "docs/API.md", "deploy/README.md"])
    func docsExamplesRunAsPrinted(file: String) throws {
        let root = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: fixtures, to: root.appendingPathComponent("Fixtures"))
        try FileManager.default.createDirectory(at: root.appendingPathComponent("out"), withIntermediateDirectories: true)
        let blocks = Self.blocks(try String(contentsOf: packageRoot.appendingPathComponent(file), encoding: .utf8))
        try runBlocks(blocks, in: root)
        let litter = try Self.litter(in: root)
        #expect(litter.isEmpty, "\(file): \(litter)")
    }

    /// Runs each block's commands in order in `root`; a `glslice serve` line serves while the block's later lines run.
    func runBlocks(_ blocks: [Block], in root: URL) throws {
        let path = glsliceBinary.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let environment = ["PATH": path]
        for block in blocks {
            var server: Process?
            for (command, status) in block.commands {
                if command.hasPrefix("glslice serve") {
                    documentedPortLock.lock()
                    do {
                        server = try startServer(command, in: root, environment: environment)
                    } catch {
                        documentedPortLock.unlock()
                        throw error
                    }
                    continue
                }
                let result = try run(URL(fileURLWithPath: "/usr/bin/timeout"), ["600", "bash", "-c", command], in: root, environment: environment)
                #expect(result.status == status, "`\(command)` exited \(result.status): \(result.stderr.prefix(400))")
            }
            if let server {
                kill(server.processIdentifier, SIGINT)
                server.waitUntilExit()
                documentedPortLock.unlock()
                #expect(server.terminationStatus == 0, "glslice serve exited \(server.terminationStatus) on SIGINT")
            }
        }
    }

    /// `glslice serve …` in the background, returned once it says it is serving.
    func startServer(_ command: String, in folder: URL, environment: [String: String]) throws -> Process {
        let process = Process()
        process.executableURL = glsliceBinary
        process.arguments = Array(command.split(separator: " ").dropFirst().map(String.init))
        process.currentDirectoryURL = folder
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var seen = Data()
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, !String(decoding: seen, as: UTF8.self).contains("glslice: serving ") {
            let chunk = errors.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            seen += chunk
        }
        #expect(String(decoding: seen, as: UTF8.self).contains("glslice: serving "), "glslice serve did not start: \(String(decoding: seen, as: UTF8.self))")
        // Keep draining its log so a full pipe never stalls it.
        errors.fileHandleForReading.readabilityHandler = { _ = $0.availableData }
        return process
    }
}
