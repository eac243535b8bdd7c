/// Server-Sent Events as they arrive in pieces: the complete events, each with the blank line
/// that ends it; comments (`: keep-alive`) left out. The admin API's event stream, read by a
/// shard merging its peers' streams and by the tests.
public struct ServerSentEvents: Sendable {
    /// An event stream's events are small; past this an event is not waited for (the reader
    /// should give the stream up).
    public static let maximumEvent = 1 << 20

    /// What has come of an event not yet ended by a blank line.
    private var pending: [UInt8] = []

    public init() {}

    /// Whether an unfinished event is over ``maximumEvent``.
    public var isOverflowing: Bool { self.pending.count > Self.maximumEvent }

    /// Takes the next bytes of the stream; returns the events they complete.
    public mutating func append(_ bytes: some Sequence<UInt8>) -> [String] {
        self.pending += bytes
        var events: [String] = []
        var start = self.pending.startIndex
        var index = start
        while index + 1 < self.pending.endIndex {
            if self.pending[index] == UInt8(ascii: "\n"), self.pending[index + 1] == UInt8(ascii: "\n") {
                let event = self.pending[start..<(index + 2)]
                if event.first != UInt8(ascii: ":") { events.append(String(decoding: event, as: UTF8.self)) }
                start = index + 2
                index = start
            } else {
                index += 1
            }
        }
        self.pending.removeSubrange(..<start)
        return events
    }

    /// An event's name (`event:`) and data (its `data:` lines joined).
    public static func fields(of event: String) -> (name: String?, data: String) {
        var name: String?
        var data = ""
        for line in event.split(separator: "\n") {
            if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
            if line.hasPrefix("data: ") { data += line.dropFirst(6) }
        }
        return (name, data)
    }
}
