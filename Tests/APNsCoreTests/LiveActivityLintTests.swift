import Testing

@testable import APNsCore

/// What ActivityKit ignores in a Live Activity push or broadcast (issue 41). Apple, "Starting and
/// updating Live Activities with ActivityKit push notifications" (the aps members, an alert of
/// title, body and sound); Apple staff, developer forums thread 799195 (a top-level sound plays
/// nothing on a Live Activity; the alert is a dictionary).
@Suite("Live Activity lint: fields ActivityKit ignores")
struct LiveActivityLintTests {
    static let topic = "com.example.app.push-type.liveactivity"

    func messages(_ payload: String) -> [String] {
        let notification = Notification(
            apnsID: "a", uniqueID: "u", token: PushLintTests.token, topic: Self.topic, pushType: .liveactivity,
            priority: .immediate, expiration: nil, collapseID: nil, payload: Array(payload.utf8), receivedAt: 0, source: .http2)
        return PushLint.warnings(for: notification).filter { $0.code == LiveActivityLint.code }.map(\.message)
    }

    @Test("the common README shape: aps.sound, aps.badge and a string alert each get a warning naming the field")
    func readmeShape() {
        let warnings = self.messages(
            #"{"aps":{"event":"update","timestamp":1,"content-state":{"s":1},"alert":"Goal!","sound":"default","badge":1}}"#)
        #expect(warnings.count == 3, "\(warnings)")
        #expect(warnings.contains { $0.contains("aps.sound") && $0.contains("alert.sound") })
        #expect(warnings.contains { $0.contains("aps.badge") })
        #expect(warnings.contains { $0.contains("string alert") && $0.contains("title, body and sound") })
    }

    @Test("a payload as Apple shows it has no warning; other aps and alert members are named")
    func members() {
        #expect(
            self.messages(
                #"{"aps":{"event":"update","timestamp":1,"content-state":{},"stale-date":2,"relevance-score":50,"alert":{"title":"t","body":{"loc-key":"k"},"sound":"chime.caf"}}}"#
            ).isEmpty)
        #expect(
            self.messages(
                #"{"aps":{"event":"start","timestamp":1,"attributes-type":"T","attributes":{},"content-state":{},"input-push-token":1,"input-push-channel":"c","dismissal-date":3}}"#
            ).isEmpty)
        let named = self.messages(
            #"{"aps":{"event":"end","timestamp":1,"content-available":1,"alert":{"title":"t","subtitle":"s"}}}"#)
        #expect(
            named == [
                "ActivityKit ignores aps.content-available on a Live Activity push",
                "ActivityKit ignores alert.subtitle: a Live Activity's alert has only title, body and sound",
            ])
    }

    @Test("an alert push's sound and badge get no such warning")
    func otherTypes() {
        let notification = Notification(
            apnsID: "a", uniqueID: "u", token: PushLintTests.token, topic: "com.example.app", pushType: .alert,
            priority: .immediate,
            expiration: nil, collapseID: nil, payload: Array(#"{"aps":{"alert":"x","sound":"a.caf","badge":1}}"#.utf8),
            receivedAt: 0,
            source: .http2)
        #expect(PushLint.warnings(for: notification).isEmpty)
    }
}
