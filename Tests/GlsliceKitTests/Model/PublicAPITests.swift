import Foundation
import Testing

/// GlsliceKit's public surface is the list in docs/API.md, and small.
@Suite struct PublicAPITests {
    @Test func docsAPIListsEveryPublicDeclaration() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("Scripts/public-api.py").path, "--check",
                             root.appendingPathComponent("docs/API.md").path]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let count = text.split(separator: " ").compactMap { Int($0) }.first ?? .max
        #expect(count < 150, "\(text)")
    }
}
