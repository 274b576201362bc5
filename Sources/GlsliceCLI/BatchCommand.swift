import ArgumentParser
import Foundation
import GlsliceKit
import Synchronization

struct BatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "batch",
        abstract: "Render every job of a JSON-lines manifest: fast, bounded, resumable, shardable.",
        usage: "glslice batch <manifest> [--out-dir <D>] [--resume] [<options>]",
        discussion: """
        Each manifest line is a JSON object with render's options as keys: input, output and \(RenderRequest.CodingKeys.allCases.map(\.stringValue).joined(separator: ", ")). Values are written as on the command line ("pixels": "200x44", "insets": "10,12,10,12", "scale": 2); JSON numbers and arrays work too ("pixels": [200, 44], "insets": [10, 12, 10, 12], "center": false). Render's options on the batch command line (--compression small, --mode tile, --filter nearest, ...) are defaults for every line; a line's own key wins, and with it its group (a line's size or pixels, its mode or mode-x/mode-y, its insets or lattice replace the defaults' of that group). Relative inputs are resolved against the manifest's folder, relative outputs against --out-dir (default: the manifest's folder); an output that resolves outside that folder ('..', an absolute path) is refused unless --allow-outside-out-dir, and a second job writing the same output is refused on its line (within this shard). A line over 1 MiB is refused by number.

        A failed job never stops the others. Outputs appear atomically and hold only what a decoder needs; a digest of each one's job (input bytes, options, renderer) goes to the resume index, a file of this process's own in the hidden folder .glslice-resume beside the output (so shards that share a folder never share a file). --resume skips an output that a line there names with the job's digest and size while the file keeps the byte count and time the line records, so a killed batch finishes where it stopped (hidden temporary files a kill left are removed). An output with no line (from a version before the index, or written with --digest-chunk) is skipped when it is a whole PNG (a chunk chain ending in IEND, read by seeking) or WebP of the job's size whose tEXt chunk or XMP packet holds the job's digest. --results appends whole lines and refuses a file that is not a results file. --shard K/N renders the jobs whose line index is K mod N; without it the shard comes from JOB_COMPLETION_INDEX and JOB_COMPLETIONS (Kubernetes Indexed Job) or a Slurm array (shard (SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN) / SLURM_ARRAY_TASK_STEP of SLURM_ARRAY_TASK_COUNT, so --array=1-4 and --array=0-6:2 both work; an irregular list such as --array=3,7,9 is refused). --print-shard says which shard a run would take, and why.

        Progress: on a terminal, a bar on stderr that fits its width. Ctrl-C stops the batch, says how many outputs this run wrote and prints the command line that finishes it (the same, with --resume); outputs already written are whole.

        Exit codes: 0 every job rendered or skipped, 1 some jobs failed (see stderr or --results), 64 bad command line, 66 manifest missing, 69 --backend gpu unavailable, 130 interrupted (Ctrl-C).

        Stages: read → prepare (--jobs threads: resume check, source, plan, digest) → draw → encode (--jobs threads) → record. On the CPU the thread that prepares a job draws and encodes it; on a GPU one thread draws and nothing else. --stats prints each stage's busy time and share at the end, the CPU time of the stages worked on CPU threads (busy time also counts a thread waiting for a core), and the CPU time no stage counted: with the stages' (and the GPU thread's), the process's.

        Examples (from the repository root):
          glslice batch Fixtures/jobs.jsonl --out-dir out/
          glslice batch Fixtures/jobs.jsonl --out-dir out/ \\
              --results out/r.jsonl --resume
          glslice batch Fixtures/jobs.jsonl --out-dir out/ --shard 1/4
          glslice batch Fixtures/jobs.jsonl --out-dir out/ --stats --json
          glslice batch Fixtures/jobs.jsonl --out-dir out/ --compression small
          cd Fixtures && glslice batch - --out-dir ../out/ < jobs.jsonl
        """
    )

    @Argument(help: "The manifest: one JSON object per line ('-' for standard input; relative inputs then resolve against the current folder).", completion: .file())
    var manifest: String

    @Option(help: ArgumentHelp("Folder for relative outputs (created if missing).", valueName: "D"), completion: .directory)
    var outDir: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Threads for each of the prepare and encode stages (on the CPU a preparer draws and encodes the jobs it prepared; default: one per core; at most \(BatchOptions.maxWorkers)).", valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Append one JSON line per job here ('-' for standard output): line, output, status, error, ms, bytes.", valueName: "R.jsonl"), completion: .file())
    var results: String?

    @Flag(help: "Allow outputs outside --out-dir (absolute paths, '..'); refused by default.")
    var allowOutsideOutDir = false

    @Flag(help: "Skip jobs whose output exists and was made by the same job (the same digest and size, in the resume index beside it or in the file itself).")
    var resume = false

    @Flag(help: "Also record each output's job digest inside the file (a PNG tEXt chunk, a WebP XMP packet), for self-describing files; --resume reads it where the resume index has no line.")
    var digestChunk = false

    @Flag(help: "Flush each output to disk before it is named, so a power cut never leaves an empty or partial file under its name.")
    var fsync = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Render only jobs whose index is K mod N.", valueName: "K/N"))
    var shard: String?

    @Flag(help: "At the end, print each stage's busy time and share (prepare, draw, read-back, encode, write): the bottleneck is the stage nearest 100%. CPU stages also give their threads' CPU time.")
    var stats = false

    @Flag(help: "Print the summary as JSON on stdout (with --stats, each stage's busy time too, and cpuSeconds where timed).")
    var json = false

    @Flag(help: "Print the shard this run would take and why, and render nothing.")
    var printShard = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Decoded-source cache size in MiB.", valueName: "MiB"))
    var cacheMb: Int = 256

    @Option(parsing: .unconditional, help: ArgumentHelp("GPU memory in MiB the GPU backend holds at most: framebuffer, cell textures and read-back buffers (16 or more).", valueName: "MiB"))
    var gpuMb: Int = GPUMemory.defaultBudget >> 20

    @OptionGroup(title: "Render options: defaults for every line (a line's own key wins)") var renderOptions: RenderOptionGroup

    @OptionGroup(title: "Backend and limits") var engine: EngineOptions

    func run() throws {
        var options = BatchOptions(manifest: manifest)
        options.requestDefaults = try RequestDefaults(texts: renderOptions.texts())
        options.outputFolder = outDir
        options.backend = engine.backend
        options.device = try gpuDevice(engine.gpu)
        options.gpu.pixelPackRing = pixelPackRingSetting()
        options.gpu.gpuEncoding = gpuEncodingSetting()
        if let jobs {
            // Each worker is a thread with its own buffers; past this a number is a typo, not a machine.
            guard (1...BatchOptions.maxWorkers).contains(jobs) else {
                throw UsageErrors.outOfRange("--jobs", 1...BatchOptions.maxWorkers, got: jobs)
            }
            options.workers = jobs
        }
        options.results = results
        options.allowOutsideOutputFolder = allowOutsideOutDir
        options.resume = resume
        options.digestChunk = digestChunk
        options.durable = fsync
        let (chosen, reason) = try Shard.choose(option: shard, environment: ProcessInfo.processInfo.environment)
        if printShard {
            print("shard \(chosen) (\(reason))")
            return
        }
        options.shard = chosen
        guard (1...1_048_576).contains(cacheMb) else { throw UsageErrors.outOfRange("--cache-mb", 1...1_048_576, got: cacheMb) }
        options.cacheBytes = cacheMb << 20
        options.gpu.budgetBytes = try gpuBudget(megabytes: gpuMb)
        options.limits = try engine.limits()

        // The total is counted only from a manifest that can be read twice (a
        // regular file); from a pipe or FIFO the bar shows progress without one.
        let progress = isatty(STDERR_FILENO) == 1 ? ProgressBar(total: try BatchRunner.countJobsIfRereadable(options)) : nil
        let onError: @Sendable (String) -> Void = { line in
            progress?.clear()
            standardError("glslice: \(oneLineForTerminal(line))\n")
        }
        let interrupt = Interruption(clearLine: progress != nil)
        // The threads' CPU clocks only where their figures are printed.
        StageClock.readsCPU.store(stats, ordering: .relaxed)
        let runner = BatchRunner(options: options, onError: onError) { count in progress?.update(done: count) }
        let summary = try withExtendedLifetime(interrupt) {
            try runner.run()
        }
        progress?.clear()
        if json {
            printJSON(summary.json(stages: stats))
        } else {
            standardError("glslice: \(summary.line)\n")
            if summary.total == 0 {
                // Exit 0 still: a Slurm or Kubernetes array task whose shard owns no lines has done its part.
                standardError("glslice: \(manifest) held no jobs\(options.shard == .all ? "" : " for shard \(options.shard)")"
                              + " (each non-blank line is one; see 'glslice batch --help')\n")
            }
            if stats { for line in summary.statsLines { standardError("glslice: \(line)\n") } }
        }
        if !summary.succeeded { throw ExitCode(1) }
    }
}

/// The width of the terminal on stderr (`COLUMNS` when it says none; else 80).
func terminalColumns() -> Int {
    var size = winsize()
    if ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
    return ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init) ?? 80
}
