import Foundation
import Testing
@testable import GlsliceKit

/// Issue 52's first step: the GL thread's time split into its GL calls and its own work.
@Suite struct GLTallyTests {
    /// Counted by hand: a call, a dispatch, a wait, a second read-back (nothing queued since:
    /// no wait), a draw and a read-back (a wait) add six calls, one dispatch and two waits
    /// to this thread's tally, and at least the 20 ms the first wait slept.
    @Test func eachKindOfCallIsCounted() {
        GLTally.timing(.wait) {} // whatever an earlier test left queued
        let before = GLTally.here
        GLTally.timing(.call) {}
        GLTally.timing(.dispatch) {}
        GLTally.timing(.wait) { Thread.sleep(forTimeInterval: 0.02) }
        GLTally.timing(.wait) {}
        GLTally.timing(.draw) {}
        GLTally.timing(.wait) {}
        let added = GLTally.here - before
        #expect(added.calls == 6 && added.dispatches == 1 && added.waits == 2)
        #expect(added.seconds >= 0.02 && added.seconds < 5)
    }

    /// Another thread's calls are its own.
    @Test func theTallyIsPerThread() {
        let before = GLTally.here
        let other = Thread { GLTally.timing(.dispatch) {} }
        other.start()
        while !other.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        Thread.sleep(forTimeInterval: 0.01)
        #expect((GLTally.here - before).calls == 0)
    }

    /// One GPU encode call (llvmpipe): `gpu-own` is `gpu-encode` less the GL calls' time, so at
    /// most it; the call made dispatches and waited for the stream; one encode call counted.
    @Test(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
    func anEncodeCallIsSplit() throws {
        let gpu = try GPUTestSupport.backend()
        let session = try #require(gpu.gpu)
        session.gpuEncoding = true
        let job = Parity.job(index: 3, seed: 52)
        let times = StageTimes()
        _ = try session.encode(GPUSession.OutputToEncode(size: job.plan.size, opaque: false, repeats: RepeatMap(plan: job.plan, source: job.source)) {
            (try session.upload(job.plan, source: job.source), 4096)
        }, times: times)
        let (gl, calls) = times.gpuEncoding
        #expect(calls == 1)
        #expect(gl.dispatches >= 3 && gl.waits >= 1 && gl.calls > gl.dispatches + gl.waits, "\(gl)")
        #expect(times.seconds(.gpuOwn) <= times.seconds(.gpuEncode))
        #expect(abs(times.seconds(.gpuEncode) - times.seconds(.gpuOwn) - gl.seconds) < 1e-6)
    }
}
