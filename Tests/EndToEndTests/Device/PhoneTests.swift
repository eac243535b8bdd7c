import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsTestSupport
import Foundation
import Testing

/// The emulated phone over real sockets: a version-2 device plays the app, a provider pushes
/// over HTTP/2 with TLS, the admin API plays the user and reads what happened.
@Suite("The phone, end to end")
struct PhoneTests {
    static let topic = "com.example.phone"

    /// A device holding a token for `topic`, and the provider that pushes to it.
    func phone(
        _ emulator: RunningEmulator, id: String = "iphone-\(UUID().uuidString.prefix(6))"
    ) async throws -> (DeviceClient, DeviceToken, HTTP2TestClient) {
        let device = try await emulator.device(id)
        let token = try await device.register(topic: Self.topic)
        return (device, token, try await emulator.http2Client())
    }

    /// Pushes `json` and returns the notification's unique id and its presentation as the device hears it.
    func push(
        _ json: String, to token: DeviceToken, device: DeviceClient, provider: HTTP2TestClient
    ) async throws -> (String, Presentation) {
        let uniqueID = try await provider.accepted(token: token.hex, topic: Self.topic, json: json)
        let notification = try await device.next()
        #expect(notification.uniqueID == uniqueID)
        return (uniqueID, try await device.presentation(of: uniqueID))
    }

    @Test("sounds turned off in Settings: the alert shows, the sound is suppressed (device, journal)")
    func soundDenied() async throws {
        try await withEmulator { emulator in
            let (device, token, provider) = try await self.phone(emulator)
            let answer = try await device.requestAuthorization(topic: Self.topic, options: [.alert, .sound], userAllows: true)
            #expect(answer.prompted && answer.granted)
            #expect(
                try await device.requestAuthorization(topic: Self.topic, options: [.alert, .sound], userAllows: false).prompted
                    == false)
            // The user turns sounds off; the device hears of it.
            let settings = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT",
                body: #"{"authorization": {"status": "authorized", "alert": true, "sound": false}}"#
            )
            #expect((settings["authorization"] as? [String: Any])?["sound"] as? Bool == false)
            let changed = try await device.nextEvent { if case .app = $0 { return true } else { return false } }
            if case .app(_, let app) = changed { #expect(!app.authorization.sound) }

            let (uniqueID, presentation) = try await self.push(
                #"{"aps":{"alert":"Hi","sound":"default"}}"#, to: token, device: device, provider: provider)
            #expect(presentation.shown && presentation.body == "Hi" && presentation.sound == nil)
            #expect(presentation.suppressed.map(\.what) == ["sound"])
            let item = try await emulator.adminObject("/api/v1/notifications/\(uniqueID)")
            let recorded = try #require(item["presentation"] as? [String: Any])
            #expect(recorded["shown"] as? Bool == true)
            let suppressed = try #require(recorded["suppressed"] as? [String: String])
            #expect(Array(suppressed.keys) == ["sound"] && suppressed["sound"]?.contains("does not allow sounds") == true)
        }
    }

    @Test("nothing authorized: every push is silent for the user; never asked: nothing shown either")
    func nothingAuthorized() async throws {
        try await withEmulator { emulator in
            let (device, token, provider) = try await self.phone(emulator)
            let payload = #"{"aps":{"alert":"Hi","sound":"default","badge":4}}"#
            let (_, unasked) = try await self.push(payload, to: token, device: device, provider: provider)
            #expect(!unasked.shown && unasked.suppressed.count == 3)

            _ = try await device.requestAuthorization(topic: Self.topic, options: [], userAllows: true)
            let (_, presentation) = try await self.push(payload, to: token, device: device, provider: provider)
            #expect(!presentation.shown && presentation.sound == nil && presentation.badge == nil)
            #expect(presentation.suppressed.map(\.what) == ["alert", "sound", "badge"])
            let app = try await emulator.adminObject("/api/v1/devices/\(token.hex)/app")
            #expect(app["badge"] as? Int == 0 && app["delivered"] as? Int == 0)
        }
    }

    @Test("an app in the foreground: no UI, the app is told")
    func foreground() async throws {
        try await withEmulator { emulator in
            let (device, token, provider) = try await self.phone(emulator)
            _ = try await device.requestAuthorization(topic: Self.topic, options: [.alert, .sound, .badge], userAllows: true)
            #expect(try await device.setAppState(topic: Self.topic, .foreground).appState == .foreground)
            let (_, presentation) = try await self.push(
                #"{"aps":{"alert":"Score","sound":"default"}}"#, to: token, device: device, provider: provider)
            #expect(!presentation.shown && presentation.appNotified && presentation.style == .none)
            #expect(presentation.suppressed.map(\.what) == ["alert", "sound"])
            let delivered = try await emulator.adminObject("/api/v1/devices/\(token.hex)/delivered")
            #expect(delivered["total"] as? Int == 0)
        }
    }

    @Test(
        "three actions: three in the alert context, two in the banner; an action not offered is 409; responses reach the device and the event stream"
    )
    func actionsAndResponses() async throws {
        try await withEmulator { emulator in
            let (device, token, provider) = try await self.phone(emulator)
            _ = try await device.requestAuthorization(topic: Self.topic, options: [.alert], userAllows: true)
            let invite = NotificationCategory(
                identifier: "INVITE",
                actions: [
                    NotificationAction(identifier: "ACCEPT", title: "Accept"),
                    NotificationAction(
                        identifier: "REPLY", title: "Reply", textInput: .init(buttonTitle: "Send", placeholder: "Message")),
                    NotificationAction(identifier: "DECLINE", title: "Decline", destructive: true),
                ]
            )
            #expect(try await device.setCategories(topic: Self.topic, [invite]).categories == [invite])
            let events = try await AdminEventStream.open(
                host: "127.0.0.1", port: emulator.adminPort, path: "/api/v1/events?token=\(token.hex)")

            let (first, presentation) = try await self.push(
                #"{"aps":{"alert":"Lunch?","category":"INVITE"}}"#, to: token, device: device, provider: provider)
            #expect(presentation.style == .banner)
            #expect(presentation.actions.map(\.identifier) == ["ACCEPT", "REPLY", "DECLINE"])
            #expect(presentation.minimalActions.map(\.identifier) == ["ACCEPT", "REPLY"])

            // DECLINE is not among the banner's two buttons.
            let refused = try await emulator.admin(
                "/api/v1/notifications/\(first)/respond", method: "POST", body: #"{"action": "DECLINE", "context": "banner"}"#)
            #expect(refused.status == 409)
            #expect(String(decoding: refused.body, as: UTF8.self).contains("not offered in the banner"))
            let taken = try await emulator.adminObject(
                "/api/v1/notifications/\(first)/respond", method: "POST", body: #"{"action": "DECLINE", "context": "alert"}"#)
            #expect(taken["action"] as? String == "DECLINE" && taken["reported"] as? Bool == true)
            let told = try await device.nextEvent { if case .response = $0 { return true } else { return false } }
            if case .response(let response) = told { #expect(response.uniqueID == first && response.action == "DECLINE") }
            // Acted on: gone from the screen.
            #expect(
                try await emulator.admin(
                    "/api/v1/notifications/\(first)/respond", method: "POST", body: #"{"action": "default"}"#
                ).status == 409)

            // The person holding the phone replies from the device itself.
            let (second, _) = try await self.push(
                #"{"aps":{"alert":"Where?","category":"INVITE"}}"#, to: token, device: device, provider: provider)
            let reply = try await device.respond(to: second, action: "REPLY", text: "Cafeteria")
            #expect(reply.text == "Cafeteria" && reply.context == .banner)
            do {
                _ = try await device.respond(to: second, action: "ACCEPT")
                Issue.record("a second response was taken")
            } catch let error as DeviceClientError {
                #expect(error.code == .declined && error.message.hasPrefix("409"))
            }

            let kinds = try await events.waitForEvents(6).map(\.kind)
            #expect(kinds == ["accepted", "presented", "response", "accepted", "presented", "response"])
            let journal = try await emulator.adminObject("/api/v1/notifications/\(second)")
            #expect((journal["response"] as? [String: Any])?["text"] as? String == "Cafeteria")
            try await events.close()
        }
    }

    @Test("the language changes between two pushes: each is localised in the language the phone had when it arrived")
    func localisation() async throws {
        try await withEmulator { emulator in
            let (device, token, provider) = try await self.phone(emulator)
            _ = try await device.requestAuthorization(topic: Self.topic, options: [.alert], userAllows: true)
            let strings =
                #"{"language": "en", "strings": {"en": {"READY": "Table for %@ is ready"}, "fr": {"READY": "La table de %@ est prête"}}}"#
            _ = try await device.configure(topic: Self.topic, document: Array(strings.utf8))
            let payload = #"{"aps":{"alert":{"loc-key":"READY","loc-args":["Ada"],"title-loc-key":"MISSING"}}}"#
            let (_, english) = try await self.push(payload, to: token, device: device, provider: provider)
            #expect(english.body == "Table for Ada is ready")
            #expect(english.title == "MISSING" && english.localized.contains { $0.key == "MISSING" && !$0.found })
            _ = try await emulator.adminObject("/api/v1/devices/\(token.hex)/app", method: "PUT", body: #"{"language": "fr"}"#)
            let (_, french) = try await self.push(payload, to: token, device: device, provider: provider)
            #expect(french.body == "La table de Ada est prête")
            // The language is the phone's: another app on the device speaks it too.
            let second = try await device.register(topic: Self.topic + ".news")
            _ = try await device.setAppState(topic: Self.topic + ".news", .background)
            _ = try await emulator.adminObject("/api/v1/devices/\(token.hex)/app", method: "PUT", body: #"{"language": "de"}"#)
            #expect(try await emulator.adminObject("/api/v1/devices/\(second.hex)/app")["language"] as? String == "de")
        }
    }

    @Test("a restart keeps authorization, categories and Notification Center")
    func restart() async throws {
        let directory = try TemporaryDirectory()
        let first = try await RunningEmulator.start(directory: directory)
        let (device, token, provider) = try await self.phone(first, id: "iphone-restart")
        _ = try await device.requestAuthorization(topic: Self.topic, options: [.alert, .badge], userAllows: true)
        _ = try await device.setCategories(
            topic: Self.topic,
            [NotificationCategory(identifier: "NEWS", actions: [NotificationAction(identifier: "READ", title: "Read")])])
        let (uniqueID, _) = try await self.push(
            #"{"aps":{"alert":"Extra","badge":2,"category":"NEWS"}}"#, to: token, device: device, provider: provider)
        try await device.close()
        try await first.stop()

        let second = try await RunningEmulator.start(directory: directory)
        let app = try await second.adminObject("/api/v1/devices/\(token.hex)/app")
        #expect(app["authorization"] as? [String: Bool] == nil)
        let authorization = try #require(app["authorization"] as? [String: Any])
        #expect(
            authorization["status"] as? String == "authorized" && authorization["badge"] as? Bool == true
                && authorization["sound"] as? Bool == false)
        #expect((app["categories"] as? [[String: Any]])?.first?["identifier"] as? String == "NEWS")
        #expect(app["badge"] as? Int == 2)
        let delivered = try await second.adminObject("/api/v1/devices/\(token.hex)/delivered")
        let items = try #require(delivered["items"] as? [[String: Any]])
        #expect(items.map { $0["uniqueId"] as? String } == [uniqueID])
        // And the user can still act on it.
        let response = try await second.adminObject(
            "/api/v1/notifications/\(uniqueID)/respond", method: "POST", body: #"{"action": "READ"}"#)
        #expect(response["appState"] as? String == "background")
        try await second.stop()
    }

    @Test(
        "a version-1 device works as before: notifications only; the phone still decides, in the journal; version-2 messages end its session"
    )
    func versionOne() async throws {
        try await withEmulator { emulator in
            let device = try await DeviceClient.connect(
                host: "127.0.0.1", port: emulator.devicePort, caPath: emulator.caPath, deviceID: "old-phone", version: 1)
            let token = try await device.register(topic: Self.topic)
            let provider = try await emulator.http2Client()
            let response = try await provider.push(
                token: token.hex, headers: [("apns-topic", Self.topic)], json: #"{"aps":{"alert":"Hi"}}"#)
            let uniqueID = try #require(response.header("apns-unique-id"))
            #expect(try await device.next().uniqueID == uniqueID)
            let recorded = await eventually {
                ((try? await emulator.adminObject("/api/v1/notifications/\(uniqueID)"))?["presentation"] as? [String: Any]) != nil
            }
            #expect(recorded)
            await #expect {
                _ = try await device.requestAuthorization(topic: Self.topic, options: [.alert], userAllows: true)
            } throws: { error in
                (error as? DeviceClientError)?.serverCode == .unexpectedMessage
            }
        }
    }

    @Test("an app's own configure is read by the device's door: what is not JSON, or the user's to set, is declined 400")
    func deviceConfigureRefusals() async throws {
        try await withEmulator { emulator in
            let (device, _, _) = try await self.phone(emulator)
            for (document, words) in [
                ("{not json", "must be a JSON object"),
                (#"{"authorization": {"status": "authorized"}}"#, "cannot set its own authorization"),
            ] {
                let error = await #expect(throws: DeviceClientError.self) {
                    _ = try await device.configure(topic: Self.topic, document: Array(document.utf8))
                }
                #expect(error?.code == .declined && error?.message.hasPrefix("400") == true, "\(document)")
                #expect(error?.message.contains(words) == true, "\(document): \(error?.message ?? "")")
            }
        }
    }

    @Test("the app and Notification Center through the admin API: errors name what is wrong")
    func adminErrors() async throws {
        try await withEmulator { emulator in
            let (device, token, provider) = try await self.phone(emulator)
            let unknown = String(repeating: "ab", count: 32)
            #expect(try await emulator.admin("/api/v1/devices/\(unknown)/app").status == 404)
            let bad = try await emulator.admin(
                "/api/v1/devices/\(token.hex)/app", method: "PUT",
                body: #"{"categories": [{"identifier": "A"}, {"identifier": "A"}]}"#)
            #expect(bad.status == 400)
            #expect(String(decoding: bad.body, as: UTF8.self).contains("categories[1].identifier"))
            #expect(
                try await emulator.admin("/api/v1/devices/\(token.hex)/app", method: "PUT", body: #"{"ringtone": "x"}"#).status
                    == 400)
            #expect(try await emulator.admin("/api/v1/devices/\(token.hex)/app", method: "POST").status == 405)

            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT",
                body: #"{"authorization": {"status": "authorized", "alert": true}}"#)
            let (one, _) = try await self.push(#"{"aps":{"alert":"1"}}"#, to: token, device: device, provider: provider)
            let (two, _) = try await self.push(#"{"aps":{"alert":"2"}}"#, to: token, device: device, provider: provider)
            #expect(try await emulator.admin("/api/v1/devices/\(token.hex)/delivered/nope", method: "DELETE").status == 404)
            #expect(
                try await emulator.adminObject("/api/v1/devices/\(token.hex)/delivered/\(one)", method: "DELETE")["removed"]
                    as? Int == 1)
            let left = try await emulator.adminObject("/api/v1/devices/\(token.hex)/delivered")
            #expect((left["items"] as? [[String: Any]])?.compactMap { $0["uniqueId"] as? String } == [two])
            #expect(
                try await emulator.admin("/api/v1/notifications/\(one)/respond", method: "POST", body: #"{"action": "default"}"#)
                    .status == 409)
            #expect(
                try await emulator.admin("/api/v1/notifications/nope/respond", method: "POST", body: #"{"action": "default"}"#)
                    .status == 404)
            #expect(
                try await emulator.admin(
                    "/api/v1/notifications/\(two)/respond", method: "POST",
                    body: #"{"action": "default", "context": "lockscreen"}"#
                ).status == 400)
            #expect(
                try await emulator.adminObject("/api/v1/devices/\(token.hex)/delivered", method: "DELETE")["removed"] as? Int == 1
            )
        }
    }
}
