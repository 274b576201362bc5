import Foundation
import Testing

/// Every input `make fuzz` kept (Fuzz/corpus/TARGET) replayed through its target
/// in a plain build: what once crashed a fuzzer stays fixed.
@Suite struct FuzzCorpusTests {
    static let targets = ["png", "ninepatch", "nptc", "contents", "manifest", "options"]

    @Test(arguments: FuzzCorpusTests.targets)
    func corpusReplaysWithoutACrash(_ target: String) throws {
        let process = Process()
        process.executableURL = glsliceBinary.deletingLastPathComponent().appendingPathComponent("glslice-fuzz")
        process.arguments = [target, packageRoot.appendingPathComponent("Fuzz/corpus/\(target)").path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        let count = text.split(separator: " ").dropLast().last.flatMap { Int($0) } ?? 0
        #expect(count > 0, "\(text)")
    }
}
