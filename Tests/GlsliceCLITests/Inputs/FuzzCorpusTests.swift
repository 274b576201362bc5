import Foundation
import Testing

/// Every input `make fuzz` kept (Fuzz/corpus/TARGET) replayed through its target
/// in a plain build: what once crashed a fuzzer stays fixed.
@Suite struct FuzzCorpusTests {
    static let targets = ["png", "ninepatch", "nptc", "contents", "manifest", "options", "contentsdisk", "query"]

    @Test(arguments: FuzzCorpusTests.targets)
    func corpusReplaysWithoutACrash(_ target: String) throws {
        let result = try run(glsliceBinary.deletingLastPathComponent().appendingPathComponent("glslice-fuzz"),
                             [target, packageRoot.appendingPathComponent("Fuzz/corpus/\(target)").path])
        let text = String(decoding: result.stdout, as: UTF8.self)
        #expect(result.status == 0, "\(text)")
        let count = text.split(separator: " ").dropLast().last.flatMap { Int($0) } ?? 0
        #expect(count > 0, "\(text)")
    }
}
