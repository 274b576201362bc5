/// One source interval along an axis: an end cap (fixed) or a part that may resize.
package struct Segment: Sendable, Equatable {
    package var start: Int
    package var end: Int
    package var scalable: Bool

    package init(_ start: Int, _ end: Int, scalable: Bool) {
        self.start = start
        self.end = end
        self.scalable = scalable
    }

    package var length: Int { end - start }
}
