import APNsCore
import APNsDevice
import Testing

@testable import APNsInspection

/// Issue 50: every row says what the phone did beside the relay's status, and `q` searches what a
/// person reads (the phone's texts, a web push's decrypted message, reasons) as well as what was sent.
@Suite("Phone outcome and search")
struct PhoneOutcomeTests {
    static func entry(
        _ n: Int, status: JournalStatus = .delivered, payload: String = #"{"aps":{"alert":"hi"}}"#,
        presentation: Presentation? = nil, activity: ActivityRecord? = nil
    ) -> JournalEntry {
        var state = JournalState(capacity: 4)
        let notification = Notification(
            apnsID: "apns-\(n)", uniqueID: "unique-\(n)", token: DeviceToken(hex: String(repeating: "ab", count: 32))!,
            topic: "com.example.shop", pushType: .alert, priority: .immediate, expiration: nil, collapseID: "order-\(n)",
            payload: Array(payload.utf8), receivedAt: 1_000, source: .http2)
        let id = state.add(JournalEntry(id: 0, push: .accepted(notification), status: status, statusAt: nil, sequence: 1))
        _ = state.modify(uniqueID: "unique-\(n)") { entry in
            if let presentation { entry.phone = PhoneRecord(presentation: presentation, response: nil) }
            entry.activity = activity
        }
        return state.entry(id: id)!
    }

    @Test("a Live Activity start the phone did not start is notShown with its code, not a green 'delivered'")
    func activity() {
        // ActivityKit: a push-to-start needs an alert (Apple, "Starting and updating Live Activities with
        // ActivityKit push notifications"); the journal's activity record carries missing-alert.
        let refused = Self.entry(
            1,
            activity: ActivityRecord(id: nil, event: "start", outcome: "not started", code: "missing-alert", reason: "no alert"))
        #expect(PhoneOutcome(of: refused) == PhoneOutcome(.notShown, "activity not started (missing-alert)"))
        let started = Self.entry(2, activity: ActivityRecord(id: "a", event: "start", outcome: "started", code: nil, reason: nil))
        #expect(PhoneOutcome(of: started).state == .shown)
        let ended = Self.entry(3, activity: ActivityRecord(id: "a", event: "end", outcome: "applied", code: nil, reason: nil))
        #expect(PhoneOutcome(of: ended).text == "activity ended")
        let ignored = Self.entry(
            4, activity: ActivityRecord(id: "a", event: "update", outcome: "ignored", code: "stale-timestamp", reason: "older"))
        #expect(PhoneOutcome(of: ignored) == PhoneOutcome(.notShown, "activity update ignored (stale-timestamp)"))
    }

    @Test("presentations: shown by style, silent to the app, suppressed with the reason, web pushes by where they went")
    func presentations() {
        var banner = Presentation()
        banner.shown = true
        banner.style = .banner
        #expect(PhoneOutcome(of: Self.entry(1, presentation: banner)) == PhoneOutcome(.shown, "shown as banner"))
        // What held a quiet delivery, and a Focus broken through, in the row's words (issue 70).
        var quiet = banner
        quiet.style = .none
        quiet.deliveredQuietly = true
        quiet.heldBy = "focus"
        let held = PhoneOutcome(of: Self.entry(5, presentation: quiet))
        #expect(held == PhoneOutcome(.shown, "delivered quietly (a Focus held it)"))
        var through = banner
        through.brokeThrough = true
        #expect(PhoneOutcome(of: Self.entry(6, presentation: through)).text == "shown as banner, through a Focus")
        var silent = Presentation()
        silent.silent = true
        silent.appNotified = true
        #expect(PhoneOutcome(of: Self.entry(2, presentation: silent)) == PhoneOutcome(.app, "silent: the app was woken"))
        var denied = Presentation()
        denied.suppressed = [Suppression(what: "alert", reason: "alerts are off in Settings")]
        #expect(
            PhoneOutcome(of: Self.entry(3, presentation: denied))
                == PhoneOutcome(.notShown, "not shown (alert: alerts are off in Settings)"))
        var wake = Presentation()
        wake.wake = WakeOutcome(pushType: "widgets", target: "widgets", outcome: .notWoken, detail: "no widget")
        #expect(PhoneOutcome(of: Self.entry(4, presentation: wake)) == PhoneOutcome(.notShown, "widgets not woken"))
    }

    @Test("without a presentation: queued is waiting for the device; a rejection never reached the phone")
    func statuses() {
        #expect(PhoneOutcome(of: Self.entry(1, status: .queued)) == PhoneOutcome(.waiting, "waiting for the device"))
        #expect(PhoneOutcome(of: Self.entry(2, status: .expired)).state == .none)
        var state = JournalState(capacity: 2)
        var request = PushRequest(path: "/3/device/abcd")
        request.topic = "com.example.shop"
        let rejected = state.append(
            .rejected(RejectedPush(request, id: "r1", apnsID: nil, reason: "BadDeviceToken", httpStatus: 400, receivedAt: 1)),
            status: .rejected)
        #expect(PhoneOutcome(of: rejected) == PhoneOutcome(.rejected, "refused 400 BadDeviceToken"))
    }

    @Test(
        "q finds the phone's texts (not in the payload as sent), the payload, ids and reasons; case-insensitive; outcome filters")
    func search() throws {
        var shown = Presentation()
        shown.shown = true
        shown.style = .banner
        shown.title = "Breaking: tide is in"  // as localised by the phone: the payload holds only a loc-key
        var state = JournalState(capacity: 10)
        for (n, presentation, payload) in [
            (1, shown, #"{"aps":{"alert":{"title-loc-key":"TIDE"}}}"#), (2, nil, #"{"aps":{"alert":"Order 1042 shipped"}}"#),
        ] {
            let entry = Self.entry(n, payload: payload, presentation: presentation)
            state.add(entry)
        }
        var request = PushRequest(path: "/3/device/abcd")
        request.topic = "com.example.shop"
        var rejected = RejectedPush(request, id: "r1", apnsID: nil, reason: "BadDeviceToken", httpStatus: 400, receivedAt: 1)
        rejected.detail = "the token is not 64 hex digits"
        _ = state.append(.rejected(rejected), status: .rejected)
        func found(_ uri: String) throws -> [String] {
            state.page(matching: try JournalFilter.parse(QueryParameters(uri: uri)), limit: 10, before: nil).items.map(\.uniqueID)
        }
        #expect(try found("?q=TIDE%20is") == ["unique-1"])
        #expect(try found("?q=order+1042") == ["unique-2"])
        #expect(try found("?q=64+hex") == ["r1"])
        #expect(try found("?q=apns-2") == ["unique-2"])
        #expect(try found("?q=order-1") == ["unique-1"])
        #expect(try found("?q=nowhere").isEmpty)
        #expect(try found("?outcome=rejected") == ["r1"])
        #expect(try found("?outcome=shown&q=tide") == ["unique-1"])
        let misses = try JournalFilter.parse(QueryParameters(uri: "?q=nowhere")).misses(state.newestFirst().first { _ in true }!)
        #expect(misses == ["q: wanted text containing nowhere, found none"])
    }

    @Test("a quiet delivery: the timeline says what held it, and outcome=quiet (outcome:quiet in q) finds it among the shown")
    func quietDeliveries() throws {
        // Apple, "UNNotificationInterruptionLevel" and the Focus guide: a notification a Focus holds is
        // delivered quietly to Notification Center; one that breaks through is shown (issue 70).
        var banner = Presentation()
        banner.shown = true
        banner.style = .banner
        banner.title = "Lunch"
        var held = banner
        held.style = .none
        held.deliveredQuietly = true
        held.heldBy = "focus"
        var through = banner
        through.brokeThrough = true
        var state = JournalState(capacity: 10)
        for (n, presentation) in [(1, banner), (2, held), (3, through)] { state.add(Self.entry(n, presentation: presentation)) }
        #expect(DeliveryLog.summary(of: held) == "delivered quietly to Notification Center (a Focus held it): Lunch")
        #expect(DeliveryLog.summary(of: through) == "shown as a banner, breaking through a Focus: Lunch")
        #expect(DeliveryLog.summary(of: banner) == "shown as a banner: Lunch")
        func found(_ uri: String) throws -> [String] {
            state.page(matching: try JournalFilter.parse(QueryParameters(uri: uri)), limit: 10, before: nil).items.map(\.uniqueID)
        }
        #expect(try found("?outcome=quiet") == ["unique-2"])
        #expect(try found("?q=outcome:quiet") == ["unique-2"])
        #expect(try found("?q=-outcome:quiet") == ["unique-3", "unique-1"])
        #expect(try found("?outcome=shown") == ["unique-3", "unique-2", "unique-1"])
        #expect(throws: InspectionError.self) { try JournalFilter.parse(QueryParameters(uri: "?outcome=quietly")) }
    }
}
