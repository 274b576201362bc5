import Foundation
@testable import GlsliceKit
@testable import GlsliceServe
import Hummingbird
import Testing

/// Coalescing, the bounded queue and time-outs, with renders held at a gate so
/// that what is in flight is known, not raced.
@Suite struct LoadControlTests {
    @Test func identicalRequestsInFlightRenderOnce() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let gate = Gate()
        let count = 8
        try await withServer(world, gate: gate) { port, _ in
            let url = "/render/panel.png?pixels=300x200&insets=8"
            let responses = try await withThrowingTaskGroup(of: TestClient.Response.self) { group in
                for _ in 0..<count { group.addTask { try await get(port, url) } }
                // Every request but the first joins the one render, which waits at the gate.
                try await eventually("\(count - 1) coalesced requests") {
                    try await metric(port, "glslice_coalesced_total") == Double(count - 1)
                }
                gate.open()
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(responses.count == count)
            #expect(responses.allSatisfy { $0.status == .ok })
            #expect(Set(responses.map(\.bytes)).count == 1)
            #expect(try await metric(port, "glslice_renders_total") == 1)
        }
    }

    /// With one render thread and a queue of one: a render held at the gate, and one waiting.
    static func fillTheQueue(_ port: Int, _ group: inout ThrowingTaskGroup<TestClient.Response, any Error>) async throws {
        group.addTask { try await get(port, "/render/panel.png?pixels=50x50") }
        try await eventually("one render running") { try await metric(port, "glslice_renders_running") == 1 }
        group.addTask { try await get(port, "/render/panel.png?pixels=60x60") }
        try await eventually("one render queued") { try await metric(port, "glslice_queue_depth") == 1 }
    }

    @Test func aFullQueueGets503WithRetryAfter() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let gate = Gate()
        try await withServer(world, workers: 1, queueLimit: 1, gate: gate) { port, _ in
            try await withThrowingTaskGroup(of: TestClient.Response.self) { group in
                try await Self.fillTheQueue(port, &group)
                let refused = try await get(port, "/render/panel.png?pixels=70x70")
                #expect(refused.status == .serviceUnavailable)
                #expect(refused.headers[.retryAfter] == "1")
                #expect(refused.errorMessage?.contains("the render queue is full") == true)
                gate.open()
                for try await response in group { #expect(response.status == .ok) }
            }
            // Once the queue drains the same request renders.
            #expect(try await get(port, "/render/panel.png?pixels=70x70").status == .ok)
        }
    }

    /// The preview endpoints decode sources too: they wait in the same queue
    /// and get the same 503 when it is full (issue 19: `/preview/info` decoded
    /// on the HTTP executor, so eight large sources stalled `/healthz`).
    @Test func previewsGet503UnderAFullQueue() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let gate = Gate()
        try await withServer(world, workers: 1, queueLimit: 1, gate: gate) { port, _ in
            try await withThrowingTaskGroup(of: TestClient.Response.self) { group in
                try await Self.fillTheQueue(port, &group)
                for url in ["/preview/info/bubble.9.png", "/preview/sources"] {
                    let refused = try await get(port, url)
                    #expect(refused.status == .serviceUnavailable, "\(url)")
                    #expect(refused.headers[.retryAfter] == "1", "\(url)")
                }
                #expect(try await get(port, "/healthz").status == .ok)
                gate.open()
                for try await response in group { #expect(response.status == .ok) }
            }
            #expect(try await get(port, "/preview/info/bubble.9.png").status == .ok)
            #expect(try await get(port, "/preview/sources").status == .ok)
        }
    }

    @Test func queueZeroMeansNoWaiting() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let gate = Gate()
        try await withServer(world, workers: 1, queueLimit: 0, gate: gate) { port, _ in
            try await withThrowingTaskGroup(of: TestClient.Response.self) { group in
                // A free thread takes a render even when nothing may wait.
                group.addTask { try await get(port, "/render/panel.png?pixels=50x50") }
                try await eventually("one render running") { try await metric(port, "glslice_renders_running") == 1 }
                let refused = try await get(port, "/render/panel.png?pixels=60x60")
                #expect(refused.status == .serviceUnavailable)
                gate.open()
                for try await response in group { #expect(response.status == .ok) }
            }
        }
    }

    @Test func aSlowRenderTimesOutThenServesFromTheCache() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let gate = Gate()
        try await withServer(world, timeout: .milliseconds(300), gate: gate) { port, _ in
            let url = "/render/panel.png?pixels=90x90"
            let late = try await get(port, url)
            #expect(late.status == .serviceUnavailable)
            #expect(late.headers[.retryAfter] == "1")
            #expect(late.errorMessage?.contains("--timeout") == true)
            gate.open()
            // The render went on and was kept: the retry is a cache hit.
            try await eventually("the late render finished") { try await metric(port, "glslice_renders_total") == 1 }
            #expect(try await get(port, url).status == .ok)
            #expect(try await metric(port, "glslice_cache_hits_total") == 1)
        }
    }

    /// A retry after a time-out joins the render still running instead of
    /// starting a second one, so coalescing holds (issue 19). The retry has its
    /// own --timeout from when it joins, which must outlast the metric poll that
    /// sees it join: 10 s, as 2 s ran out once under the whole suite's load on two cores, and
    /// 5 s once more (session 7).
    @Test func aRetryAfterATimeoutJoinsTheRenderStillRunning() async throws {
        let world = try ServeWorld()
        defer { world.remove() }
        let gate = Gate()
        try await withServer(world, timeout: .seconds(10), gate: gate) { port, _ in
            let url = "/render/panel.png?pixels=91x91"
            #expect(try await get(port, url).status == .serviceUnavailable) // held at the gate past --timeout
            let retry = Task { try await get(port, url) }
            try await eventually("the retry joined the render in flight") { try await metric(port, "glslice_coalesced_total") == 1 }
            gate.open()
            #expect(try await retry.value.status == .ok)
            #expect(try await metric(port, "glslice_renders_total") == 1)
        }
    }

    @Test func responseCacheIsCappedInBytesLeastRecentFirst() {
        var lru = ResponseCache.LRU()
        func buffer(_ n: Int) -> ByteBuffer { ByteBuffer(repeating: 7, count: n) }
        lru.put("a", buffer(40), capacity: 100)
        lru.put("b", buffer(40), capacity: 100)
        #expect(lru.get("a") != nil)          // a is now the newer
        lru.put("c", buffer(40), capacity: 100) // 120 > 100: b, the least recent, goes
        #expect(lru.get("b") == nil)
        #expect(lru.get("a") != nil && lru.get("c") != nil)
        #expect(lru.bytes == 80)
        lru.put("d", buffer(100), capacity: 100) // fills it alone
        #expect(lru.index.keys.sorted() == ["d"])
        #expect(lru.bytes == 100)
    }
}
