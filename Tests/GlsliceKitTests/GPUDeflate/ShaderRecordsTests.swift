import Foundation
import Shaders
import Testing
@testable import GlsliceKit

/// The Swift encoder and its GLSL twins agree on constants and record layouts because the shaders
/// spell none of them (issue 53): each comes from `ShaderRecords` as a `#define`. These checks read
/// the shaders' text, so they run without a GPU; the GPU suites compile and run the same text.
struct ShaderRecordsTests {
    static let computeShaders = [("deflate_tokens.comp", ShaderSource.deflateTokens), ("deflate_pack.comp", ShaderSource.deflatePack),
                                 ("deflate_code.comp", ShaderSource.deflateCode),
                                 ("scanlines.comp", ShaderSource.scanlines)]

    /// The shader's code, its comments taken out.
    static func code(_ source: String) -> String {
        source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.range(of: "//").map { String(line[..<$0.lowerBound]) } ?? String(line)
        }.joined(separator: "\n")
    }

    /// Integer literals in `text` as GLSL writes them (`4096`, `316u`, `0x1E35A7BDu`), as values.
    static func literals(_ text: String) -> Set<UInt64> {
        let pattern = try! NSRegularExpression(pattern: #"(?<![A-Za-z_0-9])(0[xX][0-9A-Fa-f]+|[0-9]+)[uU]?(?![A-Za-z_0-9.])"#)
        let range = NSRange(text.startIndex..., in: text)
        return Set(pattern.matches(in: text, range: range).compactMap { match in
            guard let r = Range(match.range(at: 1), in: text) else { return nil }
            let digits = text[r]
            return digits.lowercased().hasPrefix("0x") ? UInt64(digits.dropFirst(2), radix: 16) : UInt64(digits)
        })
    }

    /// A define's value as a number (`4096`, `316u`).
    static func value(_ text: String) -> UInt64? { UInt64(text.hasSuffix("u") ? String(text.dropLast()) : text) }

    @Test func noShaderSpellsAValueItIsGiven() {
        // Values under 64 are too common to tell apart (shifts, byte masks, 32-bit words); the larger are each one thing.
        let given = ShaderRecords.defines.compactMap { define in Self.value(define.value).map { (define.name, $0) } }.filter { $0.1 >= 64 }
        #expect(given.count >= 9)
        for (file, source) in Self.computeShaders {
            let spelled = Self.literals(Self.code(source))
            for (name, value) in given where spelled.contains(value) {
                Issue.record("\(file) spells \(value) itself: use \(name)")
            }
        }
    }

    /// The words Swift and the shaders both pack (a token, a code table's entry, a plan row's copy and
    /// job) are shifted by name (`TOKEN_LENGTH_SHIFT`, `CODE_LENGTH_SHIFT`, `ROW_RUN_AT_BITS`...):
    /// shifts are too small to tell apart by value, so a bare shift by a packing's width fails here,
    /// but for three bytes put together as a word (`byteAt`), the halving ladder (`HALVE`) and a
    /// shader's own named constants.
    @Test func noShaderPacksAWordWithABareShift() throws {
        let packings = ShaderRecords.defines.filter { define in ["TOKEN_", "CODE_", "ROW_"].contains { define.name.hasPrefix($0) } }
        let given = Set(packings.filter { $0.name.hasSuffix("_SHIFT") || $0.name.hasSuffix("_BITS") }.compactMap { Self.value($0.value) })
        #expect(given.isSuperset(of: [16, 10]), "\(given)")
        let shift = try NSRegularExpression(pattern: #"(<<|>>)\s*([0-9]+)[uU]?(?![0-9A-Za-z_])"#)
        for (file, source) in Self.computeShaders {
            for line in Self.code(source).split(separator: "\n") where !line.contains("byteAt(") && !line.contains("HALVE(") && !line.contains("const uint") {
                let text = String(line)
                for match in shift.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    guard let r = Range(match.range(at: 2), in: text), let amount = UInt64(text[r]), given.contains(amount) else { continue }
                    Issue.record("\(file) shifts by \(amount) itself: \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
    }

    @Test func recordsAreReadThroughTheirNames() {
        // Every read of a record buffer says its fields by name: no bare number inside the brackets.
        let pattern = try! NSRegularExpression(pattern: #"\b(plan|rowInfo|images|codes)\[([^\]]*)\]"#)
        var reads = 0
        for (file, source) in Self.computeShaders {
            let code = Self.code(source)
            for match in pattern.matches(in: code, range: NSRange(code.startIndex..., in: code)) {
                guard let index = Range(match.range(at: 2), in: code) else { continue }
                reads += 1
                let numbers = Self.literals(String(code[index]))
                #expect(numbers.isEmpty, "\(file): \(code[index]) has a position of its own")
            }
        }
        #expect(reads >= 30)
    }

    @Test func everyDefineIsUsedAndEveryRecordFieldHasAWord() {
        let all = Self.computeShaders.map { Self.code($0.1) }.joined(separator: "\n")
        for define in ShaderRecords.defines {
            #expect(all.contains(define.name), "\(define.name) is defined but no shader reads it")
        }
        #expect(ShaderRecords.macroName("jobAndRunStart") == "JOB_AND_RUN_START")
        #expect(ShaderRecords.macroName("x0") == "X0")
        #expect(ShaderRecords.Image.words == 18 && ShaderRecords.PlanJob.words == 6 && ShaderRecords.CodeRow.words == 5)
        // deflate_tokens.comp's walkedBack writes out 16 halvings of MAX_WALK_PARTS.
        #expect(RepeatDeflater.maxWalkParts == 1 << 16)
        #expect(ShaderRecords.PlanRow.copy.at(3) == 14)
    }

    @Test func theDefinesGoAfterTheVersionLine() {
        let source = ShaderRecords.defining("#version 310 es\nvoid main() {}\n")
        let lines = source.split(separator: "\n")
        #expect(lines.first == "#version 310 es")
        #expect(lines.dropFirst().first?.hasPrefix("#define MAX_DISTANCE 32768") == true)
        #expect(lines.last == "void main() {}")
    }
}
