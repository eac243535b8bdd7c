import APNsCore
import APNsDevice
import Foundation
import Testing

/// The service extension's model. Sources: Apple, UNNotificationServiceExtension (runs for an
/// alert with `mutable-content: 1`; the content handler gets `UNNotificationContent`: title,
/// subtitle, body, userInfo, categoryIdentifier, threadIdentifier), "Modifying content in newly
/// delivered notifications" (not when alerts are off, nor for a sound or badge only),
/// UNNotificationAttachment ("Supported file types": types and largest sizes).
@Suite("The phone: the notification service extension")
struct ServiceExtensionTests {
    static let payload = Array(
        #"{"aps":{"alert":{"title":"Hi","body":"(sealed)"},"mutable-content":1,"category":"MSG","sound":"default"},"k":"v"}"#.utf8
    )

    func app(_ serviceExtension: String = #"{"command": "cat"}"#) throws -> AppModel {
        let update = try JSONDecoder().decode(
            AppUpdate.self,
            from: Data(
                #"{"authorization": {"status": "authorized", "alert": true, "sound": true, "badge": true}, "serviceExtension": \#(serviceExtension)}"#
                    .utf8))
        return update.applied(to: AppModel())
    }

    @Test("declared as exactly one of command, url or device, with a timeout of 30 s unless given")
    func declaration() throws {
        #expect(try self.app().serviceExtension == ServiceExtension(.command("cat")))
        #expect(
            try self.app(#"{"device": true, "timeout": "500ms"}"#).serviceExtension
                == ServiceExtension(.device, timeoutMillis: 500))
        // Each refusal names what is wrong with the declaration.
        for (bad, words) in [
            (#"{}"#, "takes exactly one of command"), (#"{"command": "a", "device": true}"#, "takes exactly one of command"),
            (#"{"url": "https://x.example/"}"#, "is not an http:// URL with a host"),
            (#"{"url": "http://"}"#, "is not an http:// URL with a host"),
            (#"{"command": "a", "timeout": "forever"}"#, "timeout forever is not a duration"),
            (#"{"command": "a", "retries": 1}"#, "has no field retries"),
        ] {
            #expect("\(bad)") { _ = try self.app(bad) } throws: { error in
                (error as? DeviceModelError).map { "\($0)".contains(words) } ?? false
            }
        }
        let removed = try JSONDecoder().decode(AppUpdate.self, from: Data(#"{"serviceExtension": null}"#.utf8))
        #expect(removed.applied(to: try self.app()).serviceExtension == nil)
    }

    @Test("it runs for an alert with mutable-content the app may display, and is handed the content with the whole payload")
    func employed() throws {
        let app = try self.app()
        let content = try #require(Presenter.extensionContent(payload: Self.payload, app: app))
        #expect(content.title == "Hi" && content.body == "(sealed)" && content.categoryIdentifier == "MSG")
        #expect(content.userInfo["k"]?.string == "v" && content.userInfo["aps"]?["mutable-content"]?.isOne == true)
        var alertsOff = app
        alertsOff.authorization.alert = false
        #expect(Presenter.extensionContent(payload: Self.payload, app: alertsOff) == nil)
        #expect(Presenter.extensionContent(payload: Array(#"{"aps":{"badge":1,"mutable-content":1}}"#.utf8), app: app) == nil)
        #expect(Presenter.extensionContent(payload: Array(#"{"aps":{"alert":"x"}}"#.utf8), app: app) == nil)
        #expect(Presenter.extensionContent(payload: Self.payload, app: AppModel()) == nil)
    }

    @Test("a reply replaces what it gives and keeps the rest; one with an unknown member or a wrong type is refused by name")
    func reply() throws {
        let content = try #require(Presenter.extensionContent(payload: Self.payload, app: try self.app()))
        let replied = try content.replied(Array(#"{"body": "open sesame", "userInfo": {"k": "w"}}"#.utf8)).get()
        #expect(replied.title == "Hi" && replied.body == "open sesame" && replied.categoryIdentifier == "MSG")
        let payload = try #require(JSONValue.parse(replied.payload(replacing: Self.payload)))
        #expect(payload["aps"]?["alert"]?["body"]?.string == "open sesame" && payload["aps"]?["sound"]?.string == "default")
        #expect(payload["k"]?.string == "w")
        let (presentation, _) = Presenter.present(
            extended: ServiceExtensionReport(outcome: .modified, kind: "command", original: content, tookMs: 3),
            content: replied, original: Self.payload, uniqueID: "u", at: 0, to: try self.app())
        #expect(presentation.body == "open sesame" && presentation.serviceExtension?.original.body == "(sealed)")
        #expect(presentation.sound == "default")
        for (bad, named) in [
            ("[]", "not a JSON object"), (#"{"bodyy": "x"}"#, "bodyy"), (#"{"title": 1}"#, "title must be a string"),
        ] {
            guard case .failure(let error) = content.replied(Array(bad.utf8)) else {
                Issue.record("\(bad) was taken")
                continue
            }
            #expect(error.description.contains(named), "\(error)")
        }
    }

    @Test("attachments: a supported type within its size is shown; another type, a larger file or none at all is not")
    func attachments() {
        func checked(_ url: String, _ size: Int?) -> ExtensionAttachment {
            var attachment = ExtensionAttachment(identifier: "a", url: url)
            attachment.check(size: size)
            return attachment
        }
        #expect(checked("file:///tmp/a.PNG", 1 << 20).accepted && checked("/tmp/a.png", 1).kind == "image")
        #expect(!checked("/tmp/a.png", 11 << 20).accepted && checked("/tmp/a.png", 11 << 20).reason?.contains("10 MB") == true)
        #expect(checked("/tmp/a.mp3", 5 << 20).accepted && !checked("/tmp/a.mp3", (5 << 20) + 1).accepted)
        #expect(checked("/tmp/a.mp4", 50 << 20).accepted && !checked("/tmp/a.webp", 10).accepted)
        #expect(checked("/tmp/missing.jpg", nil).reason?.contains("not a file") == true)
    }
}
