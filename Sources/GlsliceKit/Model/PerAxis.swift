/// One value per axis.
public struct PerAxis<Value: Sendable & Equatable>: Sendable, Equatable {
    public var x: Value
    public var y: Value
    public init(x: Value, y: Value) {
        self.x = x
        self.y = y
    }
    public init(both: Value) { self.init(x: both, y: both) }
}
