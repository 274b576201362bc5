import CFiles
import Foundation
import Synchronization
import Testing
@testable import GlsliceKit

/// Worker threads carry their names to the OS (issue 52), so `top -H` and `perf` tell
/// the GPU thread from the encoders: read back from the kernel, not from Foundation.
struct WorkerThreadsTests {
    /// The kernel's name for the calling thread (`/proc/self/task/<tid>/comm`, through pthread).
    static func osName() -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        guard gs_thread_name(&buffer, UInt(buffer.count)) == 0 else { return "?" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func eachThreadIsNamedForTheOS() {
        let names = Mutex<[Int: String]>([:])
        let two = WorkerThreads(count: 2, name: "glslice-enc") { index in
            let name = Self.osName()
            names.withLock { $0[index] = name }
        }
        two.wait()
        #expect(names.withLock { $0 } == [0: "glslice-enc-0", 1: "glslice-enc-1"])
        // One thread goes by the name alone; a name over 15 bytes is cut where Linux cuts it.
        let one = WorkerThreads(count: 1, name: "glslice-gpu") { _ in names.withLock { $0[9] = Self.osName() } }
        one.wait()
        let long = WorkerThreads(count: 1, name: "glslice-a-very-long-name") { _ in names.withLock { $0[8] = Self.osName() } }
        long.wait()
        #expect(names.withLock { $0[9] } == "glslice-gpu")
        #expect(names.withLock { $0[8] } == "glslice-a-very-")
    }

    /// The batch's GL thread is its caller's: named while the draw stage runs on it, and its own name after.
    @Test func aCallerIsNamedWhileItRunsTheBodyAndGetsItsNameBack() {
        let seen = Mutex<[String]>([])
        let caller = WorkerThreads(count: 1, name: "glslice-caller") { _ in
            WorkerThreads.named("glslice-gpu") { seen.withLock { $0.append(Self.osName()) } }
            seen.withLock { $0.append(Self.osName()) }
        }
        caller.wait()
        #expect(seen.withLock { $0 } == ["glslice-gpu", "glslice-caller"])
    }
}
