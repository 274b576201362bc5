import ArgumentParser

struct GlsliceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "glslice",
        abstract: "Render resizable (nine-slice) images: end caps unchanged, the rest stretched or tiled.",
        discussion: """
        Exit codes: 0 success, 1 batch: some jobs failed (compare: the images differ; parity: the backends disagree), 64 bad command line, 65 bad input (not a PNG, corrupt, insets or sizes that do not fit, over a limit), 66 input missing or unreadable, 69 backend unavailable (serve: the address cannot be bound), 70 internal error (a bug: please report it), 73 output cannot be written, 75 serve stopped with answers still being written after --drain-timeout, 130 batch interrupted (it prints the --resume command that finishes the job).
        """,
        version: "0.1.0",
        subcommands: [RenderCommand.self, BatchCommand.self, InspectCommand.self, OptimizeCommand.self, PreviewCommand.self,
                      CompareCommand.self, DoctorCommand.self, ParityCommand.self, ServeCommand.self, SignCommand.self]
    )
}
