import Foundation
import GlsliceKit

/// Writes to stderr with `write(2)`, ignoring failure: a full or closed stderr
/// (`2>/dev/full`) must not turn an error report into a crash, as
/// `FileHandle.write` does.
func standardError(_ text: String) {
    var bytes = Array(text.utf8)
    bytes.withUnsafeMutableBytes { raw in
        guard let base = raw.baseAddress else { return }
        var offset = 0
        while offset < raw.count {
            let written = write(STDERR_FILENO, base + offset, raw.count - offset)
            if written < 0 && errno == EINTR { continue }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// One line on stderr, prefixed like every glslice message.
func warn(_ message: String) {
    standardError("glslice: warning: \(oneLineForTerminal(message))\n")
}

/// `text` with every control character (C0, DEL, C1: newlines, carriage
/// returns, escape sequences) written as `\n`, `\r`, `\t` or `\u{XX}`, so a
/// value echoed from input can neither start a forged `glslice:` line nor
/// drive the terminal.
func oneLineForTerminal(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
        switch scalar.value {
        case 0x0A: out += "\\n"
        case 0x0D: out += "\\r"
        case 0x09: out += "\\t"
        case 0x00...0x1F, 0x7F...0x9F: out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out
}

/// The EGL device: `--gpu N`, else `GLSLICE_GPU`, else nil (hardware first).
/// The environment is read here, in the command line, never inside the library.
func gpuDevice(_ option: Int?) throws -> Int? {
    if let option {
        // Checked before any backend is opened, so it is refused even where the CPU draws.
        guard (0...maxGPUIndex).contains(option) else { throw UsageErrors.outOfRange("--gpu", 0...maxGPUIndex, got: option) }
        return option
    }
    guard let text = ProcessInfo.processInfo.environment["GLSLICE_GPU"] else { return nil }
    guard let index = Int(text), (0...maxGPUIndex).contains(index) else {
        throw UsageErrors.gpuIndex(text)
    }
    return index
}

/// The largest EGL device index taken: no machine lists more devices.
let maxGPUIndex = 255

/// `--gpu-mb` in bytes (batch and serve): at least `GPUMemory.minimumBudget`, and
/// bounded so that `<< 20` cannot overflow.
func gpuBudget(megabytes: Int) throws -> Int {
    let least = GPUMemory.minimumBudget >> 20
    guard (least...1_048_576).contains(megabytes) else { throw UsageErrors.outOfRange("--gpu-mb", least...1_048_576, got: megabytes) }
    return megabytes << 20
}

/// `GLSLICE_PBO`: forces the GPU readback through the pixel-pack ring or not (default: on hardware GPUs).
func pixelPackRingSetting() -> Bool? { switchSetting("GLSLICE_PBO") }

/// `GLSLICE_GPU_ENCODE`: forces `fast` PNGs to be encoded with compute passes or not (default: on hardware GPUs).
func gpuEncodingSetting() -> Bool? { switchSetting("GLSLICE_GPU_ENCODE") }

/// An on/off environment variable: nil when unset; `0/1`, `true/false`, `yes/no`
/// and `on/off` (any case) read as they say; any other value is named in one
/// warning and ignored, so a typo never silently turns a default around.
func switchSetting(_ name: String) -> Bool? {
    guard let value = ProcessInfo.processInfo.environment[name] else { return nil }
    switch value.trimmingCharacters(in: .whitespaces).lowercased() {
    case "1", "true", "yes", "on": return true
    case "0", "false", "no", "off": return false
    default:
        warn("\(name)=\(value) is not one of 0/1, true/false, yes/no, on/off; ignored")
        return nil
    }
}

/// `-o -` onto a terminal prints an image's bytes as noise: refused before
/// anything is read, as gzip refuses, saying how to redirect.
func refuseTerminalOutput(_ output: String) throws {
    guard output == "-", isatty(STDOUT_FILENO) != 0 else { return }
    throw UsageErrors.standardOutputIsATerminal()
}
