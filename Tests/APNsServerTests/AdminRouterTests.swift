import APNsCore
import APNsInspection
import Testing

@testable import APNsServer

@Suite("Admin router and its query parameters")
struct AdminRouterTests {
    @Test("durations in query strings: 5s, 250ms, 1.5s, 2m, a bare number of seconds; bad ones are errors")
    func durations() throws {
        let query = QueryParameters(uri: "/x?a=5s&b=250ms&c=1.5s&d=2m&e=3&f=soon&g=%35s")
        #expect(try query.duration("a", fallback: .zero, maximum: .seconds(300)) == .seconds(5))
        #expect(try query.duration("b", fallback: .zero, maximum: .seconds(300)) == .milliseconds(250))
        #expect(try query.duration("c", fallback: .zero, maximum: .seconds(300)) == .milliseconds(1500))
        #expect(try query.duration("d", fallback: .zero, maximum: .seconds(300)) == .seconds(120))
        #expect(try query.duration("e", fallback: .zero, maximum: .seconds(300)) == .seconds(3))
        #expect(try query.duration("g", fallback: .zero, maximum: .seconds(300)) == .seconds(5))
        #expect(try query.duration("missing", fallback: .seconds(7), maximum: .seconds(300)) == .seconds(7))
        #expect(throws: InspectionError.self) { try query.duration("f", fallback: .zero, maximum: .seconds(300)) }
        #expect(throws: InspectionError.self) { try query.duration("d", fallback: .zero, maximum: .seconds(60)) }
    }
}
