import APNsCore
import APNsDevice
import APNsStore
import APNsTestSupport
import Logging
import Testing

@Suite("Store: the phone's apps")
struct AppStoreTests {
    static let install = AppInstall(deviceID: "iphone", topic: "com.example.app")
    static let other = AppInstall(deviceID: "iphone", topic: "com.example.app.other")

    func delivered(_ id: String, at: Int64) -> DeliveredNotification {
        var presentation = Presentation()
        presentation.shown = true
        presentation.body = id
        return DeliveredNotification(uniqueID: id, presentedAt: at, presentation: presentation)
    }

    @Test("settings and Notification Center are written apart and read back together, per app; reset empties what it should")
    func saveAndRead() async throws {
        let directory = try TemporaryDirectory()
        let store = try NotificationStore(
            configuration: StoreConfiguration(directory: directory.appending("data")), logger: Logger(label: "test"))
        #expect(try store.app(Self.install) == nil)

        var app = AppModel()
        app.authorization = Authorization(status: .authorized, alert: true)
        app.categories = [NotificationCategory(identifier: "C", actions: [NotificationAction(identifier: "A", title: "a")])]
        app.delivered = [self.delivered("u1", at: 10), self.delivered("u2", at: 20)]
        #expect(try await store.submit([.saveApp(AppChange(install: Self.install, from: nil, to: app))]) == [.appSaved])
        #expect(try store.app(Self.install) == app)
        #expect(try store.app(Self.other) == nil)
        #expect(try store.appInstalls() == [Self.install])

        // Only the difference is written: one removed, one added, the settings unchanged.
        var after = app
        after.removeDelivered("u1")
        after.addDelivered(self.delivered("u3", at: 30))
        let change = AppChange(install: Self.install, from: app, to: after)
        #expect(change.settings == nil && change.removed.map(\.uniqueID) == ["u1"] && change.added.map(\.uniqueID) == ["u3"])
        _ = try await store.submit([.saveApp(change)])
        #expect(try store.app(Self.install)?.delivered.map(\.uniqueID) == ["u2", "u3"])

        // A reset empties Notification Center and keeps the settings; with devices, both go.
        _ = try await store.submit([.clear(devices: false)])
        let kept = try #require(try store.app(Self.install))
        #expect(kept.delivered.isEmpty && kept.categories == app.categories)
        _ = try await store.submit([.clear(devices: true)])
        #expect(try store.app(Self.install) == nil)
        store.close()
        try directory.remove()
    }

    @Test("an app whose keys would be too long for LMDB is refused alone, not its batch")
    func tooLong() async throws {
        let directory = try TemporaryDirectory()
        let store = try NotificationStore(
            configuration: StoreConfiguration(directory: directory.appending("data")), logger: Logger(label: "test"))
        let long = AppInstall(deviceID: String(repeating: "d", count: 300), topic: String(repeating: "t", count: 255))
        var app = AppModel()
        app.badge = 1
        let outcomes = try await store.submit([
            .saveApp(AppChange(install: long, from: nil, to: app)),
            .saveApp(AppChange(install: Self.install, from: nil, to: app)),
        ])
        guard case .refused = outcomes[0] else {
            Issue.record("a too-long app was written: \(outcomes)")
            return
        }
        #expect(outcomes[1] == .appSaved)
        #expect(try store.app(Self.install)?.badge == 1)
        store.close()
        try directory.remove()
    }
}
