import Foundation
import Testing
@testable import GlsliceKit

/// An error that is not glslice's own is a bug: internal (exit 70), its cause named,
/// never a bare string in a results file.
@Suite struct ForeignErrorTests {
    struct Strange: Error, CustomStringConvertible { var description: String { "the strange thing" } }

    @Test func aForeignErrorIsInternalAndNamesItsCause() {
        let wrapped = GlsliceError.from(Strange())
        #expect(wrapped.kind == .internal && wrapped.exitCode == 70)
        #expect(wrapped.message.contains("the strange thing") && wrapped.message.contains("a bug"))
        let own = GlsliceError(.badInput, file: "a.png", "not a PNG")
        #expect(GlsliceError.from(own) == own)
    }
}
