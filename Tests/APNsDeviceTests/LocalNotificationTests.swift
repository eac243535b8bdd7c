import APNsDevice
import Foundation
import Testing

@Suite("The phone: local notifications")
struct LocalNotificationTests {
    static let paris = TimeZone(identifier: "Europe/Paris")!
    static let newYork = TimeZone(identifier: "America/New_York")!
    /// 2026-11-23T00:00:00Z.
    static let midnight: Int64 = 1_795_392_000_000

    func request(
        _ id: String, _ trigger: NotificationTrigger, at scheduledAt: Int64 = midnight, tz: TimeZone = paris
    ) -> LocalNotificationRequest {
        LocalNotificationRequest(
            identifier: id, content: LocalContent(title: "T", body: id), trigger: trigger, scheduledAt: scheduledAt,
            nextFireAt: trigger.nextFire(after: scheduledAt, scheduledAt: scheduledAt, deviceTimeZone: tz)
        )
    }

    // Seed 003, "Scheduling Local Notifications for Delivery", and seed 004 (repeating
    // notifications): an interval fires once after its delay; a repeating one goes on, and iOS
    // wants at least a minute between repeats.
    @Test("time interval: fires after its seconds; repeating ones every period, at least 60 s")
    func interval() throws {
        let once = NotificationTrigger.timeInterval(seconds: 3600, repeats: false)
        #expect(
            once.nextFire(after: Self.midnight, scheduledAt: Self.midnight, deviceTimeZone: Self.paris) == Self.midnight
                + 3_600_000)
        #expect(once.nextFire(after: Self.midnight + 3_600_000, scheduledAt: Self.midnight, deviceTimeZone: Self.paris) == nil)
        let every = NotificationTrigger.timeInterval(seconds: 60, repeats: true)
        #expect(
            every.nextFire(after: Self.midnight + 150_000, scheduledAt: Self.midnight, deviceTimeZone: Self.paris) == Self
                .midnight + 180_000)
        #expect(throws: DeviceModelError.self) { try NotificationTrigger.timeInterval(seconds: 30, repeats: true).validate() }
        try NotificationTrigger.timeInterval(seconds: 30, repeats: false).validate()
    }

    // Seed 000, "Scheduling Local Notifications" (step 3: a time zone set to the current one makes
    // the fire date follow the device across time zones) and seed 004 (wall-clock times such as
    // an alarm at 9 AM wherever the user is, against instants that happen once for everyone).
    @Test("calendar: a floating 07:00 follows the device's time zone, a fixed one keeps its instant")
    func calendar() throws {
        let floating = NotificationTrigger.calendar(
            components: DateComponentsValue(hour: 7, minute: 0), timeZone: nil, repeats: true)
        let inParis = try #require(
            floating.nextFire(after: Self.midnight, scheduledAt: Self.midnight, deviceTimeZone: Self.paris))
        let inNewYork = try #require(
            floating.nextFire(after: Self.midnight, scheduledAt: Self.midnight, deviceTimeZone: Self.newYork))
        // 07:00 in Paris (UTC+1 in November) is 06:00Z; in New York (UTC-5) 12:00Z.
        #expect(inParis == Self.midnight + 6 * 3_600_000)
        #expect(inNewYork == Self.midnight + 12 * 3_600_000)
        let fixed = NotificationTrigger.calendar(
            components: DateComponentsValue(hour: 7, minute: 0), timeZone: "Europe/Paris", repeats: true)
        #expect(fixed.nextFire(after: Self.midnight, scheduledAt: Self.midnight, deviceTimeZone: Self.newYork) == inParis)
        #expect(throws: DeviceModelError.self) {
            try NotificationTrigger.calendar(components: DateComponentsValue(hour: 7), timeZone: "Mars/Olympus", repeats: false)
                .validate()
        }
        #expect(throws: DeviceModelError.self) {
            try NotificationTrigger.calendar(components: DateComponentsValue(), timeZone: nil, repeats: false).validate()
        }
    }

    // Seed 001 ("Scheduling Local Notifications": a fire date is worked out from date components
    // in a calendar, and may recur monthly, yearly): a date the calendar does not have never
    // comes, and a monthly 31st skips the shorter months instead of spilling into the next.
    @Test(
        "calendar: 31 April and 30 February never fire; the 31st of every month skips shorter months; 29 February waits for a leap year"
    )
    func impossibleDates() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        func next(_ components: DateComponentsValue) -> Int64? {
            NotificationTrigger.calendar(components: components, timeZone: "UTC", repeats: true).nextFire(
                after: Self.midnight, scheduledAt: Self.midnight, deviceTimeZone: utc)
        }
        func day(_ millis: Int64?) throws -> DateComponents {
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = utc
            return calendar.dateComponents(
                [.year, .month, .day, .hour], from: Date(timeIntervalSince1970: Double(try #require(millis)) / 1000))
        }
        #expect(next(DateComponentsValue(month: 4, day: 31)) == nil)
        #expect(next(DateComponentsValue(month: 2, day: 30, hour: 9)) == nil)
        // From 23 November 2026: the next 31st is 31 December, then 31 January (not 3 March).
        let december = try day(next(DateComponentsValue(day: 31, hour: 9, minute: 0)))
        #expect(december.year == 2026 && december.month == 12 && december.day == 31 && december.hour == 9)
        let leap = try day(next(DateComponentsValue(month: 2, day: 29, hour: 8, minute: 0)))
        #expect(leap.year == 2028 && leap.month == 2 && leap.day == 29)
        let february = NotificationTrigger.calendar(
            components: DateComponentsValue(day: 31, hour: 9, minute: 0), timeZone: "UTC", repeats: true)
        let afterJanuary = try day(february.nextFire(after: 1_801_645_200_000, scheduledAt: Self.midnight, deviceTimeZone: utc))  // 2027-02-03
        #expect(afterJanuary.month == 3 && afterJanuary.day == 31)
    }

    // Seed 004 (repeating notifications stay scheduled; a one-shot one is done once it fires).
    @Test("due: a one-shot request leaves the pending list, a repeating one stays, late by several periods it fires once")
    func due() {
        var app = AppModel()
        app.schedule(self.request("once", .timeInterval(seconds: 60, repeats: false)))
        app.schedule(
            self.request("daily", .calendar(components: DateComponentsValue(hour: 7, minute: 0), timeZone: nil, repeats: true)))
        #expect(app.takeDue(now: Self.midnight + 59_000, deviceTimeZone: Self.paris).isEmpty)
        // Three days later: both are due, each once; the daily one is next due tomorrow at 07:00.
        let later = Self.midnight + 3 * 86_400_000
        let fired = app.takeDue(now: later, deviceTimeZone: Self.paris)
        #expect(fired.map(\.identifier).sorted() == ["daily", "once"])
        #expect(app.pending.map(\.identifier) == ["daily"])
        #expect(app.pending.first?.nextFireAt == later + 6 * 3_600_000)
    }

    // Seed 004 (scheduling a notification again replaces it, compared as equal by identity here).
    @Test("scheduling with an existing identifier replaces it")
    func replace() {
        var app = AppModel()
        app.schedule(self.request("a", .timeInterval(seconds: 600, repeats: false)))
        app.schedule(self.request("a", .timeInterval(seconds: 60, repeats: false)))
        #expect(app.pending.count == 1 && app.pending[0].nextFireAt == Self.midnight + 60_000)
    }

    // Not in the seeds: Apple's UNUserNotificationCenter documentation keeps the soonest-firing 64
    // pending requests of an app and discards the rest (README, "Local notifications").
    @Test("the 65th pending request evicts the latest-firing one")
    func limit() {
        var app = AppModel()
        for minute in 1...64 {
            app.schedule(self.request("r\(minute)", .timeInterval(seconds: Double(minute * 60), repeats: false)))
        }
        let evicted = app.schedule(self.request("soon", .timeInterval(seconds: 30, repeats: false)))
        #expect(evicted.map(\.identifier) == ["r64"])
        #expect(app.pending.count == 64 && app.pending.contains { $0.identifier == "soon" })
        // A location request has no time: it is the first to go.
        let location = NotificationTrigger.location(Region(latitude: 48.85, longitude: 2.35, radius: 100), repeats: false)
        #expect(app.schedule(self.request("here", location)).map(\.identifier) == ["here"])
    }

    @Test("regions: inside by great-circle distance; a radius must be positive")
    func region() {
        let louvre = Region(latitude: 48.8606, longitude: 2.3376, radius: 200)
        #expect(louvre.contains(latitude: 48.8610, longitude: 2.3380))
        #expect(!louvre.contains(latitude: 48.8738, longitude: 2.2950))
        #expect(throws: DeviceModelError.self) {
            try NotificationTrigger.location(Region(latitude: 1, longitude: 1, radius: 0), repeats: false).validate()
        }
    }

    @Test("content becomes a payload the presenter reads like a remote one; triggers decode from UserNotifications' names")
    func payloadAndJSON() throws {
        var content = LocalContent(title: "Due", body: "Milk", sound: "default", badge: 1, categoryIdentifier: "TODO")
        content.userInfo = #"{"item": 7}"#
        let json = try #require(try JSONSerialization.jsonObject(with: Data(content.payload)) as? [String: Any])
        let aps = try #require(json["aps"] as? [String: Any])
        #expect(
            (aps["alert"] as? [String: Any])?["title"] as? String == "Due" && aps["category"] as? String == "TODO"
                && json["item"] as? Int == 7)
        var app = AppModel()
        app.authorization = Authorization(status: .authorized, alert: true, sound: true, badge: true)
        let presented = Presenter.present(payload: content.payload, uniqueID: "l", at: 1, to: app).0
        #expect(presented.shown && presented.title == "Due" && presented.body == "Milk" && presented.badge == 1)

        let trigger = try JSONDecoder().decode(
            NotificationTrigger.self,
            from: Data(
                #"{"type": "calendar", "dateComponents": {"hour": 7, "minute": 0}, "timeZone": "Europe/Paris", "repeats": true}"#
                    .utf8))
        #expect(
            trigger == .calendar(components: DateComponentsValue(hour: 7, minute: 0), timeZone: "Europe/Paris", repeats: true))
        #expect(try JSONDecoder().decode(NotificationTrigger.self, from: JSONEncoder().encode(trigger)) == trigger)
        #expect(throws: DeviceModelError.self) {
            try JSONDecoder().decode(NotificationTrigger.self, from: Data(#"{"type": "sunrise"}"#.utf8))
        }
    }
}
