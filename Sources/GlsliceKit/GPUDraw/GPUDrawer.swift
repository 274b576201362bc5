import CEGL

/// The GPU drawer: a plan with its cell textures uploaded on a `GPUSession`,
/// ready to draw any strip of rows. Made by `GPUSession.upload`.
final class GPUDrawer {
    let session: GPUSession
    let plan: Plan
    let textures: [GLuint]
    /// The textures this job made and deletes (the rest belong to the cache).
    private let owned: [GLuint]
    private let ownedBytes: Int
    /// Per cell: the texture index and the cell, one quad each.
    let draws: [(texture: Int, cell: CellPlan)]
    /// The plan's whole-axis taps, where the job's were made as it was prepared: the quads' taps
    /// are taken from them rather than worked out on the GL thread.
    let taps: PlanTaps?

    init(session: GPUSession, plan: Plan, source: PremultipliedImage, sourceKey: SourceKey?, taps: PlanTaps? = nil) throws {
        self.session = session
        self.plan = plan
        self.taps = taps
        var draws: [(Int, CellPlan)] = []
        var textures: [GLuint] = []
        var owned: [GLuint] = []
        var ownedBytes = 0
        do {
            for cell in plan.cells {
                // A transparent cell is the cleared framebuffer; a one-colour cell needs one texel, not its whole rect.
                if cell.fill == .transparent { continue }
                var rect = cell.sourceRect
                if cell.fill != nil { rect = (rect.x.lowerBound..<rect.x.lowerBound + 1, rect.y.lowerBound..<rect.y.lowerBound + 1) }
                let texture = try session.texture(source: source, sourceKey: sourceKey, rect: rect)
                textures.append(texture.name)
                if texture.owned {
                    owned.append(texture.name)
                    ownedBytes += rect.x.count * rect.y.count * 4
                }
                draws.append((textures.count - 1, cell))
            }
        } catch {
            if !owned.isEmpty { glDeleteTextures(GLsizei(owned.count), owned) }
            session.memory.add(.textures, -ownedBytes)
            throw error
        }
        self.textures = textures
        self.owned = owned
        self.ownedBytes = ownedBytes
        self.draws = draws
    }

    deinit {
        if !owned.isEmpty, (try? session.context.makeCurrent()) != nil {
            glDeleteTextures(GLsizei(owned.count), owned)
        }
        session.memory.add(.textures, -ownedBytes)
    }

    /// Rows per strip that fit the framebuffer limits.
    var maxStripRows: Int { session.effectiveTarget.height }

    func drawRows(_ strip: Range<Int>, into output: UnsafeMutablePointer<UInt8>) throws {
        try drawRows(strip, into: output, timing: nil)
    }

    /// True when a strip of this plan is one draw (no column chunks), so it can
    /// be drawn with `drawStrip` and read back by the caller.
    var drawsStripsWhole: Bool { plan.size.width <= session.effectiveTarget.width }

    /// Draws rows `strip` into the framebuffer's bottom-left `width × strip.count`
    /// pixels and reads nothing back (the caller reads, through a pixel-pack ring).
    func drawStrip(_ strip: Range<Int>) throws {
        try session.context.makeCurrent()
        let target = session.effectiveTarget
        guard plan.size.width <= target.width, strip.count <= target.height else {
            throw InternalErrors.stripOverGPULimit(width: plan.size.width, rows: strip.count, limit: "\(target)")
        }
        var quads = QuadList()
        quads.append(self, columns: 0..<plan.size.width, rows: strip, at: (0, 0))
        try session.draw(quads, width: plan.size.width, height: strip.count)
    }

    /// `drawRows`, charging draw calls and readbacks to `times` separately.
    func drawRows(_ strip: Range<Int>, into output: UnsafeMutablePointer<UInt8>, timing times: StageTimes?) throws {
        let clock = ContinuousClock()
        try session.context.makeCurrent()
        let width = plan.size.width
        let target = session.effectiveTarget
        guard strip.count <= target.height else {
            throw InternalErrors.stripOverGPULimit(width: nil, rows: strip.count, limit: "\(target.height)")
        }
        var x0 = 0
        while x0 < width {
            let chunk = x0..<min(width, x0 + target.width)
            var quads = QuadList()
            quads.append(self, columns: chunk, rows: strip, at: (0, 0))
            var start = clock.now
            try session.draw(quads, width: chunk.count, height: strip.count)
            times?.add(.draw, clock.now - start)
            start = clock.now
            try session.readPixels(width: chunk.count, height: strip.count, rowLength: width,
                                    into: output + chunk.lowerBound * 4)
            times?.add(.readBack, clock.now - start)
            x0 = chunk.upperBound
        }
    }
}
