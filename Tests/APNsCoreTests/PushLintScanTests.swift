import Testing

@testable import APNsCore

@Suite("Push lint read by the validating pass (issue 38)")
struct PushLintScanTests {
    /// The validator's one pass reads `aps` as the lint needs: the same facts, and so the same
    /// warnings, for payloads where the members sit in any order, nest, repeat or escape.
    @Test(
        "the facts the validating pass gathers give the warnings the lint gives",
        arguments: [
            #"{"aps":{"alert":"","sound":{"critical":1,"name":"beep"},"badge":"3"}}"#,
            #"{"x":{"aps":{"alert":"hidden"}},"aps":{"alert":{"subtitle":"s"},"mutable-content":1,"content-available":1}}"#,
            #"{"aps":{"alert":{"title-loc-key":"k"},"badge":1.5,"sound":"de\"fault"}}"#,
            #"{"aps":{"event":"update","timestamp":1,"alert":{"body":"b"}}}"#,
            #"{"aps":[1]}"#,
            #"{"data":1}"#,
        ])
    func sameWarnings(_ payload: String) throws {
        let path = "/3/device/" + String(repeating: "01", count: 32)
        let request = PushRequest(
            path: path, pushType: "alert", priority: "5", topic: "com.example.app", body: Array(payload.utf8))
        let (notification, aps) = try PushValidator().validateReading(request, nowMillis: 0).get()
        let read = PushLint.warnings(for: notification, aps: aps).map(\.code)
        #expect(!read.isEmpty || payload.contains("timestamp"), "each payload but the last well-formed one has something to say")
        #expect(read == Self.reference(notification).map(\.code), "\(payload)")
    }

    /// The lint's answer worked out from the parsed payload, independently of either reader.
    static func reference(_ notification: Notification) -> [PushWarning] {
        guard case .object(let members)? = JSONValue.parse(notification.payload),
            let first = members.first(where: { $0.0 == "aps" }), case .object(let aps) = first.1
        else {
            return PushLint.warnings(for: notification, aps: nil)
        }
        var facts = APSFacts()
        for (name, value) in aps {
            switch (name, value) {
            case ("alert", .string(let text)): facts.alertShows = !text.isEmpty
            case ("alert", .object(let alert)):
                if alert.contains(where: { APSFacts.shownAlertKeys.map(\.description).contains($0.0) }) {
                    facts.alertShows = true
                }
            case ("sound", let sound):
                facts.hasSound = true
                var name: String?
                if case .string(let text) = sound { name = text }
                if case .object(let dictionary) = sound, case .string(let text)? = dictionary.first(where: { $0.0 == "name" })?.1
                {
                    name = text
                }
                if let name, name != "default", !name.contains(".") { facts.soundWithoutExtension = name }
            case ("badge", let badge):
                facts.hasBadge = true
                if !PushLint.isWholeNumber(badge) { facts.badBadge = badge }
            case ("content-available", let value): facts.contentAvailable = value.isOne
            case ("mutable-content", let value): facts.mutableContent = value.isOne
            case ("timestamp", _): facts.hasTimestamp = true
            case ("event", _): facts.hasEvent = true
            default: break
            }
        }
        return PushLint.warnings(for: notification, aps: facts)
    }
}
