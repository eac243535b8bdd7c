import APNsDevice
import Foundation
import Testing

/// Background pushes as iOS treats them. Sources: Apple, "Pushing background updates to your
/// App" ("the system treats background notifications as low priority ... may throttle the
/// delivery"; "don't try to send more than two or three per hour"), and
/// `application(_:didReceiveRemoteNotification:fetchCompletionHandler:)` ("the system does not
/// automatically launch your app if the user has force-quit it").
@Suite("The phone: background pushes")
struct BackgroundPushTests {
    static let silent = Array(#"{"aps":{"content-available":1}}"#.utf8)

    func update(_ json: String) throws -> AppUpdate {
        try JSONDecoder().decode(AppUpdate.self, from: Data(json.utf8))
    }

    func push(_ app: AppModel, at millis: Int64) -> (Presentation, AppModel) {
        Presenter.present(payload: Self.silent, uniqueID: "u\(millis)", at: millis, to: app)
    }

    @Test("the budget: three an hour wake the app, the fourth is throttled, an hour later it wakes again")
    func budget() {
        var app = AppModel()
        app.appState = .background
        for minute in 0..<3 {
            let (presentation, after) = self.push(app, at: Int64(minute) * 60_000)
            #expect(presentation.appNotified && presentation.notDelivered == nil)
            app = after
        }
        let (throttled, after) = self.push(app, at: 10 * 60_000)
        #expect(!throttled.appNotified && throttled.notDelivered?.hasPrefix("throttled: 3 background pushes") == true)
        let (later, _) = self.push(after, at: 61 * 60_000)
        #expect(later.appNotified && later.notDelivered == nil)
    }

    @Test("force-quit: not delivered until the app comes to the foreground; Background App Refresh off: not delivered")
    func userSwitches() throws {
        var app = AppModel()
        app = try self.update(#"{"forceQuit": true, "appState": "background"}"#).applied(to: app)
        let (quit, _) = self.push(app, at: 0)
        #expect(!quit.appNotified && quit.notDelivered?.contains("force-quit") == true)
        app = try self.update(#"{"appState": "foreground"}"#).applied(to: app)
        app = try self.update(#"{"appState": "background"}"#).applied(to: app)
        #expect(self.push(app, at: 1).0.appNotified)
        app = try self.update(#"{"backgroundAppRefresh": false}"#).applied(to: app)
        #expect(self.push(app, at: 2).0.notDelivered == "Background App Refresh is off for the app in Settings")
        // In the foreground the app is told whatever the switches.
        app.appState = .foreground
        #expect(self.push(app, at: 3).0.appNotified)
    }
}
