/// Where the GPU draw loop's calls come from: a queue (`--backend gpu`, serve's
/// GPU thread) or the hybrid's scheduler, which may take a job back until its GL work starts.
struct GPUFeed<Item> {
    /// The next call's items; empty once there are no more.
    var next: () -> [Item]
    /// Just before their GL work: those of the items still the GPU's (the rest were
    /// taken back and are skipped), asked once for a group, not an item at a time.
    var dispatching: ([Item]) -> [Item] = { $0 }
    /// Set (the hybrid): what the GPU would stream to a waiting encoder, or could not
    /// encode, goes here instead, for a CPU worker to draw whole.
    var decline: ((Item) -> Void)?
}
