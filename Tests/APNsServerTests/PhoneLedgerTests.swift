import APNsCore
import APNsDevice
import APNsStore
import Testing

@testable import APNsServer

/// The phone's state split by concern (issue 39): the presentation ledger and the Live
/// Activity index, each under a lock of its own, tested without an emulator.
@Suite("Phone ledgers")
struct PhoneLedgerTests {
    static let install = AppInstall(deviceID: "phone-1", topic: "com.example.app")
    static let token = DeviceToken(hex: String(repeating: "ab", count: 32))!

    static func decision(_ style: String = "banner") -> PresentationLedger.Decision {
        var presentation = Presentation()
        presentation.notes = [style]
        return .init(install: Self.install, token: Self.token, presentation: presentation)
    }

    @Test("a decision is remembered until the device acknowledges it; recording one again keeps the first place in line")
    func decisions() {
        let ledger = PresentationLedger(limit: 100)
        #expect(ledger.decision("n1") == nil)
        ledger.record("n1", Self.decision())
        #expect(ledger.decision("n1")?.presentation.notes == ["banner"])
        #expect(ledger.decision("n1")?.install == Self.install)
        ledger.record("n1", Self.decision("again"))
        #expect(ledger.count == 1)
        ledger.forget("n1")
        #expect(ledger.decision("n1") == nil)
        #expect(ledger.count == 0)
    }

    @Test("past the limit the oldest tenth is forgotten, the newest kept")
    func limit() {
        let ledger = PresentationLedger(limit: 20)
        for index in 0...20 { ledger.record("n\(index)", Self.decision()) }
        #expect(ledger.count == 19)
        #expect(ledger.decision("n0") == nil && ledger.decision("n1") == nil)
        #expect(ledger.decision("n2") != nil && ledger.decision("n20") != nil)
    }

    @Test("a fired local notification's request is taken once, when it is presented; a reset forgets decisions")
    func localRequests() {
        let ledger = PresentationLedger()
        ledger.fired("n1", from: "reminder")
        ledger.record("n2", Self.decision())
        ledger.removeAll()
        #expect(ledger.decision("n2") == nil)
        #expect(ledger.takeLocalRequest("n1") == "reminder")
        #expect(ledger.takeLocalRequest("n1") == nil)
    }

    @Test("recorded from many threads at once: nothing lost")
    func concurrent() async {
        let ledger = PresentationLedger(limit: 100_000)
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<4 {
                group.addTask { for index in 0..<2_000 { ledger.record("t\(task)-\(index)", Self.decision()) } }
            }
        }
        #expect(ledger.count == 8_000)
    }

    @Test(
        "Live Activity tokens: a rotation withdraws the old token from the index and the store, registers the new under the activity topic"
    )
    func activityTokens() throws {
        var index = ActivityIndex(limits: ActivityLimits())
        let old = String(repeating: "01", count: 32)
        let new = String(repeating: "02", count: 32)
        index.tokens[try #require(DeviceToken(hex: old))] = LiveActivities.ActivityKey(
            install: Self.install, target: .activity("a1"))
        let operations = index.apply(
            [ActivityTokenChange(.update, activityID: "a1", token: new, replaced: old)], Self.install,
            topicSuffix: ".push-type.liveactivity", environment: .production)
        #expect(index.tokens[try #require(DeviceToken(hex: old))] == nil)
        #expect(operations.count == 2)
        guard case .unregister(let withdrawn) = operations.first,
            case .register(let issued, let topic, let deviceID, let environment) = operations.last
        else {
            Issue.record("expected unregister then register, got \(operations)")
            return
        }
        #expect(withdrawn.hex == old && issued.hex == new)
        #expect(topic == "com.example.app.push-type.liveactivity" && deviceID == "phone-1")
        #expect(environment == .production, "the app build's environment")
    }

    @Test("an app with a push-to-start token is indexed under it; one with nothing the clock changes is not clocked")
    func pushToStart() throws {
        var index = ActivityIndex(limits: ActivityLimits())
        var app = AppModel()
        app.pushToStartToken = String(repeating: "03", count: 32)
        index.track(app, Self.install)
        #expect(
            index.tokens[try #require(DeviceToken(hex: String(repeating: "03", count: 32)))]
                == LiveActivities.ActivityKey(install: Self.install, target: .pushToStart))
        #expect(!index.clocked.contains(Self.install))
    }
}
