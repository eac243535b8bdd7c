import APNsCore
import Foundation
import Testing

/// The edge between `JSONValue` and Foundation's object graph (issue 39: JSONSerialization is gone
/// from the sources; YAML documents and the tests' `[String: Any]` still cross it).
@Suite("JSONValue and Foundation objects")
struct JSONValueFoundationTests {
    @Test("Swift values as a YAML parser gives them, and NSNumbers as JSONSerialization did: true is not 1")
    func fromFoundation() throws {
        let object: [String: Any] = [
            "flag": true, "count": 3, "ratio": 0.25, "name": "a/b", "none": NSNull(),
            "items": [1, "two", false] as [Any], "nested": ["x": NSNumber(value: 7)] as [String: Any],
            "boxed": NSNumber(value: true),
        ]
        let value = try #require(JSONValue(foundation: object))
        #expect(value["flag"] == .bool(true))
        #expect(value["boxed"] == .bool(true))
        #expect(value["count"] == .number(3))
        #expect(value["ratio"] == .number(0.25))
        #expect(value["none"] == .null)
        #expect(value["items"] == .array([.number(1), .string("two"), .bool(false)]))
        #expect(value["nested"]?["x"] == .number(7))
        #expect(
            String(decoding: value.compact, as: UTF8.self)
                == #"{"boxed":true,"count":3,"flag":true,"items":[1,"two",false],"name":"a/b","nested":{"x":7},"none":null,"ratio":0.25}"#
        )
        #expect(JSONValue(foundation: Date()) == nil)
        #expect(JSONValue(foundation: ["x": Double.nan]) == nil)
    }

    @Test("to Foundation: numbers read as Int and as Double, booleans as Bool, null as NSNull")
    func toFoundation() throws {
        let object = try #require(
            JSONValue.foundationObject(Array(#"{"a":3,"b":0.5,"c":true,"d":null,"e":[1,{"f":"g"}]}"#.utf8)) as? [String: Any])
        #expect(object["a"] as? Int == 3)
        #expect(object["a"] as? Double == 3)
        #expect(object["b"] as? Double == 0.5)
        #expect(object["c"] as? Bool == true)
        #expect(object["d"] is NSNull)
        #expect(((object["e"] as? [Any])?.last as? [String: Any])?["f"] as? String == "g")
    }

    @Test("pretty text: two spaces, name-ordered members, empty containers inline")
    func pretty() throws {
        let value = try #require(JSONValue.parse(Array(#"{"b":[1,2],"a":{"c":{}},"d":[]}"#.utf8)))
        #expect(
            String(decoding: value.prettyPrinted, as: UTF8.self)
                == "{\n  \"a\" : {\n    \"c\" : {}\n  },\n  \"b\" : [\n    1,\n    2\n  ],\n  \"d\" : []\n}")
    }
}
