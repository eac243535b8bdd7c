import Testing

@testable import APNsCore

@Suite("Push lint: what APNs accepts but a device would not show as meant")
struct PushLintTests {
    static let token = DeviceToken(bytes: [UInt8](repeating: 1, count: 32))!

    func codes(
        _ payload: String, type: PushType = .alert, priority: Priority = .immediate, topic: String? = "com.example.app"
    ) -> [String] {
        let notification = Notification(
            apnsID: "a", uniqueID: "u", token: Self.token, topic: topic, pushType: type, priority: priority, expiration: nil,
            collapseID: nil, payload: Array(payload.utf8), receivedAt: 0, source: .http2
        )
        return PushLint.warnings(for: notification).map(\.code)
    }

    @Test("a well-formed alert, background or voip push has no warning")
    func clean() {
        #expect(self.codes(#"{"aps":{"alert":{"title":"Hi","body":"there"},"badge":3,"sound":"chime.caf"}}"#).isEmpty)
        #expect(self.codes(#"{"aps":{"content-available":1}}"#, type: .background, priority: .conservePower).isEmpty)
        #expect(self.codes(#"{"aps":{}}"#, type: .voip, topic: "com.example.app.voip").isEmpty)
        #expect(self.codes(#"{"aps":{"sound":"default","alert":"x"}}"#).isEmpty)
    }

    @Test("issue 50: an aps member no platform reads is named with the nearest known one; every documented member is quiet")
    func unknownMember() {
        let notification = { (payload: String) in
            Notification(
                apnsID: "a", uniqueID: "u", token: Self.token, topic: "com.example.app", pushType: .alert, priority: .immediate,
                expiration: nil, collapseID: nil, payload: Array(payload.utf8), receivedAt: 0, source: .http2)
        }
        let typo = PushLint.warnings(for: notification(#"{"aps":{"alert":"x","badg":3}}"#))
        #expect(typo.map(\.code) == ["aps-unknown-key"])
        #expect(
            typo.first?.message.contains(#"aps has no member "badg""#) == true
                && typo.first?.message.contains(#"did you mean "badge"?"#) == true)
        let snake = PushLint.warnings(for: notification(#"{"aps":{"alert":"x","content_available":1}}"#))
        #expect(snake.first?.message.contains(#"did you mean "content-available"?"#) == true, "\(snake)")
        let far = PushLint.warnings(for: notification(#"{"aps":{"alert":"x","zzzzzzzzzz":1}}"#))
        #expect(far.first?.message.contains("aps members are alert, badge, sound") == true)
        // Apple's payload key reference: each of these is read by some platform or push type.
        #expect(
            self.codes(
                #"{"aps":{"alert":"x","thread-id":"t","category":"c","target-content-id":"w","interruption-level":"active","relevance-score":0.5,"filter-criteria":"f","url-args":[]}}"#
            ).isEmpty)
    }

    @Test(
        "issue 50: no apns-topic over HTTP/2 is a warning (APNs answers MissingTopic without a one-topic certificate); binary has none to send"
    )
    func missingTopic() {
        #expect(self.codes(#"{"aps":{"alert":"x"}}"#, topic: nil) == ["missing-topic"])
        let binary = Notification(
            apnsID: "a", uniqueID: "u", token: Self.token, topic: nil, pushType: .alert, priority: .immediate, expiration: nil,
            collapseID: nil, payload: Array(#"{"aps":{"alert":"x"}}"#.utf8), receivedAt: 0, source: .binary)
        #expect(PushLint.warnings(for: binary).isEmpty)
    }

    @Test("background at priority 10: accepted, but devices may not wake the app (node-apn #241)")
    func backgroundPriority() {
        #expect(self.codes(#"{"aps":{"content-available":1}}"#, type: .background) == ["background-priority"])
    }

    @Test("push types whose topic lacks the suffix Apple's topic rules give")
    func topicSuffix() {
        #expect(self.codes(#"{"aps":{}}"#, type: .voip) == ["topic-suffix"])
        #expect(
            self.codes(#"{"aps":{"timestamp":1,"event":"update"}}"#, type: .liveactivity, topic: "com.example.app") == [
                "topic-suffix"
            ])
        #expect(self.codes(#"{"aps":{}}"#, type: .pushtotalk, topic: "com.example.app.voip-ptt").isEmpty)
        #expect(self.codes(#"{"aps":{}}"#, type: .location, topic: "com.example.app.location-query").isEmpty)
    }

    @Test("alert pushes that show nothing, content-available alerts at priority 5, mutable-content without alert")
    func alerts() {
        #expect(self.codes(#"{"aps":{}}"#) == ["alert-without-alert"])
        #expect(self.codes(#"{"data":1}"#) == ["alert-without-alert"])
        #expect(self.codes(#"{"aps":{"alert":""}}"#) == ["alert-without-alert"])
        #expect(self.codes(#"{"aps":{"content-available":1}}"#) == ["alert-without-alert"])
        #expect(self.codes(#"{"aps":{"badge":1}}"#).isEmpty)
        #expect(self.codes(#"{"aps":{"alert":"x","content-available":1}}"#, priority: .conservePower) == ["alert-priority"])
        #expect(self.codes(#"{"aps":{"mutable-content":1,"badge":2}}"#) == ["mutable-content-without-alert"])
        #expect(self.codes(#"{"aps":{"mutable-content":1,"alert":{"body":"b"}}}"#).isEmpty)
    }

    @Test("Live Activity fields, badge type and sound file names")
    func fields() {
        let liveTopic = "com.example.app.push-type.liveactivity"
        #expect(self.codes(#"{"aps":{"event":"update"}}"#, type: .liveactivity, topic: liveTopic) == ["liveactivity-fields"])
        #expect(self.codes(#"{"aps":{"alert":"x","badge":"3"}}"#) == ["badge-not-number"])
        #expect(self.codes(#"{"aps":{"alert":"x","badge":1.5}}"#) == ["badge-not-number"])
        #expect(self.codes(#"{"aps":{"alert":"x","sound":"chime"}}"#) == ["sound-extension"])
        #expect(self.codes(#"{"aps":{"alert":"x","sound":{"critical":1,"name":"alarm","volume":1}}}"#) == ["sound-extension"])
        #expect(self.codes(#"{"aps":{"alert":"x","sound":{"critical":1,"name":"alarm.caf"}}}"#).isEmpty)
    }
}
