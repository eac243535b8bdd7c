import APNsDevice
import Testing

@Suite("The phone: authorization")
struct AuthorizationTests {
    // Seed 002, "Requesting Authorization to Interact with the User": the first request prompts
    // the user, whose answer is saved; later requests do not prompt. Seed 000 says the same of
    // registerUserNotificationSettings: on later calls the existing settings come back.
    @Test("the first request prompts and saves the answer; later ones return it without prompting")
    func firstRequestPrompts() {
        let first = Authorization.notDetermined.request([.alert, .sound], userAllows: true)
        #expect(first.prompted && first.granted)
        #expect(first.authorization == Authorization(status: .authorized, alert: true, sound: true, badge: false))

        let again = first.authorization.request([.alert, .sound], userAllows: false)
        #expect(!again.prompted && again.granted && again.authorization == first.authorization)

        // Asking for more than was granted: not granted, nothing changes.
        let more = first.authorization.request([.alert, .badge], userAllows: true)
        #expect(!more.prompted && !more.granted && more.authorization == first.authorization)
    }

    @Test("a user who says no: denied, and later requests stay denied")
    func denied() {
        let first = Authorization.notDetermined.request([.alert], userAllows: false)
        #expect(first.prompted && !first.granted && first.authorization.status == .denied)
        #expect(!first.authorization.request([.alert], userAllows: true).granted)
    }

    // Seed 002: the user can change the settings later (Settings); the next request returns them.
    @Test("a change in Settings is what the next request returns")
    func settingsChange() {
        var saved = Authorization.notDetermined.request([.alert, .sound], userAllows: true).authorization
        saved.sound = false
        let answer = saved.request([.alert, .sound], userAllows: true)
        #expect(!answer.granted && !answer.authorization.allowsSound && answer.authorization.allowsAlert)
    }

    @Test("options parse from a list and refuse unknown names")
    func options() throws {
        #expect(try Authorization.Options(list: "alert, badge") == [.alert, .badge])
        #expect(try Authorization.Options(list: "") == [])
        #expect(throws: DeviceModelError.self) { try Authorization.Options(list: "alert,vibrate") }
    }
}
