import Foundation
import Testing

/// GlsliceKit's public surface is the list in docs/API.md, and small.
@Suite struct PublicAPITests {
    @Test func docsAPIListsEveryPublicDeclaration() throws {
        let (status, text) = try runScript(packageRoot.appendingPathComponent("Scripts/public-api.py"),
                                           ["--check", packageRoot.appendingPathComponent("docs/API.md").path])
        #expect(status == 0, "\(text)")
        let count = text.split(separator: " ").compactMap { Int($0) }.first ?? .max
        #expect(count < 150, "\(text)")
    }
}
