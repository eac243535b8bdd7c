import Testing

@testable import APNsCore

@Suite("JSON values: one member, the others skipped")
struct JSONMemberTests {
    @Test("skips strings with escaped quotes and brackets, nested objects and arrays, literals and numbers")
    func member() {
        let payload = Array(
            #"{"a":"x\"}{[","b":{"c":[1,{"d":"]"}],"e":null},"f":-1.5e3,"g":true,"aps":{"badge":2},"aps":{"badge":3}}"#.utf8)
        #expect(JSONValue.member("aps", ofObjectIn: payload) == .object(["badge": .number(2)]))
        #expect(JSONValue.member("f", ofObjectIn: payload) == .number(-1500))
        #expect(JSONValue.member("missing", ofObjectIn: payload) == nil)
        #expect(JSONValue.member("aps", ofObjectIn: Array(#"[{"aps":1}]"#.utf8)) == nil)
        #expect(JSONValue.member("aps", ofObjectIn: Array(#"{"a":"unterminated"#.utf8)) == nil)
    }
}
