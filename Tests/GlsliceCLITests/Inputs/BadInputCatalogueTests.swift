import Foundation
import Testing

/// One test walks `Fixtures/bad/catalogue.tsv`: every hostile input found so far,
/// with the exit code and message it must get (issue 10). A case that crashed
/// exits 132/134/139 and fails here; a case that left a temporary file fails too.
/// Each case runs on a fresh copy of the folder, so a regression that
/// overwrites an input (as `--results` once did) cannot damage the fixtures.
@Suite struct BadInputCatalogueTests {
    struct Case: CustomStringConvertible {
        var line: Int
        var arguments: [String]
        var stdin: String?
        var exitCode: Int32
        var message: String
        var description: String { "catalogue.tsv:\(line): glslice \(arguments.joined(separator: " "))" }
    }

    static let folder = fixtures.appendingPathComponent("bad")

    static func cases() throws -> [Case] {
        let text = try String(contentsOf: folder.appendingPathComponent("catalogue.tsv"), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            guard !line.hasPrefix("#"), !line.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count == 4, let code = Int32(columns[2]) else { return nil }
            return Case(line: index + 1, arguments: columns[0].split(separator: " ").map(String.init),
                        stdin: columns[1] == "-" ? nil : columns[1],
                        exitCode: code, message: columns[3])
        }
    }

    @Test func everyLineIsACase() throws {
        let text = try String(contentsOf: Self.folder.appendingPathComponent("catalogue.tsv"), encoding: .utf8)
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(try Self.cases().count == lines.count, "a catalogue line is malformed")
        #expect(lines.count >= 9)
    }

    @Test(arguments: try BadInputCatalogueTests.cases())
    func refusedCleanly(_ entry: Case) throws {
        let work = try temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let bad = work.appendingPathComponent("bad")
        try FileManager.default.copyItem(at: Self.folder, to: bad)
        let arguments = entry.arguments.map {
            $0.replacingOccurrences(of: "{bad}", with: bad.path).replacingOccurrences(of: "{fixtures}", with: fixtures.path)
        }
        let stdin = entry.stdin.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : bad.appendingPathComponent($0) }
        let result = try glslice(arguments, in: work, stdin: stdin)
        #expect(result.status == entry.exitCode, "\(entry): \(result.stderr)")
        #expect(result.stderr.contains(entry.message), "\(entry): \(result.stderr)")
        #expect(!result.stderr.contains("Fatal error") && !result.stderr.contains("Backtrace"), "\(entry)")
        // No hidden temporary left; the resume index of a batch's good lines stays (issue 71).
        let left = try FileManager.default.subpathsOfDirectory(atPath: work.path).filter { !$0.contains(".glslice-resume") }
        #expect(!left.contains { ($0 as NSString).lastPathComponent.hasPrefix(".") }, "\(entry) left \(left)")
        // Nothing escaped the work folder.
        #expect(!FileManager.default.fileExists(atPath: work.deletingLastPathComponent().appendingPathComponent("escaped.png").path))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/glslice-escaped.png"))
    }
}
