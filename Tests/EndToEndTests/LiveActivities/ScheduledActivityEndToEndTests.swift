import APNsTestSupport
import Foundation
import Testing

/// iOS 26's scheduled Live Activities end to end (issue 41): Apple, `Activity.request(attributes:
/// content:pushType:style:alertConfiguration:start:)` and `ActivityState.pending`. Through the
/// admin API and the device protocol; pending until the emulator's clock reaches the start.
@Suite("Scheduled Live Activities over the admin API and the device protocol")
struct ScheduledActivityEndToEndTests {
    static let types = #"{"Match": {"attributes": {"home": "string"}, "contentState": {"score": "string"}}}"#

    static func request(start: Int64, style: String = "standard") -> String {
        #"{"attributes-type": "Match", "attributes": {"home": "Lyon"}, "content-state": {"score": "0-0"}, "pushType": "token", "start": \#(start), "style": "\#(style)", "alertConfiguration": {"title": "Kick-off", "body": "Lyon are on", "sound": "whistle.caf"}}"#
    }

    @Test(
        "admin API: 201 pending with its start; a push update while pending; active with its alert once the clock passes the start"
    )
    func adminAPI() async throws {
        try await withEmulator { emulator in
            let created = try await emulator.adminObject(
                "/api/v1/devices", method: "POST", body: #"{"topic": "\#(LiveActivityTests.bundle)"}"#, status: 201)
            let token = try #require(created["token"] as? String)
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token)/app", method: "PUT",
                body:
                    #"{"activityTypes": \#(Self.types), "iosVersion": "26.0", "authorization": {"status": "authorized", "sound": true, "alert": true}}"#
            )
            // The clock has not moved: the emulator's now is the real one.
            let nowMillis = Int64(Date().timeIntervalSince1970 * 1000)
            let start = nowMillis / 1000 + 3600
            let activity = try await emulator.adminObject(
                "/api/v1/devices/\(token)/activities", method: "POST", body: Self.request(start: start), status: 201)
            #expect(activity["activityState"] as? String == "pending" && activity["scheduledStart"] is String)
            #expect((activity["alertConfiguration"] as? [String: Any])?["title"] as? String == "Kick-off")
            let id = try #require(activity["id"] as? String)
            let updateToken = try #require(activity["updateToken"] as? String)

            let provider = try await emulator.http2Client()
            let update = try await LiveActivityTests.send(
                provider, updateToken,
                #"{"aps": {"event": "update", "timestamp": \#(nowMillis / 1000), "content-state": {"score": "warm-up"}}}"#)
            #expect(update.status == 200)
            let pending = try await emulator.adminObject("/api/v1/activities/\(id)")
            #expect(pending["activityState"] as? String == "pending")
            #expect(pending["contentState"] as? [String: String] == ["score": "warm-up"])

            _ = try await emulator.adminObject("/api/v1/clock", method: "POST", body: #"{"advance": "61m"}"#)
            let started = try await emulator.adminObject("/api/v1/activities/\(id)")
            #expect(started["activityState"] as? String == "active", "\(started)")
            let alert = try #require(started["alert"] as? [String: Any])
            #expect(alert["title"] as? String == "Kick-off" && alert["sound"] as? String == "whistle.caf")
            let refused = try await emulator.admin(
                "/api/v1/devices/\(token)/activities", method: "POST",
                body: Self.request(start: start).replacingOccurrences(
                    of: #", "alertConfiguration": {"title": "Kick-off", "body": "Lyon are on", "sound": "whistle.caf"}"#, with: ""
                ))
            #expect(refused.status == 400 && refused.text.contains("alertConfiguration"), "\(refused.text)")
        }
    }

    @Test(
        "device protocol: a start with a start date answers pending with its start; ended while pending it leaves at once")
    func deviceProtocol() async throws {
        try await withEmulator { emulator in
            let device = try await emulator.device("phone")
            let token = try await device.register(topic: LiveActivityTests.bundle)
            _ = try await device.declareActivityTypes(topic: LiveActivityTests.bundle, document: Array(Self.types.utf8))
            _ = try await emulator.adminObject(
                "/api/v1/devices/\(token.hex)/app", method: "PUT", body: #"{"iosVersion": "26.0"}"#)
            let start = Int64(Date().timeIntervalSince1970) + 7200
            let started = try await device.startActivity(
                topic: LiveActivityTests.bundle, document: Array(Self.request(start: start, style: "transient").utf8))
            #expect(started.activityState == "pending" && started.scheduledStart != nil, "\(started)")
            let ended = try await device.endActivity(topic: LiveActivityTests.bundle, id: started.id, document: Array("{}".utf8))
            #expect(ended.activityState == "dismissed", "a scheduled activity that ends never showed: it leaves at once")
        }
    }

    // Issue 41: the iPhone's paired surfaces (ActivityKit: the watch's Smart Stack, CarPlay's Home
    // Screen, the Mac's menu bar), in WidgetKit's ActivityFamily where the type declares it.
    @Test("admin API: an activity's surfaces, switched per device, in the size class its type declares")
    func surfaces() async throws {
        try await withEmulator { emulator in
            let created = try await emulator.adminObject(
                "/api/v1/devices", method: "POST", body: #"{"topic": "\#(LiveActivityTests.bundle)"}"#, status: 201)
            let token = try #require(created["token"] as? String)
            let types =
                #"{"Match": {"attributes": {"home": "string"}, "contentState": {"score": "string"}, "supplementalActivityFamilies": ["small"]}}"#
            let app = try await emulator.adminObject(
                "/api/v1/devices/\(token)/app", method: "PUT",
                body: #"{"activityTypes": \#(types), "iosVersion": "26.0", "pairedSurfaces": ["watch", "macMenuBar"]}"#)
            #expect(app["pairedSurfaces"] as? [String] == ["watch", "macMenuBar"])
            let activity = try await emulator.adminObject(
                "/api/v1/devices/\(token)/activities", method: "POST",
                body: #"{"attributes-type": "Match", "attributes": {"home": "Lyon"}, "content-state": {"score": "1-0"}}"#,
                status: 201)
            let surfaces = try #require(activity["surfaces"] as? [[String: Any]])
            #expect(surfaces.map { $0["surface"] as? String } == ["watch", "macMenuBar"])
            #expect(surfaces.map { $0["family"] as? String } == ["small", "compact"])
            #expect(surfaces.allSatisfy { $0["shown"] as? Bool == true })
            let bad = try await emulator.admin(
                "/api/v1/devices/\(token)/app", method: "PUT", body: #"{"pairedSurfaces": ["tv"]}"#)
            #expect(bad.status == 400 && bad.text.contains("carPlay"))
        }
    }
}
