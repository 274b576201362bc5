import Foundation
import Testing

/// `-o -` onto a terminal is refused, as gzip refuses, and says how to redirect;
/// a pipe still gets the PNG. The terminal is a pseudo-terminal from util-linux's
/// `script` (Debian's essential bsdutils).
@Suite struct TerminalOutputTests {
    func onTerminal(_ arguments: [String]) throws -> (status: Int32, text: String) {
        let command = ([glsliceBinary.path] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", command, "/dev/null"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test(arguments: [["render", "panel.png", "--insets", "8", "--pixels", "40x40", "-o", "-"],
                      ["optimize", "bubble.9.png", "-o", "-"],
                      ["preview", "bubble.9.png", "-o", "-"]])
    func aTerminalGetsNoImage(arguments: [String]) throws {
        var arguments = arguments
        arguments[1] = fixtures.appendingPathComponent(arguments[1]).path
        let result = try onTerminal(arguments)
        #expect(result.status == 64, "\(result.text)")
        #expect(result.text.contains("standard output is a terminal; redirect it") && !result.text.contains("PNG\r\n"), "\(result.text)")
        // A pipe is not a terminal: the PNG goes through.
        let piped = try glslice(arguments)
        #expect(piped.status == 0 && piped.stdout.starts(with: [0x89, 0x50, 0x4E, 0x47]), "\(piped.stderr)")
    }
}
