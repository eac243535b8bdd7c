import Testing

@testable import APNsServer

/// RFC 9113 §5.1.1: opening a stream closes the idle streams with smaller ids; HEADERS on one of
/// those is a connection error (h2spec 5.1.1/2).
@Suite("Skipped stream ids")
struct SkippedStreamsTests {
    @Test("consecutive streams leave no gaps; a skip is remembered as a range of odd ids")
    func gaps() {
        var ids = SkippedStreams()
        for id in stride(from: Int32(1), through: 99, by: 2) { ids.opened(id) }
        #expect(ids.gaps.isEmpty)
        #expect(!(1...99).contains { ids.wasSkipped(Int32($0)) })
        ids.opened(107)
        #expect([101, 103, 105].allSatisfy { ids.wasSkipped($0) })
        #expect(![99, 107, 109, 102].contains { ids.wasSkipped($0) })
    }

    @Test("the first stream above 1 skips the ones below it; only the latest gaps are kept")
    func first() {
        var ids = SkippedStreams()
        ids.opened(5)
        #expect(ids.wasSkipped(1) && ids.wasSkipped(3) && !ids.wasSkipped(5))
        for n in 1...40 { ids.opened(5 + Int32(n) * 4) }
        #expect(ids.gaps.count == ids.limit)
        #expect(ids.wasSkipped(5 + 40 * 4 - 2))
        #expect(!ids.wasSkipped(3), "a gap older than the limit is forgotten")
    }
}
