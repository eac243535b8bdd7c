import APNsCore
import Testing

@testable import APNsInspection

@Suite("Fault rules")
struct FaultBookTests {
    static func request(_ interface: Interface = .http2, token: String = "ab", topic: String? = "t") -> FaultRequest {
        FaultRequest(interface: interface, token: { token }, topic: topic, pushType: "alert")
    }

    @Test("a rule applies `times` times then goes; rules are tried in order; none costs nothing")
    func times() {
        let book = FaultBook()
        #expect(book.fault(for: Self.request()) == nil)
        let first = book.add(match: .init(token: "AB"), action: .reset, times: 2, probability: 1)
        let second = book.add(
            match: .init(), action: .respond(reason: "TooManyRequests", status: nil, statusByte: nil), times: nil, probability: 1)
        #expect(book.fault(for: Self.request())?.id == first.id)
        #expect(book.fault(for: Self.request())?.id == first.id)
        #expect(book.fault(for: Self.request())?.id == second.id)
        #expect(book.all.map(\.id) == [second.id])
        #expect(book.all.first?.hits == 1)
        #expect(book.fault(for: Self.request(token: "cd"))?.id == second.id)
    }

    @Test("an action applies only where it means something; match fields narrow it")
    func applicability() {
        let book = FaultBook()
        book.add(match: .init(), action: .goAway(reason: "Shutdown"), times: nil, probability: 1)
        book.add(
            match: .init(topic: "other"), action: .respond(reason: nil, status: nil, statusByte: 8), times: nil, probability: 1)
        #expect(book.fault(for: Self.request(.binary)) == nil)
        #expect(
            book.fault(for: Self.request(.binary, topic: "other"))?.action == .respond(reason: nil, status: nil, statusByte: 8))
        #expect(book.fault(for: Self.request(.http2))?.action == .goAway(reason: "Shutdown"))
    }
}
