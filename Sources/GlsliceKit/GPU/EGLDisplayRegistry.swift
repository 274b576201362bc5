import CEGL
import Synchronization

/// Every context on one EGL device shares one `EGLDisplay`, and `eglTerminate`
/// ends it for all of them. So a display is initialised when its first context
/// comes and terminated when its last one goes, never by a context alone.
enum EGLDisplayRegistry {
    private static let users = Mutex<[UInt: Int]>([:])

    /// Initialises `display` for one more user; returns the EGL version.
    static func acquire(_ display: EGLDisplay) throws -> (major: Int32, minor: Int32) {
        try users.withLock { users throws -> (major: Int32, minor: Int32) in
            // On an initialised display eglInitialize only reports the version.
            var major: EGLint = 0, minor: EGLint = 0
            try GLCheck.egl("eglInitialize", eglInitialize(display, &major, &minor) == EGL_TRUE)
            users[UInt(bitPattern: display), default: 0] += 1
            return (major, minor)
        }
    }

    /// Gives one user's reference back; the last one terminates the display.
    static func release(_ display: EGLDisplay) {
        users.withLock { users in
            let key = UInt(bitPattern: display)
            guard let count = users[key] else { return }
            if count > 1 {
                users[key] = count - 1
            } else {
                users[key] = nil
                eglTerminate(display)
            }
        }
    }

    /// How many contexts hold `display` now (for tests).
    static func userCount(_ display: EGLDisplay) -> Int {
        users.withLock { $0[UInt(bitPattern: display)] ?? 0 }
    }
}
