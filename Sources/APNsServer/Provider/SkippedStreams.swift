/// The stream ids a client skipped when it opened a new stream (RFC 9113 §5.1.1: they are closed
/// from then on, and a HEADERS on one is a connection error), kept as ranges: clients number
/// their streams 1, 3, 5… so there are none in the usual case and nothing grows per request. Only
/// the latest ``limit`` gaps are remembered. Confined to its connection's event loop.
struct SkippedStreams {
    /// The largest stream id the client opened (0: none yet).
    private(set) var highest: Int32 = 0
    /// Ranges of odd ids skipped, oldest first.
    private(set) var gaps: [ClosedRange<Int32>] = []
    /// How many gaps are remembered; a client that skips more often than this is only checked
    /// against its latest ones.
    let limit = 32

    /// The client opened stream `id` (larger than any before: libnghttp2 has checked that).
    mutating func opened(_ id: Int32) {
        if id > self.highest + 2 {
            self.gaps.append((self.highest + 1)...(id - 1))
            if self.gaps.count > self.limit { self.gaps.removeFirst() }
        }
        self.highest = max(self.highest, id)
    }

    /// Whether `id` is a client stream id that was skipped (never opened, below the highest).
    func wasSkipped(_ id: Int32) -> Bool {
        guard id < self.highest, id & 1 == 1, !self.gaps.isEmpty else { return false }
        return self.gaps.contains { $0.contains(id) }
    }
}
