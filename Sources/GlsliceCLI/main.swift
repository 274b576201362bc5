import ArgumentParser
import Foundation
import GlsliceKit

/// Parses and runs, turning every failure into one line on stderr and a
/// documented exit code (README, "Exit codes").
func runGlslice() -> Never {
    do {
        var command = try GlsliceCommand.parseAsRoot()
        try command.run()
        exit(0)
    } catch let error as GlsliceError {
        FileHandle.standardError.write(Data("glslice: \(error)\n".utf8))
        exit(error.exitCode)
    } catch let error as ExitCode {
        exit(error.rawValue)
    } catch {
        let code = GlsliceCommand.exitCode(for: error)
        if code == .success || error is CleanExit {
            GlsliceCommand.exit(withError: error) // --help, --version
        }
        let message = GlsliceCommand.message(for: error).split(whereSeparator: \.isNewline).first.map(String.init) ?? "\(error)"
        FileHandle.standardError.write(Data("glslice: \(message) (see 'glslice --help')\n".utf8))
        exit(GlsliceError(.usage, "").exitCode)
    }
}

runGlslice()
