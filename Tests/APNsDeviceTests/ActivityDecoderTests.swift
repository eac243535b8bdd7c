import APNsCore
import APNsDevice
import Foundation
import Testing

/// Content states and attributes decode as ActivityKit decodes them: JSONDecoder with its
/// default strategies, into the app's declared struct.
@Suite("Live Activities: decoding a content state as ActivityKit does")
struct ActivityDecoderTests {
    let type: ActivityType

    init() throws {
        self.type = try JSONDecoder().decode(
            ActivityType.self,
            from: Data(
                #"{"attributes": {"orderNumber": "int"}, "contentState": {"eta": "date", "driver": "string?", "stops": "[int]", "map": "url?", "score": {"type": "object", "fields": {"home": "int", "away": "int"}, "optional": true}}}"#
                    .utf8))
    }

    func decode(_ state: String) -> Result<JSONValue, ActivityDecodingError> {
        ActivityDecoder.decode(
            self.type.contentState, at: ["aps", "content-state"], in: Array(#"{"aps": {"content-state": \#(state)}}"#.utf8))
    }

    // home-assistant/iOS #4677: dates sent as UNIX seconds appear 31 years late, because a Date
    // decodes (deferredToDate) as seconds since 2001-01-01 (Apple: Date.timeIntervalSinceReferenceDate).
    @Test("a date is seconds since 2001: UNIX 1700000000 reads as 2054-11-14")
    func referenceDate() throws {
        let value = try self.decode(#"{"eta": 1700000000, "stops": []}"#).get()
        #expect(value == .object(["eta": .string("2054-11-14T22:13:20Z"), "stops": .array([])]))
        let now = try self.decode(#"{"eta": 785000000, "stops": [1, 2]}"#).get()
        #expect(now == .object(["eta": .string("2025-11-16T15:33:20Z"), "stops": .array([.number(1), .number(2)])]))
    }

    // flutter_live_activities #118: APNs answers 200 and the device logs that the content state
    // could not be decoded; JSONDecoder names the missing key.
    @Test("a missing field fails with keyNotFound and names it; a wrong type with typeMismatch")
    func failures() {
        guard case .failure(let missing) = self.decode(#"{"stops": []}"#) else {
            Issue.record("decoded without eta")
            return
        }
        #expect(missing.kind == "keyNotFound" && missing.path == "aps.content-state.eta")
        #expect(missing.message.contains("No value associated with key"))
        guard case .failure(let wrong) = self.decode(#"{"eta": "2025-01-01T00:00:00Z", "stops": []}"#) else {
            Issue.record("a string decoded as a Date")
            return
        }
        #expect(wrong.kind == "typeMismatch" && wrong.path == "aps.content-state.eta")
        guard case .failure(let element) = self.decode(#"{"eta": 1, "stops": [1, "two"]}"#) else {
            Issue.record("a string decoded as an Int")
            return
        }
        #expect(element.kind == "typeMismatch" && element.path == "aps.content-state.stops[1]")
        guard case .failure(let fraction) = self.decode(#"{"eta": 1, "stops": [1.5]}"#) else {
            Issue.record("1.5 decoded as an Int")
            return
        }
        #expect(fraction.kind == "dataCorrupted" || fraction.kind == "typeMismatch")
    }

    @Test("optional fields may be absent or null, unknown keys are ignored, nested structs decode")
    func optionals() throws {
        let value = try self.decode(
            #"{"eta": 0, "stops": [], "driver": null, "extra": true, "map": "https://example.com/m", "score": {"home": 2, "away": 1}}"#
        ).get()
        #expect(
            value
                == .object([
                    "eta": .string("2001-01-01T00:00:00Z"), "stops": .array([]), "map": .string("https://example.com/m"),
                    "score": .object(["home": .number(2), "away": .number(1)]),
                ]))
        guard case .failure(let nested) = self.decode(#"{"eta": 0, "stops": [], "score": {"home": 2}}"#) else {
            Issue.record("decoded without away")
            return
        }
        #expect(nested.kind == "keyNotFound" && nested.path == "aps.content-state.score.away")
    }

    @Test("a content state that is missing altogether, or not an object, does not decode")
    func notAnObject() {
        let missing = ActivityDecoder.decode(
            self.type.contentState, at: ["aps", "content-state"], in: Array(#"{"aps": {}}"#.utf8))
        guard case .failure(let error) = missing else {
            Issue.record("decoded nothing")
            return
        }
        #expect(error.kind == "keyNotFound" && error.path == "aps.content-state")
        guard case .failure(let array) = self.decode("[1]") else {
            Issue.record("decoded an array")
            return
        }
        #expect(array.kind == "typeMismatch")
    }

    @Test("type notation: short forms, Swift names and objects round-trip; nonsense is refused by field")
    func notation() throws {
        #expect(ActivityFieldType(notation: "[date]?") == .optional(.array(.date)))
        #expect(ActivityFieldType(notation: "String") == .string)
        #expect(ActivityFieldType(notation: "money") == nil)
        let encoded = try JSONEncoder().encode(self.type)
        #expect(try JSONDecoder().decode(ActivityType.self, from: encoded) == self.type)
        #expect(throws: DeviceModelError.self) {
            try JSONDecoder().decode(ActivityType.self, from: Data(#"{"contentState": {"a": "money"}}"#.utf8))
        }
        #expect(throws: DeviceModelError.self) { try JSONDecoder().decode(ActivityType.self, from: Data(#"{"state": {}}"#.utf8)) }
    }

    @Test("bare array, object and json take any value of that shape; optional and array name their element in of or items")
    func looseTypes() throws {
        let type = try JSONDecoder().decode(
            ActivityType.self,
            from: Data(
                #"{"contentState": {"tags": "array", "meta": "object", "extra": "json?", "when": {"type": "optional", "of": "date"}, "ids": {"type": "array", "items": "int"}}}"#
                    .utf8))
        #expect(type.contentState.map(\.type) == [.optional(.json), .array(.int), .object([]), .array(.json), .optional(.date)])
        let decoded = ActivityDecoder.decode(
            type.contentState, at: ["s"],
            in: Array(#"{"s": {"tags": [1, "a"], "meta": {"k": [true]}, "ids": [3], "when": null}}"#.utf8))
        #expect(
            try decoded.get()
                == .object([
                    "tags": .array([.number(1), .string("a")]), "meta": .object(["k": .array([.bool(true)])]),
                    "ids": .array([.number(3)]),
                ]))
        guard
            case .failure(let error) = ActivityDecoder.decode(
                type.contentState, at: ["s"], in: Array(#"{"s": {"tags": [], "meta": [1], "ids": []}}"#.utf8))
        else {
            Issue.record("an array decoded as an object")
            return
        }
        #expect(error.kind == "typeMismatch" && error.path == "s.meta")
        #expect(throws: DeviceModelError.self) {
            try JSONDecoder().decode(ActivityType.self, from: Data(#"{"contentState": {"a": {"type": "optional"}}}"#.utf8))
        }
    }
}
