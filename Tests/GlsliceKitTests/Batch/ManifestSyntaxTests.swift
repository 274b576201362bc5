import Foundation
import Testing
@testable import GlsliceKit

/// `ManifestReader.jsonFault`: where a line stops being JSON and what could come there,
/// each case's column counted by hand (1-based bytes).
@Suite struct ManifestSyntaxTests {
    func fault(_ line: String) -> ManifestReader.JSONFault? { ManifestReader.jsonFault(Data(line.utf8)) }

    @Test func eachFaultSaysWhatCouldComeThere() {
        let value = "a value (a \"string\", a number, true, false, null, [...] or {...})"
        let cases: [(String, ManifestReader.JSONFault)] = [
            (#"{"a": "b" "c": 1}"#, .init(column: 11, expected: "',' or '}'", found: #"'"c": 1}'"#)),
            (#"{"a": }"#, .init(column: 7, expected: value, found: "'}'")),
            (#"{"a" 1}"#, .init(column: 6, expected: "':' after the key", found: "'1}'")),
            (#"{a: 1}"#, .init(column: 2, expected: "a key in double quotes or '}'", found: "'a: 1}'")),
            (#"{"a": 1, }"#, .init(column: 10, expected: "a key in double quotes", found: "'}'")),
            (#"{"a": tru}"#, .init(column: 7, expected: value, found: "'tru}'")),
            (#"{"a": [1, 2}"#, .init(column: 12, expected: "',' or ']'", found: "'}'")),
            (#"{"a": 1"#, .init(column: 8, expected: "',' or '}'", found: "the line's end")),
            (#"{"a": "b"#, .init(column: 9, expected: "a closing '\"'", found: "the line's end")),
            (#"{"a": 1} {"#, .init(column: 10, expected: "nothing more (one JSON object a line)", found: "'{'")),
        ]
        for (line, expected) in cases { #expect(fault(line) == expected, "\(line)") }
    }

    @Test func validJSONHasNoFault() {
        for line in [#"{}"#, #"{"a": [1, -2.5e3, true, null, {"b": "c\"d"}], "e": []}"#, #"  {"a": "x"}  "#] {
            #expect(fault(line) == nil, "\(line)")
        }
    }
}
