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
        exit(GlsliceError.Kind.usage.exitCode)
    }
}

/// An error that no part of glslice anticipated: a bug, exit 70.
func exitUnexpected(_ error: any Error) -> Never {
    let report = GlsliceError.from(error)
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
        throw UsageErrors.notUTF8Argument(index, shown: shown)
    }
}

/// A first word that is no command gets the nearest command's name ("did you
/// mean"), or the list of commands, instead of ArgumentParser's "unexpected argument".
func refuseUnknownCommand(_ arguments: [String]) throws {
    guard let word = arguments.first, !word.hasPrefix("-") else { return }
    let names = GlsliceCommand.configuration.subcommands.map { $0._commandName }
    guard !names.contains(word), word != "help" else { return }
    throw UsageErrors.unknownCommand(word, commands: names)
}

/// `glslice SUBCOMMAND --help` for the subcommand the arguments name, else `glslice --help`.
func helpCommand(_ arguments: [String]) -> String {
    let names = GlsliceCommand.configuration.subcommands.map { $0._commandName }
    guard let word = arguments.first, names.contains(word) else { return "glslice --help" }
    return "glslice \(word) --help"
}

/// ArgumentParser's "The value 'strech' is invalid for '--mode <M>'. Please
/// provide one of …" for an option of `namedChoices`, in glslice's words for
/// it (the nearest name offered), as a manifest or a URL gets them.
func didYouMean(_ message: String) -> String {
    guard let valueStart = message.range(of: "The value '"),
          let valueEnd = message.range(of: "' is invalid for '", range: valueStart.upperBound..<message.endIndex)
    else { return message }
    let value = String(message[valueStart.upperBound..<valueEnd.lowerBound])
    let option = message[valueEnd.upperBound...].split(whereSeparator: { $0 == " " || $0 == "'" }).first.map(String.init) ?? ""
    guard let choices = namedChoices[option] else { return message }
    return UsageErrors.notAChoice(value, of: choices, flag: option).description
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
