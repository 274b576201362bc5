import CEGL
import Foundation
import Testing
@testable import GlsliceKit

/// GPU objects have clear owners: a context releases only itself, and the
/// display it shares with other contexts lives until the last one is gone.
@Suite(.enabled(if: GPUTestSupport.enabled, "no EGL/GLES 3 context; set GLSLICE_REQUIRE_GPU=1 to fail instead"))
struct GPULifetimeTests {
    /// A 2×1 source stretched to 4×1 with `nearest`: texels 10,10,200,200 (by hand).
    func renderTwoTexels(on backend: Backend) throws -> [UInt8] {
        let source = PremultipliedImage(RGBAImage(width: 2, height: 1, pixels: [10, 10, 10, 255, 200, 200, 200, 255]))
        let lattice = try Lattice(width: 2, height: 1, insets: PixelInsets(top: 0, left: 0, bottom: 0, right: 0))
        let plan = try PlanBuilder.plan(lattice: lattice, size: PixelSize(width: 4, height: 1), k: 1,
                                  modes: PerAxis(both: .stretch), filter: .nearest, fillCenter: true)
        let image = try backend.image(plan, source: source)
        return stride(from: 0, to: image.rgba.pixels.count, by: 4).map { image.rgba.pixels[$0] }
    }

    @Test func secondBackendRendersAfterTheFirstIsDropped() throws {
        let second = try GPUTestSupport.backend()
        do {
            let first = try GPUTestSupport.backend()
            #expect(try renderTwoTexels(on: first) == [10, 10, 200, 200])
        } // the first backend's context goes here; the display they share must not
        #expect(try renderTwoTexels(on: second) == [10, 10, 200, 200])
        // And a third one, opened after, on the same display.
        let third = try GPUTestSupport.backend()
        #expect(try renderTwoTexels(on: third) == [10, 10, 200, 200])
        #expect(try renderTwoTexels(on: second) == [10, 10, 200, 200])
    }

    /// Other suites open contexts on the same display at the same time, so
    /// counts say little here; each context's own hold is what is checked: held
    /// while it lives, given back when it goes, and the other's kept.
    @Test func aContextGivesBackItsOwnHoldOnTheDisplay() throws {
        let a = try GPUContext.make()
        try withExtendedLifetime(a) {
            var bHold = 0
            do {
                let b = try GPUContext.make()
                bHold = b.displayHold
                #expect(b.display == a.display && bHold != a.displayHold)
                #expect(EGLDisplayRegistry.isHeld(bHold) && EGLDisplayRegistry.isHeld(a.displayHold))
            }
            #expect(!EGLDisplayRegistry.isHeld(bHold), "b is gone, but its hold on the display was not given back")
            #expect(EGLDisplayRegistry.isHeld(a.displayHold))
        }
    }
}

/// The rule the registry follows: terminate on the last release only.
@Suite struct DisplayUsersTests {
    @Test func onlyTheLastReleaseTerminates() {
        var users = DisplayUsers()
        let first = users.add(7), second = users.add(7), other = users.add(9)
        #expect(Set([first, second, other]).count == 3)
        #expect(users.count(7) == 2 && users.count(9) == 1)
        #expect(users.remove(7, hold: first) == false)
        #expect(users.count(7) == 1 && !users.isHeld(first) && users.isHeld(second))
        #expect(users.remove(7, hold: first) == false) // a hold given back twice changes nothing
        #expect(users.count(7) == 1)
        #expect(users.remove(7, hold: other) == false) // another display's hold is not this one's
        #expect(users.remove(7, hold: second) == true)
        #expect(users.count(7) == 0)
        #expect(users.remove(7, hold: second) == false) // a stray release does not terminate twice
        #expect(users.remove(9, hold: other) == true)
    }
}
