import APNsCore
import Testing

@testable import APNsInspection

/// The admin API's query parameters, the journal filter read from them, and the fault book, as
/// values (issue 39: APNsInspection had 199 test lines for 2,830 source lines).
@Suite("Query parameters, journal filters and fault rules")
struct QueryAndFaultTests {
    @Test("decoding: %XX and +, the first value of a name wins, an empty value reads as absent")
    func decoding() {
        let query = QueryParameters(uri: "/x?topic=com.example%2Bapp&token=a+b&topic=second&since=&flag")
        #expect(query["topic"] == "com.example+app")
        #expect(query["token"] == "a b")
        #expect(query["since"] == nil && query["flag"] == nil)
        #expect(query.emptyValue(except: ["flag"]) == "since")
        #expect(query.unknown(allowed: ["topic", "token", "since"]) == "flag")
        #expect(query.unknown(allowed: ["topic", "token", "since", "flag"]) == nil)
        #expect(QueryParameters(uri: "/x").unknown(allowed: []) == nil)
    }

    @Test("flags, integers and durations: in range or an error naming the parameter")
    func typed() throws {
        let query = QueryParameters(uri: "?devices&yes=YES&no=0&bad=maybe&limit=5&big=5000&zero=0&wait=250ms&long=10m")
        #expect(try query.flag("devices") && query.flag("yes") && !query.flag("no") && !query.flag("absent"))
        #expect(throws: InspectionError.self) { try query.flag("bad") }
        #expect(try query.integer("limit", fallback: 100, maximum: 1000) == 5)
        #expect(try query.integer("absent", fallback: 100, maximum: 1000) == 100)
        for name in ["big", "zero", "bad"] {
            do {
                _ = try query.integer(name, fallback: 1, maximum: 1000)
                Issue.record("\(name) was taken")
            } catch {
                #expect(error.field == name && error.message.contains("from 1 to 1000"))
            }
        }
        #expect(try query.duration("wait", fallback: .seconds(5), maximum: .seconds(300)) == .milliseconds(250))
        #expect(throws: InspectionError.self) { try query.duration("long", fallback: .seconds(5), maximum: .seconds(300)) }
    }

    @Test("the query sent on to another shard: names in order, scope taken out, values encoded again")
    func encoded() {
        let query = QueryParameters(uri: "?topic=a%20b&scope=local&limit=2")
        #expect(query.encoded(setting: ["scope": nil]) == "limit=2&topic=a%20b")
        #expect(query.encoded(setting: ["after": "x/y"]) == "after=x%2Fy&limit=2&scope=local&topic=a%20b")
    }

    @Test("the journal filter: each field parsed, a wrong one named with what it takes")
    func filter() throws {
        let filter = try JournalFilter.parse(
            QueryParameters(uri: "?token=ABCD&status=rejected&interface=binary&since=1700000000000"))
        #expect(filter.status == .rejected && filter.interface == .binary && filter.since == 1_700_000_000_000)
        for (uri, field, words) in [
            ("?status=lost", "status", "status must be one of"), ("?interface=pigeon", "interface", "http2, binary, local, broadcast, webpush"),
            ("?outcome=maybe", "outcome", "shown, notShown, app, waiting, rejected, none"),
            ("?since=yesterday", "since", "RFC 3339"),
        ] {
            do {
                _ = try JournalFilter.parse(QueryParameters(uri: uri))
                Issue.record("\(uri) was taken")
            } catch {
                #expect(error.field == field && error.message.contains(words), "\(uri): \(error.message)")
            }
        }
    }

    static func request(token: String = "ab", topic: String? = "com.example", interface: Interface = .http2) -> FaultRequest {
        FaultRequest(interface: interface, token: { token }, topic: topic, pushType: "alert")
    }

    @Test("fault rules: tried in order, counted, gone when their times run out; ids carry the shard's prefix")
    func faultBook() {
        let book = FaultBook(idPrefix: "s2-fault-")
        #expect(!book.isActive && book.fault(for: Self.request()) == nil)
        let once = book.add(match: .init(topic: "com.example"), action: .reset, times: 1, probability: 1)
        let always = book.add(
            match: .init(token: "AB"), action: .respond(reason: "TooManyRequests", status: 429, statusByte: nil), times: nil,
            probability: 1)
        #expect(once.id == "s2-fault-1" && always.id == "s2-fault-2")
        #expect(book.fault(for: Self.request())?.id == once.id)
        // Its one time used, the first rule is gone; the second (the token matched without regard to case) applies.
        #expect(book.all.map(\.id) == [always.id])
        #expect(book.fault(for: Self.request())?.hits == 1)
        #expect(book.fault(for: Self.request())?.hits == 2)
        #expect(book.fault(for: Self.request(token: "cd")) == nil)
        #expect(book.remove(id: always.id) && !book.remove(id: always.id))
        #expect(!book.isActive)
    }

    @Test("a rule that never fires (probability 0) is never applied, however often asked")
    func probability() {
        let book = FaultBook()
        book.add(match: .init(), action: .reset, times: nil, probability: 0)
        #expect((0..<1000).allSatisfy { _ in book.fault(for: Self.request()) == nil })
        book.removeAll()
        #expect(book.all.isEmpty)
    }
}
