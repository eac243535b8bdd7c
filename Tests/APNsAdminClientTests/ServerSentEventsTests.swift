import Testing

@testable import APNsAdminClient

/// The one Server-Sent Events reader, shared by a shard merging its peers' streams and the tests.
@Suite("Server-Sent Events reader")
struct ServerSentEventsTests {
    @Test("events split across reads come out whole, in order; comments are left out")
    func pieces() {
        var reader = ServerSentEvents()
        let stream = ": stream of events\n\nevent: accepted\ndata: {\"id\":\"a\"}\n\n: keep-alive\n\nevent: reset\ndata: {}\n\n"
        var events: [String] = []
        // Every split point: one byte at a time.
        for byte in stream.utf8 { events += reader.append([byte]) }
        #expect(events == ["event: accepted\ndata: {\"id\":\"a\"}\n\n", "event: reset\ndata: {}\n\n"])
        #expect(ServerSentEvents.fields(of: events[0]).name == "accepted")
        #expect(ServerSentEvents.fields(of: events[0]).data == #"{"id":"a"}"#)
        #expect(reader.append(Array("event: half\nda".utf8)).isEmpty)
        #expect(reader.append(Array("ta: 1\n\n".utf8)) == ["event: half\ndata: 1\n\n"])
    }

    @Test("data lines join; an event without a name has none")
    func fields() {
        let (name, data) = ServerSentEvents.fields(of: "data: {\"a\":\ndata: 1}\n\n")
        #expect(name == nil && data == #"{"a":1}"#)
    }

    @Test("an event that never ends is given up past the limit, not held without bound")
    func overflow() {
        var reader = ServerSentEvents()
        #expect(reader.append([UInt8](repeating: UInt8(ascii: "x"), count: ServerSentEvents.maximumEvent)).isEmpty)
        #expect(!reader.isOverflowing)
        _ = reader.append([UInt8(ascii: "x")])
        #expect(reader.isOverflowing)
    }
}
