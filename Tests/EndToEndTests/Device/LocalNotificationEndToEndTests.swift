import APNsCore
import APNsDevice
import APNsDeviceClient
import APNsInspection
import APNsTestSupport
import Foundation
import Testing

/// Local notifications over real sockets: scheduled through the admin API, fired by the moved
/// clock, journaled and presented like remote ones.
@Suite("Local notifications, end to end")
struct LocalNotificationEndToEndTests {
    static let topic = "com.example.local"

    /// A token no device holds, its app allowed to alert, in UTC.
    func app(_ emulator: RunningEmulator) async throws -> String {
        let issued = try await emulator.adminObject(
            "/api/v1/devices", method: "POST", body: #"{"topic": "\#(Self.topic)"}"#, status: 201)
        let token = try #require(issued["token"] as? String)
        _ = try await emulator.adminObject(
            "/api/v1/devices/\(token)/app", method: "PUT",
            body: #"{"authorization": {"status": "authorized", "alert": true, "sound": true}, "timeZone": "UTC"}"#)
        return token
    }

    func schedule(
        _ emulator: RunningEmulator, _ token: String, _ id: String, title: String = "Stand up", trigger: String
    ) async throws -> [String: Any] {
        try await emulator.adminObject(
            "/api/v1/devices/\(token)/pending", method: "POST",
            body:
                #"{"identifier": "\#(id)", "content": {"title": "\#(title)", "body": "now", "userInfo": {"k": [1, 2]}}, "trigger": \#(trigger)}"#,
            status: 201
        )
    }

    func local(_ emulator: RunningEmulator) async throws -> [[String: Any]] {
        try await emulator.journal("interface=local")
    }

    func advance(_ emulator: RunningEmulator, _ by: String) async throws {
        _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "\#(by)"}"#)
    }

    @Test("an interval fires after the clock reaches it and not before, once; it is journaled and presented like a remote push")
    func interval() async throws {
        try await withEmulator { emulator in
            let token = try await self.app(emulator)
            let scheduled = try await self.schedule(
                emulator, token, "standup", trigger: #"{"type": "timeInterval", "seconds": 3600, "repeats": false}"#)
            #expect((scheduled["request"] as? [String: Any])?["nextFireAt"] is Int)
            let events = try await AdminEventStream.open(
                host: "127.0.0.1", port: emulator.adminPort, path: "/api/v1/events?token=\(token)")
            try await self.advance(emulator, "59m")
            #expect(try await self.local(emulator).isEmpty)
            #expect(try await emulator.adminObject("/api/v1/devices/\(token)/pending")["total"] as? Int == 1)
            try await self.advance(emulator, "2m")
            let fired = try await self.local(emulator)
            try #require(fired.count == 1)
            #expect(fired[0]["source"] as? String == "local" && fired[0]["topic"] as? String == Self.topic)
            #expect((fired[0]["payload"] as? [String: Any])?["k"] as? [Int] == [1, 2])
            #expect((fired[0]["presentation"] as? [String: Any])?["title"] as? String == "Stand up")
            #expect(try await emulator.adminObject("/api/v1/devices/\(token)/pending")["total"] as? Int == 0)
            // The event stream tells of it as of a remote push: accepted, presented, then delivered
            // (the phone took it; nothing waits in a queue).
            let told = try await events.waitForEvents(3)
            #expect(told.map(\.kind) == ["accepted", "presented", "delivered"])
            #expect(told.first?.data["source"] as? String == "local")
            try await events.close()
            try await self.advance(emulator, "2h")
            #expect(try await self.local(emulator).count == 1)
        }
    }

    @Test("a daily calendar request fires and stays pending for the next day")
    func daily() async throws {
        try await withEmulator { emulator in
            let token = try await self.app(emulator)
            let clock = try await emulator.adminObject("/api/v1/clock")
            let nowText = try #require(clock["now"] as? String)
            let now = try #require(Timestamp.parse(nowText))
            let utc = try #require(TimeZone(identifier: "UTC"))
            let inTwoHours = Calendar(identifier: .gregorian).dateComponents(
                in: utc, from: Date(timeIntervalSince1970: Double(now) / 1000 + 7200))
            let (hour, minute) = (try #require(inTwoHours.hour), try #require(inTwoHours.minute))
            let trigger = #"{"type": "calendar", "dateComponents": {"hour": \#(hour), "minute": \#(minute)}, "repeats": true}"#
            _ = try await self.schedule(emulator, token, "daily", trigger: trigger)
            try await self.advance(emulator, "3h")
            #expect(try await self.local(emulator).count == 1)
            let pending = try await emulator.adminObject("/api/v1/devices/\(token)/pending")
            let items = try #require(pending["items"] as? [[String: Any]])
            #expect(items.count == 1 && items[0]["identifier"] as? String == "daily")
            #expect((items[0]["nextFireAt"] as? Int ?? 0) > now + 86_400_000)
            try await self.advance(emulator, "1d")
            #expect(try await self.local(emulator).count == 2)
        }
    }

    @Test("a time-zone change: a floating 07:00 moves to 07:00 in the new zone, a fixed-zone one keeps its instant")
    func timeZones() async throws {
        try await withEmulator { emulator in
            let token = try await self.app(emulator)
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token)/app", method: "PUT", body: #"{"timeZone": "Europe/Paris"}"#)
            _ = try await self.schedule(
                emulator, token, "floating",
                trigger: #"{"type": "calendar", "dateComponents": {"hour": 7, "minute": 0}, "repeats": true}"#)
            _ = try await self.schedule(
                emulator, token, "fixed",
                trigger:
                    #"{"type": "calendar", "dateComponents": {"hour": 7, "minute": 0}, "timeZone": "Europe/Paris", "repeats": true}"#
            )
            func next() async throws -> [String: Int] {
                let listed = try await emulator.adminObject("/api/v1/devices/\(token)/pending")
                let items = try #require(listed["items"] as? [[String: Any]])
                return Dictionary(
                    uniqueKeysWithValues: items.compactMap { item in
                        (item["identifier"] as? String).map { ($0, item["nextFireAt"] as? Int ?? 0) }
                    })
            }
            let before = try await next()
            #expect(before["floating"] == before["fixed"])
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token)/app", method: "PUT", body: #"{"timeZone": "America/New_York"}"#)
            let after = try await next()
            #expect(after["fixed"] == before["fixed"])
            let floating = try #require(after["floating"])
            // 07:00 in New York, in UTC: 11:00 or 12:00 depending on daylight saving time.
            let hour = Calendar(identifier: .gregorian).dateComponents(
                in: try #require(TimeZone(identifier: "America/New_York")),
                from: Date(timeIntervalSince1970: Double(floating) / 1000)
            ).hour
            #expect(hour == 7)
            #expect(floating != before["floating"])
        }
    }

    @Test("a location request fires on entry, and only with location authorization")
    func location() async throws {
        try await withEmulator { emulator in
            let token = try await self.app(emulator)
            let louvre =
                #"{"type": "location", "latitude": 48.8606, "longitude": 2.3376, "radius": 200, "notifyOnEntry": true, "notifyOnExit": false}"#
            _ = try await self.schedule(emulator, token, "louvre", title: "Welcome", trigger: louvre)
            let inside = #"{"latitude": 48.8610, "longitude": 2.3380}"#
            let outside = #"{"latitude": 48.8738, "longitude": 2.2950}"#
            // Not authorized: the phone does not use the location.
            #expect(
                try await emulator.adminObject("/api/v1/devices/\(token)/location", method: "POST", body: inside)["fired"]
                    as? [String] == [])
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token)/app", method: "PUT", body: #"{"locationAuthorization": "authorizedWhenInUse"}"#)
            #expect(
                try await emulator.adminObject("/api/v1/devices/\(token)/location", method: "POST", body: outside)["fired"]
                    as? [String] == [])
            #expect(
                try await emulator.adminObject("/api/v1/devices/\(token)/location", method: "POST", body: inside)["fired"]
                    as? [String] == ["louvre"])
            let fired = try await self.local(emulator)
            #expect(fired.count == 1 && (fired.first?["presentation"] as? [String: Any])?["title"] as? String == "Welcome")
            #expect(try await emulator.adminObject("/api/v1/devices/\(token)/pending")["total"] as? Int == 0)
            #expect(
                try await emulator.admin(
                    "/api/v1/devices/\(token)/location", method: "POST", body: #"{"latitude": 123, "longitude": 0}"#
                ).status == 400)
        }
    }

    @Test("cancelling a request also takes what it showed out of Notification Center")
    func cancelDelivered() async throws {
        try await withEmulator { emulator in
            let token = try await self.app(emulator)
            _ = try await self.schedule(
                emulator, token, "hourly", trigger: #"{"type": "timeInterval", "seconds": 3600, "repeats": true}"#)
            try await self.advance(emulator, "61m")
            #expect(try await emulator.adminObject("/api/v1/devices/\(token)/delivered")["total"] as? Int == 1)
            #expect(
                try await emulator.adminObject("/api/v1/devices/\(token)/pending/hourly", method: "DELETE")["removed"] as? Int
                    == 1)
            #expect(try await emulator.adminObject("/api/v1/devices/\(token)/delivered")["total"] as? Int == 0)
        }
    }

    @Test("scheduling an identifier again replaces it; cancel removes one (404 after) or all")
    func replaceAndCancel() async throws {
        try await withEmulator { emulator in
            let token = try await self.app(emulator)
            _ = try await self.schedule(
                emulator, token, "a", title: "first", trigger: #"{"type": "timeInterval", "seconds": 600}"#)
            _ = try await self.schedule(
                emulator, token, "a", title: "second", trigger: #"{"type": "timeInterval", "seconds": 600}"#)
            _ = try await self.schedule(emulator, token, "b", trigger: #"{"type": "timeInterval", "seconds": 600}"#)
            let listed = try await emulator.adminObject("/api/v1/devices/\(token)/pending")
            let pending = try #require(listed["items"] as? [[String: Any]])
            #expect(pending.count == 2)
            #expect(
                ((pending.first { $0["identifier"] as? String == "a" })?["content"] as? [String: Any])?["title"] as? String
                    == "second")
            #expect(
                try await emulator.adminObject("/api/v1/devices/\(token)/pending/a", method: "DELETE")["removed"] as? Int == 1)
            #expect(try await emulator.admin("/api/v1/devices/\(token)/pending/a", method: "DELETE").status == 404)
            #expect(try await emulator.adminObject("/api/v1/devices/\(token)/pending", method: "DELETE")["removed"] as? Int == 1)
            try await self.advance(emulator, "1h")
            #expect(try await self.local(emulator).isEmpty)
            for body in [
                #"{"identifier": "x", "content": {}, "trigger": {"type": "timeInterval", "seconds": 30, "repeats": true}}"#,
                #"{"identifier": "x", "content": {"colour": 1}, "trigger": {"type": "timeInterval", "seconds": 30}}"#,
                #"{"identifier": "", "content": {}, "trigger": {"type": "timeInterval", "seconds": 30}}"#,
            ] {
                #expect(
                    try await emulator.admin("/api/v1/devices/\(token)/pending", method: "POST", body: body).status == 400,
                    "\(body)")
            }
        }
    }

    @Test("a request pending across a restart fires after it, once; a connected device receives it live")
    func restart() async throws {
        let directory = try TemporaryDirectory()
        let first = try await RunningEmulator.start(directory: directory)
        let device = try await first.device("alarm-phone")
        let token = try await device.register(topic: Self.topic)
        _ = try await device.requestAuthorization(topic: Self.topic, options: [.alert], userAllows: true)
        _ = try await self.schedule(
            first, token.hex, "wake", title: "Wake up", trigger: #"{"type": "timeInterval", "seconds": 3600}"#)
        try await device.close()
        try await first.stop()

        let second = try await RunningEmulator.start(directory: directory)
        let phone = try await second.device("alarm-phone")
        _ = try await phone.resume([token])
        try await self.advance(second, "2h")
        let notification = try await phone.next()
        #expect(notification.source == .local)
        let presentation = try await phone.presentation(of: notification.uniqueID)
        #expect(presentation.shown && presentation.title == "Wake up")
        try await self.advance(second, "2h")
        #expect(try await self.local(second).count == 1)
        try await second.stop()
    }

    @Test("the 65th pending request evicts the latest-firing one; a request later than all 64 is itself refused room")
    func limit() async throws {
        // Seed 003 (Scheduling a notification locally): the system keeps the soonest-firing 64
        // requests of an app and discards the rest.
        try await withEmulator { emulator in
            let token = try await self.app(emulator)
            for index in 0..<64 {
                let scheduled = try await self.schedule(
                    emulator, token, "r\(index)", trigger: #"{"type": "timeInterval", "seconds": \#(3600 + index * 60)}"#)
                #expect(scheduled["evicted"] as? [String] == [], "r\(index)")
            }
            let early = try await self.schedule(emulator, token, "early", trigger: #"{"type": "timeInterval", "seconds": 600}"#)
            #expect(early["evicted"] as? [String] == ["r63"])
            let late = try await self.schedule(emulator, token, "late", trigger: #"{"type": "timeInterval", "seconds": 86400}"#)
            #expect(late["evicted"] as? [String] == ["late"])
            let listed = try await emulator.adminObject("/api/v1/devices/\(token)/pending")
            let identifiers = try #require(listed["items"] as? [[String: Any]]).compactMap { $0["identifier"] as? String }
            #expect(listed["total"] as? Int == 64 && identifiers.count == 64)
            #expect(
                identifiers.contains("early") && identifiers.contains("r62") && !identifiers.contains("r63")
                    && !identifiers.contains("late"))
            // The one pushed out never fires.
            try await self.advance(emulator, "2d")
            let fired = try await self.local(emulator)
            #expect(fired.count == 64)
        }
    }
}
