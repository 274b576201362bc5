import Foundation
import GlsliceKit

/// Ctrl-C (SIGINT) during a batch: says how many outputs this run wrote and
/// the command line that finishes the job (`--resume`), then exits 130. Outputs
/// already named are whole; one being written is never named, so nothing
/// partial is left under an output's name. The count is read, and the process
/// exits, while no output can be named (`NamedOutputs`): it is the files on disk.
final class Interruption {
    private let source: any DispatchSourceSignal

    /// `clearLine`: a progress bar is on the terminal; the message replaces it.
    init(clearLine: Bool) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        source.setEventHandler {
            NamedOutputs.withCount { written in
                standardError((clearLine ? "\r\u{1B}[K" : "") + Interruption.message(written: written, arguments: CommandLine.arguments))
                _exit(Self.exitCode)
            }
        }
        source.resume()
    }

    deinit {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    /// 128 + SIGINT, as a shell reports a command it interrupted.
    static let exitCode: Int32 = 130

    /// The two lines printed on an interrupt.
    static func message(written: Int, arguments: [String]) -> String {
        var resume = arguments
        if !resume.contains("--resume") { resume.append("--resume") }
        let command = resume.map(\.shellQuoted).joined(separator: " ")
        return "glslice: interrupted after \(written) output\(written == 1 ? "" : "s") written in this run, each whole\n"
            + "glslice: to finish the batch, run: \(oneLineForTerminal(command))\n"
    }
}
