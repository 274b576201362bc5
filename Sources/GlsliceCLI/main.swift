import ArgumentParser
import Foundation
import GlsliceKit

/// Parses and runs on the main thread (`@MainActor`: a nonisolated async
/// function would run every command on a Dispatch worker thread, with a malloc
/// arena of its own), turning every failure into one line on stderr and a
/// documented exit code (README, "Exit codes").
@MainActor
func runGlslice() async -> Never {
    do {
        try refuseNonUTF8Arguments()
        try refuseUnknownCommand(Array(CommandLine.arguments.dropFirst()))
        var command = try GlsliceCommand.parseAsRoot()
        try FaultInjection.fromEnvironment()
        // `serve` is async (Hummingbird); the rest block their thread, as their work does.
        if var command = command as? any AsyncParsableCommand {
            try await command.run()
        } else {
            try command.run()
        }
        exit(0)
    } catch let error as GlsliceError {
        standardError("glslice: \(oneLineForTerminal(error.text(naming: .flag)))\n")
        exit(error.exitCode)
    } catch let error as ExitCode {
        exit(error.rawValue)
    } catch {
        let code = GlsliceCommand.exitCode(for: error)
        if code == .success || error is CleanExit {
            GlsliceCommand.exit(withError: error) // --help, --version
        }
        // ArgumentParser says 64 (EX_USAGE) for what it refused; anything else is unexpected.
        guard code == .validationFailure else { exitUnexpected(error) }
        let message = didYouMean(oneLine(GlsliceCommand.message(for: error)))
        standardError("glslice: \(message) (see '\(helpCommand(Array(CommandLine.arguments.dropFirst())))')\n")
        exit(GlsliceError(.usage, "").exitCode)
    }
}

/// An error that no part of glslice anticipated: a bug, exit 70.
func exitUnexpected(_ error: any Error) -> Never {
    let report = GlsliceError(.internal, "unexpected error: \(error) (a bug: please report it)")
    standardError("glslice: \(oneLineForTerminal(report.description))\n")
    exit(report.exitCode)
}

/// Swift turns argv into Strings by replacing invalid UTF-8 with U+FFFD, so a
/// file name in another encoding would be read or written under a different,
/// mangled name. Such an argument is refused instead.
func refuseNonUTF8Arguments() throws {
    for index in 1..<Int(CommandLine.argc) {
        guard let raw = CommandLine.unsafeArgv[index], String(validatingCString: raw) == nil else { continue }
        let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(raw).assumingMemoryBound(to: UInt8.self), count: strlen(raw))
        let shown = bytes.map { (0x20...0x7E).contains($0) ? String(UnicodeScalar($0)) : String(format: "\\x%02X", $0) }.joined()
        throw GlsliceError(.usage, "argument \(index) ('\(shown)') is not valid UTF-8; glslice needs UTF-8 file names (rename the file, or link it under a UTF-8 name)")
    }
}

/// A first word that is no command gets the nearest command's name ("did you
/// mean"), or the list of commands, instead of ArgumentParser's "unexpected argument".
func refuseUnknownCommand(_ arguments: [String]) throws {
    guard let word = arguments.first, !word.hasPrefix("-") else { return }
    let names = GlsliceCommand.configuration.subcommands.map { $0._commandName } + ["help"]
    guard !names.contains(word) else { return }
    let nearest = names.map { ($0, editDistance(word.lowercased(), $0)) }.min { $0.1 < $1.1 }
    if let (name, distance) = nearest, distance <= max(1, word.count / 3) {
        throw GlsliceError(.usage, "unknown command '\(word)'; did you mean '\(name)'?")
    }
    throw GlsliceError(.usage, "unknown command '\(word)' (commands: \(names.dropLast().joined(separator: ", ")); see 'glslice --help')")
}

/// `glslice SUBCOMMAND --help` for the subcommand the arguments name, else `glslice --help`.
func helpCommand(_ arguments: [String]) -> String {
    let names = GlsliceCommand.configuration.subcommands.map { $0._commandName }
    guard let word = arguments.first, names.contains(word) else { return "glslice --help" }
    return "glslice \(word) --help"
}

/// ArgumentParser's "The value 'strech' is invalid for '--mode <M>'. Please
/// provide one of …" for an option of `namedChoices`, with the nearest name
/// offered, as an unknown command gets it: "--mode: unknown value 'strech';
/// did you mean 'stretch'? (one of: …)". Other messages are left as they are.
func didYouMean(_ message: String) -> String {
    guard let valueStart = message.range(of: "The value '"),
          let valueEnd = message.range(of: "' is invalid for '", range: valueStart.upperBound..<message.endIndex)
    else { return message }
    let value = String(message[valueStart.upperBound..<valueEnd.lowerBound])
    let option = message[valueEnd.upperBound...].split(whereSeparator: { $0 == " " || $0 == "'" }).first.map(String.init) ?? ""
    guard let choices = namedChoices[option] else { return message }
    let nearest = choices.map { ($0, editDistance(value.lowercased(), $0)) }.min { $0.1 < $1.1 }
    let list = "(one of: \(choices.joined(separator: ", ")))"
    // Two edits reach a swapped pair of letters ("tiel"), but never most of a short word.
    if let (name, distance) = nearest, distance <= max(2, value.count / 3), distance < value.count {
        return "\(option): unknown value '\(value)'; did you mean '\(name)'? \(list)"
    }
    return "\(option): unknown value '\(value)' \(list)"
}

/// Levenshtein distance between two words (insertions, deletions, substitutions).
func editDistance(_ a: String, _ b: String) -> Int {
    let a = Array(a), b = Array(b)
    var previous = Array(0...b.count)
    for i in 1...max(a.count, 1) where !a.isEmpty {
        var current = [i] + Array(repeating: 0, count: b.count)
        for j in 1...max(b.count, 1) where !b.isEmpty {
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
        }
        previous = current
    }
    return a.isEmpty ? b.count : previous[b.count]
}

await runGlslice()

/// A failpoint for the tests: `GLSLICE_FAULT=unexpected` throws an error that
/// is not a `GlsliceError` where a bug would, so the exit-70 path runs for real.
enum FaultInjection: Error, CustomStringConvertible {
    case injected

    static func fromEnvironment() throws {
        if ProcessInfo.processInfo.environment["GLSLICE_FAULT"] == "unexpected" { throw FaultInjection.injected }
    }

    var description: String { "injected fault (GLSLICE_FAULT=unexpected)" }
}

/// ArgumentParser's message on one line: its bulleted lists of choices joined by commas.
func oneLine(_ message: String) -> String {
    let lines = message.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    guard let first = lines.first else { return message }
    let items = lines.dropFirst().map { $0.hasPrefix("- ") ? String($0.dropFirst(2)) : $0 }.filter { !$0.isEmpty }
    return items.isEmpty ? first : first + " " + items.joined(separator: ", ")
}
