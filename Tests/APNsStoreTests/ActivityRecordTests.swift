import APNsCore
import APNsDevice
import APNsStore
import APNsTestSupport
import Logging
import Testing

/// Apps' Live Activities are written by hand, not by JSONEncoder (a broadcast rewrites every
/// subscriber's): what the store reads back must be what was saved, every member and value.
@Suite("Store: Live Activities in an app's record")
struct ActivityRecordTests {
    static let install = AppInstall(deviceID: "iphone", topic: "com.example.match")

    /// Every optional member set, awkward strings and numbers.
    static func full() -> LiveActivity {
        let tricky = "quote \" backslash \\ newline \n tab \t control \u{01} é 🏟️ \"activities\":[]"
        var activity = LiveActivity(
            id: "A1", attributesType: "Match",
            attributes: .object([
                "home": .string(tricky), "round": .number(3), "tags": .array([.string("a"), .null, .bool(true)]),
            ]),
            contentState: .object([
                "score": .string("1-0"), "odds": .number(0.25), "tiny": .number(1e-7), "huge": .number(1e20),
                "minus": .number(-3), "nested": .object(["x": .array([])]),
            ]),
            startedBy: "push-to-start", at: 1_700_000_000_123)
        activity.activityState = .stale
        activity.staleDate = 1_700_000_100_000
        activity.dismissalDate = 1_700_000_200_000
        activity.relevanceScore = 0.75
        activity.updateToken = "ab12"
        activity.channelID = "q0Xf3x1bSxmZ7k2Vf3Jt8A=="
        activity.endedAt = 1_700_000_150_000
        activity.lastTimestamp = 1_700_000_000.5
        activity.alert = ActivityAlert(title: "Goal", body: tricky, sound: "default")
        activity.alertedAt = 1_700_000_050_000
        var item = ActivityHistoryItem(
            at: 1_700_000_050_000, event: "update", outcome: .ignored("stale-timestamp"), reason: tricky, uniqueID: "u-1",
            priority: 10)
        item.code = "stale-timestamp"
        activity.history = [item, ActivityHistoryItem(at: 1_700_000_000_123, event: "start", outcome: .started)]
        return activity
    }

    @Test("activities with every member set, and with none of the optional ones, read back equal; the app's other settings too")
    func roundTrip() async throws {
        let directory = try TemporaryDirectory()
        let store = try NotificationStore(
            configuration: StoreConfiguration(directory: directory.appending("data")), logger: Logger(label: "test"))
        var app = AppModel()
        app.authorization = Authorization(status: .authorized, alert: true)
        app.categories = [
            NotificationCategory(identifier: #"C "activities":[] "#, actions: [NotificationAction(identifier: "A", title: "a")])
        ]
        let bare = LiveActivity(
            id: "A2", attributesType: "Match", attributes: .object([:]), contentState: .null, startedBy: "app", at: 5)
        app.activities = [Self.full(), bare]
        #expect(try await store.submit([.saveApp(AppChange(install: Self.install, from: nil, to: app))]) == [.appSaved])
        let read = try #require(try store.app(Self.install))
        #expect(read.activities == app.activities)
        #expect(read == app)
    }
}
