import Foundation

extension ManifestReader {
    /// What a line that is not JSON was expected to have where it goes wrong (round four's
    /// newcomer: "not valid JSON at column 82" said where, not what). A small scanner of
    /// RFC 8259's grammar, run only on a line Foundation refused: it follows objects and
    /// arrays and says what may come next at the first byte that cannot (a key, ':', a
    /// value, ',' or the closing bracket), or at the line's end. nil where it finds no fault.
    struct JSONFault: Equatable {
        /// 1-based, in bytes; one past the end where the line ends too soon.
        var column: Int
        var expected: String
        /// What is there, quoted, or "the line's end".
        var found: String
    }

    static func jsonFault(_ text: Data) -> JSONFault? {
        var scanner = JSONScanner(bytes: [UInt8](text))
        return scanner.firstFault()
    }
}

/// `ManifestReader.jsonFault`'s scanner: where it is in the line, what it wants next, and the
/// objects and arrays it is in.
private struct JSONScanner {
    typealias Fault = ManifestReader.JSONFault
    enum Want { case value, key, colon, commaOrClose, end }
    static let blanks: Set<UInt8> = [0x20, 0x09, 0x0D, 0x0A]
    static let ends = blanks.union(",]}:".utf8)

    let bytes: [UInt8]
    var stack: [UInt8] = [] // "{" or "["
    var want = Want.value
    var i = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func firstFault() -> Fault? {
        while true {
            while i < bytes.count, Self.blanks.contains(bytes[i]) { i += 1 }
            guard i < bytes.count else { return want == .end ? nil : fault(want) }
            let c = bytes[i]
            let found: Fault?
            switch want {
            case .end: found = fault(.end)
            case .key: found = key(c)
            case .colon: found = colon(c)
            case .commaOrClose: found = commaOrClose(c)
            case .value: found = value(c)
            }
            if let found { return found }
        }
    }

    private mutating func key(_ c: UInt8) -> Fault? {
        if c == UInt8(ascii: "}"), isJustOpened() {
            stack.removeLast()
            i += 1
            afterValue()
            return nil
        }
        guard c == UInt8(ascii: "\"") else { return fault(.key) }
        guard let end = stringEnd() else { return unclosedString() }
        i = end
        want = .colon
        return nil
    }

    private mutating func colon(_ c: UInt8) -> Fault? {
        guard c == UInt8(ascii: ":") else { return fault(.colon) }
        i += 1
        want = .value
        return nil
    }

    private mutating func commaOrClose(_ c: UInt8) -> Fault? {
        if c == UInt8(ascii: ",") {
            i += 1
            want = stack.last == UInt8(ascii: "{") ? .key : .value
        } else if (c == UInt8(ascii: "}") && stack.last == UInt8(ascii: "{")) || (c == UInt8(ascii: "]") && stack.last == UInt8(ascii: "[")) {
            stack.removeLast()
            i += 1
            afterValue()
        } else {
            return fault(.commaOrClose)
        }
        return nil
    }

    private mutating func value(_ c: UInt8) -> Fault? {
        switch c {
        case UInt8(ascii: "{"):
            stack.append(c)
            i += 1
            want = .key
        case UInt8(ascii: "["):
            stack.append(c)
            i += 1
            var k = i
            while k < bytes.count, Self.blanks.contains(bytes[k]) { k += 1 }
            if k < bytes.count, bytes[k] == UInt8(ascii: "]") {
                stack.removeLast()
                i = k + 1
                afterValue()
            } else {
                want = .value
            }
        case UInt8(ascii: "\""):
            guard let end = stringEnd() else { return unclosedString() }
            i = end
            afterValue()
        default:
            // A number or a literal: its bytes up to a delimiter, which JSON must know.
            var k = i
            while k < bytes.count, !Self.ends.contains(bytes[k]) { k += 1 }
            let word = String(decoding: bytes[i..<k], as: UTF8.self)
            let number = word.range(of: #"^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?$"#, options: .regularExpression) != nil
            guard number || ["true", "false", "null"].contains(word), k > i else { return fault(.value) }
            i = k
            afterValue()
        }
        return nil
    }

    private mutating func afterValue() { want = stack.isEmpty ? .end : .commaOrClose }

    private func expected(_ want: Want) -> String {
        switch want {
        case .value: return "a value (a \"string\", a number, true, false, null, [...] or {...})"
        case .key: return isJustOpened() ? "a key in double quotes or '}'" : "a key in double quotes"
        case .colon: return "':' after the key"
        case .commaOrClose: return stack.last == UInt8(ascii: "[") ? "',' or ']'" : "',' or '}'"
        case .end: return "nothing more (one JSON object a line)"
        }
    }

    private func isJustOpened() -> Bool {
        var k = i - 1
        while k >= 0, Self.blanks.contains(bytes[k]) { k -= 1 }
        return k >= 0 && bytes[k] == UInt8(ascii: "{")
    }

    private func fault(_ want: Want) -> Fault {
        let found: String
        if i >= bytes.count {
            found = "the line's end"
        } else {
            let piece = bytes[i..<min(bytes.count, i + 12)]
            found = "'" + String(decoding: piece, as: UTF8.self).prefix { $0 != "\n" } + "'"
        }
        return Fault(column: i + 1, expected: expected(want), found: found)
    }

    /// A string that does not end before the line does.
    private mutating func unclosedString() -> Fault {
        i = bytes.count
        return Fault(column: i + 1, expected: "a closing '\"'", found: "the line's end")
    }

    /// The end of a string starting at `i` (its opening quote), or nil where it does not end.
    private func stringEnd() -> Int? {
        var k = i + 1
        while k < bytes.count {
            if bytes[k] == UInt8(ascii: "\\") {
                k += 2
                continue
            }
            if bytes[k] == UInt8(ascii: "\"") { return k + 1 }
            k += 1
        }
        return nil
    }
}
