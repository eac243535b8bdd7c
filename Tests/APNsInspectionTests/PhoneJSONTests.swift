import APNsCore
import APNsDevice
import Foundation
import Testing

@testable import APNsInspection

/// An activity's attributes and content state are written by hand for the documents about it (a
/// broadcast writes thousands, issue 38), and must read as `JSONEncoder` wrote them before.
@Suite("Phone JSON written by hand")
struct PhoneJSONTests {
    @Test(
        "JSONValue is written as JSONEncoder writes it: keys sorted, slashes and non-ASCII as they are, whole numbers without a fraction",
        arguments: [
            #"{"b": 1, "a": [true, null, 0.5, -3], "c": {"z": "x/y", "y": "q\"uote\\ \n tab\t é 💡"}}"#,
            #"[{"score": 10, "ratio": 0.25, "big": 123456789012, "tiny": 1e-7}]"#,
            #""just a string""#,
            "42.5",
        ])
    func sameAsEncoder(_ json: String) throws {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(json.utf8))
        var writer = JSONWriter()
        PhoneJSON.write(value, into: &writer)
        #expect(String(decoding: writer.bytes, as: UTF8.self) == PhoneJSON.encoded(value))
    }
}
