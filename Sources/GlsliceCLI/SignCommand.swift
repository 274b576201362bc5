import ArgumentParser
import Foundation
import GlsliceKit
import GlsliceServe
import Logging

struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Print a render URL signed for a server started with --key-file.",
        discussion: """
        The signature (sig=) is the HMAC-SHA256 of the URL's path and query in a canonical form: every escape decoded and written one way, the query sorted, any old sig left out. So the same URL signs the same whichever way a client escapes it.

        Examples (the key is a secret: keep it out of the repository):
          head -c 32 /dev/urandom | base64 > /tmp/glslice-serve.key
          glslice sign '/render/panel.png?pixels=320x200&insets=8' \\
              --key-file /tmp/glslice-serve.key
          glslice sign --key-file /tmp/glslice-serve.key \\
              'http://farm:8080/render/button@2x.png?size=187x44&scale=3'

        """
    )

    @Argument(help: "The render URL: http://HOST:PORT/render/PATH?QUERY, or /render/PATH?QUERY.")
    var url: String

    @Option(help: ArgumentHelp("The server's key file.", valueName: "K"))
    var keyFile: String

    func run() throws {
        print(try URLSigner(keyFile: keyFile).sign(url: url))
    }
}
