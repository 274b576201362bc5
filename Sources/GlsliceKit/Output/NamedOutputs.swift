import Synchronization

/// How many outputs this process has named (linked or renamed into place),
/// counted under the lock that naming holds. An interrupt reads the count under
/// the same lock and exits holding it, so the number it prints is the files on
/// disk: no output is named between the count and the exit (a batch said 487
/// where 488 files existed).
package enum NamedOutputs {
    private static let count = Mutex(0)

    /// Names one output (`name` does the link or rename) and counts it when that succeeds.
    static func naming(_ name: () throws -> Void) throws {
        try count.withLock { count in
            try name()
            count += 1
        }
    }

    /// Runs `body` with the count, no output being named meanwhile (`body` may exit the process).
    package static func withCount<T>(_ body: (Int) -> T) -> T {
        count.withLock { body($0) }
    }
}
