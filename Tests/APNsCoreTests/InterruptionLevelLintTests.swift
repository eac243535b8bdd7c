import Testing

@testable import APNsCore

/// The lint of the iOS 15 members (Apple, "Generating a remote notification": `interruption-level`
/// is passive, active, time-sensitive or critical; `relevance-score` a number from 0 to 1; a
/// critical alert's `sound` is `{"critical": 1, "name", "volume"}` with `volume` from 0 to 1).
@Suite("Push lint: interruption level, relevance score, critical volume")
struct InterruptionLevelLintTests {
    static let token = DeviceToken(bytes: [UInt8](repeating: 1, count: 32))!

    func warnings(_ payload: String) -> [PushWarning] {
        let notification = Notification(
            apnsID: "a", uniqueID: "u", token: Self.token, topic: "com.example.app", pushType: .alert, priority: .immediate,
            expiration: nil, collapseID: nil, payload: Array(payload.utf8), receivedAt: 0, source: .http2)
        return PushLint.warnings(for: notification)
    }

    @Test("the four levels, a score and a volume from 0 to 1 draw nothing")
    func clean() {
        for level in ["passive", "active", "time-sensitive", "critical"] {
            #expect(self.warnings(#"{"aps":{"alert":"x","interruption-level":"\#(level)","relevance-score":0.5}}"#).isEmpty)
        }
        #expect(self.warnings(#"{"aps":{"alert":"x","sound":{"critical":1,"name":"default","volume":1}}}"#).isEmpty)
    }

    @Test("a level iOS does not know, a score or a volume out of 0-1 are named with what the device does")
    func named() {
        let level = self.warnings(#"{"aps":{"alert":"x","interruption-level":"urgent"}}"#)
        #expect(level.map(\.code) == ["interruption-level"])
        #expect(level.first?.message.contains(#"presents the string "urgent" as active"#) == true)
        #expect(self.warnings(#"{"aps":{"alert":"x","interruption-level":3}}"#).map(\.code) == ["interruption-level"])
        let score = self.warnings(#"{"aps":{"alert":"x","relevance-score":5}}"#)
        #expect(score.map(\.code) == ["relevance-score"] && score.first?.message.contains("ignores 5.0") == true)
        let volume = self.warnings(#"{"aps":{"alert":"x","sound":{"critical":1,"name":"alarm.caf","volume":"loud"}}}"#)
        #expect(volume.map(\.code) == ["sound-volume"])
        #expect(volume.first?.message.contains(#"ignores the string "loud""#) == true)
    }
}
