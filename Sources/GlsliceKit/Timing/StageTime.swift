/// A stretch of one thread's time on both clocks (`StageClock`).
package struct StageTime: Sendable, AdditiveArithmetic {
    var wall: Duration
    package var cpu: Duration

    package static let zero = StageTime(wall: .zero, cpu: .zero)

    package static func + (a: StageTime, b: StageTime) -> StageTime { StageTime(wall: a.wall + b.wall, cpu: a.cpu + b.cpu) }
    package static func - (a: StageTime, b: StageTime) -> StageTime { StageTime(wall: a.wall - b.wall, cpu: a.cpu - b.cpu) }
}
