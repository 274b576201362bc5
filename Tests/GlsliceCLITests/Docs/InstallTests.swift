import Foundation
import Testing

/// Issue 50: `make install` builds only the glslice product (not the bench, the
/// fuzzer or the test-only packages) and prints the exact lines to add for shell
/// completion. Read from `make -n`, which prints the recipe without running it.
@Suite struct InstallTests {
    @Test func installBuildsOnlyGlsliceAndPrintsTheLinesToAdd() throws {
        let result = try run(URL(fileURLWithPath: "/usr/bin/make"), ["-n", "--no-print-directory", "install", "PREFIX=/opt/glslice-test"],
                             in: packageRoot)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = String(decoding: result.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        let builds = lines.filter { $0.contains("swift build") || $0.hasPrefix("swift ") }
        // The one configuration every target builds in (issue 70), so a later `make test` or `make demo` rebuilds nothing.
        #expect(builds == ["swift build -c release -Xswiftc -enable-testing --product glslice"], "\(builds)")
        let text = lines.joined(separator: "\n")
        #expect(text.contains("echo 'source /opt/glslice-test/share/bash-completion/completions/glslice' >> ~/.bashrc"), "\(text)")
        #expect(text.contains("echo 'fpath=(/opt/glslice-test/share/zsh/site-functions \\$fpath); autoload -Uz compinit && compinit' >> ~/.zshrc"),
                "\(text)")
    }
}
