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
}
