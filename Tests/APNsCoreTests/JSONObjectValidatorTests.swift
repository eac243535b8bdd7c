import APNsCore
import Testing

@Suite("JSON object validation")
struct JSONObjectValidatorTests {
    @Test(
        "valid JSON objects pass",
        arguments: [
            "{}", " { } ", #"{"aps":{"alert":"hi"}}"#, #"{"a":[1,-2,3.5e10,0,-0.5E-3,true,false,null,{}]}"#,
            #"{"s":"\"\\\/\b\f\n\r\t\u00e9"}"#, "{\"é\":\"日本語 🎉\"}", "\n{\"a\":\t[ ]}\r\n",
        ]
    )
    func valid(_ text: String) {
        #expect(JSONObjectValidator.problem(in: Array(text.utf8)) == nil)
    }

    @Test(
        "anything else is refused",
        arguments: [
            "", "   ", "[]", "1", "\"s\"", "null", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "{a:1}", "{\"a\":01}",
            "{\"a\":1.}", "{\"a\":-}", "{\"a\":tru}", "{\"a\":\"\\x\"}", "{\"a\":\"\\u12\"}", "{\"a\":\"\u{01}\"}",
            "{} {}", "{}x", "{\"a\":[1 2]}", "{'a':1}",
        ]
    )
    func invalid(_ text: String) {
        #expect(JSONObjectValidator.problem(in: Array(text.utf8)) != nil)
    }

    @Test("invalid UTF-8 and runaway nesting are refused")
    func bytes() {
        #expect(JSONObjectValidator.problem(in: [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x3A, 0x31, 0x7D]) != nil)
        #expect(JSONObjectValidator.problem(in: [0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]) != nil)
        let deep = "{\"a\":" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        #expect(JSONObjectValidator.problem(in: Array(deep.utf8))?.contains("too deep") == true)
    }

    @Test("the problem names what and where")
    func problemText() {
        #expect(JSONObjectValidator.problem(in: Array("{\"a\":}".utf8)) == "unexpected character at offset 5")
        #expect(JSONObjectValidator.problem(in: Array("[1]".utf8))?.contains("not an object") == true)
    }

    /// `{"a":"<bytes>"}`.
    static func object(string bytes: [UInt8]) -> [UInt8] { Array(#"{"a":""#.utf8) + bytes + Array(#""}"#.utf8) }

    @Test("surrogates, overlong forms and code points above U+10FFFF are not UTF-8 (RFC 3629; issue 13, item 11)")
    func strictUTF8() {
        let refused: [[UInt8]] = [
            [0xED, 0xA0, 0x80],  // U+D800, a UTF-16 surrogate
            [0xED, 0xBF, 0xBF],  // U+DFFF
            [0xE0, 0x80, 0x80],  // overlong U+0000
            [0xE0, 0x9F, 0xBF],  // overlong U+07FF
            [0xF0, 0x8F, 0xBF, 0xBF],  // overlong U+FFFF
            [0xF4, 0x90, 0x80, 0x80],  // U+110000
            [0xC0, 0xAF],  // overlong "/"
            [0xE2, 0x82],  // truncated
        ]
        for bytes in refused {
            #expect(JSONObjectValidator.problem(in: Self.object(string: bytes)) != nil, "\(bytes)")
        }
        let accepted: [[UInt8]] = [
            [0xED, 0x9F, 0xBF],  // U+D7FF, the last code point before the surrogates
            [0xEE, 0x80, 0x80],  // U+E000, the first after them
            [0xE0, 0xA0, 0x80],  // U+0800
            [0xF0, 0x90, 0x80, 0x80],  // U+10000
            [0xF4, 0x8F, 0xBF, 0xBF],  // U+10FFFF, the last code point
            Array("é€😀".utf8),
        ]
        for bytes in accepted {
            #expect(JSONObjectValidator.problem(in: Self.object(string: bytes)) == nil, "\(bytes)")
        }
    }
}
