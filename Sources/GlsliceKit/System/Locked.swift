import Synchronization

/// State behind a `Synchronization.Mutex`, which every shared value in the
/// library uses.
///
/// Why the wrapper: on Linux the Mutex locks with atomics and futex calls in
/// the (uninstrumented) standard library, so ThreadSanitizer cannot see it
/// and reports a race on every value it guards (checked with two threads
/// appending to one `Mutex<[Int]>`). Built for `make test-tsan`
/// (`-D GLSLICE_TSAN`), each critical section also tells ThreadSanitizer it
/// acquires and releases this object, so what it reports is real.
package final class Locked<State>: Sendable {
    private let mutex: Mutex<State>

    package init(_ initial: sending State) { mutex = Mutex(initial) }

    @inline(__always)
    package func withLock<Result>(_ body: (inout sending State) throws -> sending Result) rethrows -> sending Result {
        #if GLSLICE_TSAN
        let address = Unmanaged.passUnretained(self).toOpaque()
        return try mutex.withLock { state in
            __tsan_acquire(address)
            defer { __tsan_release(address) }
            return try body(&state)
        }
        #else
        return try mutex.withLock(body)
        #endif
    }
}

#if GLSLICE_TSAN
@_silgen_name("__tsan_acquire") func __tsan_acquire(_ address: UnsafeMutableRawPointer)
@_silgen_name("__tsan_release") func __tsan_release(_ address: UnsafeMutableRawPointer)
#endif
