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

@Suite("JSON values: one member, the others skipped")
struct JSONMemberTests {
    @Test("skips strings with escaped quotes and brackets, nested objects and arrays, literals and numbers")
    func member() {
        let payload = Array(
            #"{"a":"x\"}{[","b":{"c":[1,{"d":"]"}],"e":null},"f":-1.5e3,"g":true,"aps":{"badge":2},"aps":{"badge":3}}"#.utf8)
        #expect(JSONValue.member("aps", ofObjectIn: payload) == .object(["badge": .number(2)]))
        #expect(JSONValue.member("f", ofObjectIn: payload) == .number(-1500))
        #expect(JSONValue.member("missing", ofObjectIn: payload) == nil)
        #expect(JSONValue.member("aps", ofObjectIn: Array(#"[{"aps":1}]"#.utf8)) == nil)
        #expect(JSONValue.member("aps", ofObjectIn: Array(#"{"a":"unterminated"#.utf8)) == nil)
    }
}

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
        #expect(typo.first?.message.contains(#"aps has no member "badg""#) == true && typo.first?.message.contains(#"did you mean "badge"?"#) == true)
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

    @Test("issue 50: no apns-topic over HTTP/2 is a warning (APNs answers MissingTopic without a one-topic certificate); binary has none to send")
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
