extension Array {
    /// The one "gather until the budget, then flush" rule (issue 53): these elements in order, cut
    /// into groups whose costs, added, stay within `limit` in both parts; an element over it goes
    /// alone. The GPU's encoding calls (outputs by pixels) and its deflate calls (jobs by rows and
    /// bytes) are gathered by it.
    func grouped(within limit: SIMD2<Int>, cost: (Element) -> SIMD2<Int>) -> [[Element]] {
        var groups: [[Element]] = [], group: [Element] = [], total = SIMD2<Int>.zero
        for element in self {
            let more = cost(element)
            if !group.isEmpty && any(total &+ more .> limit) {
                groups.append(group)
                (group, total) = ([], .zero)
            }
            group.append(element)
            total &+= more
        }
        if !group.isEmpty { groups.append(group) }
        return groups
    }
}
