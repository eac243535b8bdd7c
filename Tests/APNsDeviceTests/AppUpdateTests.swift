import APNsDevice
import Foundation
import Testing

@Suite("The phone: settings and categories as documents")
struct AppUpdateTests {
    func decode(_ json: String) throws -> AppUpdate {
        try JSONDecoder().decode(AppUpdate.self, from: Data(json.utf8))
    }

    @Test("a partial update changes only what it names")
    func partial() throws {
        let update = try self.decode(#"{"authorization":{"status":"authorized","alert":true},"appState":"background","badge":3}"#)
        var app = AppModel()
        app.language = "de"
        app = update.applied(to: app)
        #expect(app.authorization == Authorization(status: .authorized, alert: true))
        #expect(app.appState == .background && app.badge == 3 && app.language == "de")
    }

    @Test("denied allows nothing whatever its flags say")
    func deniedFlags() throws {
        #expect(
            try self.decode(#"{"authorization":{"status":"denied","alert":true}}"#).authorization
                == Authorization(status: .denied))
    }

    // Seed 000, "Registering Your Actionable Notification Types": each category must be unique.
    @Test("categories: duplicates, unknown options and minimal lists naming no action are refused by field")
    func categories() throws {
        let good = try self.decode(
            #"{"categories":[{"identifier":"C","actions":[{"identifier":"A","title":"Go","options":["foreground","destructive"],"textInput":{"buttonTitle":"Send","placeholder":"Say"}}],"minimalActions":["A"],"options":["customDismissAction"]}]}"#
        )
        let category = try #require(good.categories?.first)
        #expect(category.customDismissAction && category.actions[0].foreground && category.actions[0].destructive)
        #expect(category.actions[0].textInput == .init(buttonTitle: "Send", placeholder: "Say"))

        let refusals: [(String, String)] = [
            (#"{"categories":[{"identifier":"C"},{"identifier":"C"}]}"#, "categories[1].identifier"),
            (
                #"{"categories":[{"identifier":"C","actions":[{"identifier":"A","title":"a"},{"identifier":"A","title":"b"}]}]}"#,
                "categories[0].actions[1].identifier"
            ),
            (#"{"categories":[{"identifier":"C","minimalActions":["X"]}]}"#, "categories[0].minimalActions[0]"),
            (#"{"categories":[{"identifier":"C","options":["loud"]}]}"#, "categories[0].options"),
            (#"{"color":"red"}"#, "color"),
            (#"{"appState":"asleep"}"#, "appState"),
            (#"{"badge":-1}"#, "badge"),
            (#"{"sounds":{"a.caf":-2}}"#, "sounds.a.caf"),
        ]
        for (json, field) in refusals {
            do {
                _ = try self.decode(json)
                Issue.record("\(json) was taken")
            } catch let error as DeviceModelError {
                #expect(error.field == field, "\(json): \(error.message)")
            }
        }
    }

    @Test("UserNotifications' spellings are taken too: flags for options, textInputButtonTitle, intentIdentifiers")
    func aliases() throws {
        let update = try self.decode(
            #"{"categories":[{"identifier":"C","intentIdentifiers":[],"customDismissAction":true,"actions":[{"identifier":"R","title":"Reply","foreground":true,"textInputButtonTitle":"Send","textInputPlaceholder":"Say"}]}]}"#
        )
        let category = try #require(update.categories?.first)
        #expect(category.customDismissAction && category.actions[0].foreground && !category.actions[0].destructive)
        #expect(category.actions[0].textInput == .init(buttonTitle: "Send", placeholder: "Say"))
    }

    @Test("a presentation's suppressed parts are an object from what to why in JSON, and read back")
    func suppressedJSON() throws {
        var app = AppModel()
        app.authorization = Authorization(status: .authorized, alert: true)
        let presentation = Presenter.present(
            payload: Array(#"{"aps":{"alert":"x","sound":"default","badge":1}}"#.utf8), uniqueID: "u", at: 1, to: app
        ).0
        let json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(presentation)) as? [String: Any])
        #expect((json["suppressed"] as? [String: String])?.keys.sorted() == ["badge", "sound"])
        #expect(try JSONDecoder().decode(Presentation.self, from: JSONEncoder().encode(presentation)) == presentation)
    }

    @Test("an app round-trips through JSON unchanged (as the store keeps it)")
    func roundTrip() throws {
        var app = AppModel()
        app.categories = [UserResponseTests.invite]
        app.foregroundOptions = ForegroundOptions(banner: true, sound: true)
        app.strings = ["en": ["K": "V"]]
        app.sounds = ["a.caf": 1]
        app =
            Presenter.present(
                payload: Array(#"{"aps":{"alert":"x","category":"INVITE"}}"#.utf8), uniqueID: "u", at: 1,
                to: AppUpdate(authorization: Authorization(status: .authorized, alert: true)).applied(to: app)
            ).1
        let decoded = try JSONDecoder().decode(AppModel.self, from: JSONEncoder().encode(app))
        #expect(decoded == app)
        #expect(decoded.delivered.count == 1)
    }
}
