import Testing

@testable import APNsCore

@Suite("JSON values")
struct JSONValueTests {
    @Test("objects, arrays, escapes and surrogate pairs; bad documents are nil")
    func parse() {
        let value = JSONValue.parse(Array(#" {"a":[1,-2.5e1,true,false,null],"b":"x\"\n\u00e9\ud83d\ude00","a":0} "#.utf8))
        #expect(
            value?["a"] == .array([.number(1), .number(-25), .bool(true), .bool(false), .null]),
            "the first of duplicate names wins")
        #expect(value?["b"]?.string == "x\"\né😀")
        #expect(JSONValue.parse(Array(#"{"a":1"#.utf8)) == nil)
        #expect(JSONValue.parse(Array(#"{"a":1} x"#.utf8)) == nil)
        #expect(
            JSONValue.parse(Array(String(repeating: "[", count: 300).utf8) + Array(String(repeating: "]", count: 300).utf8))
                == nil)
        #expect(JSONValue.parse(Array(#""\ud800""#.utf8))?.string == "\u{FFFD}", "a lone surrogate")
    }
}
