import APNsDevice
import Foundation
import Testing

/// What a Live Activity push does on the phone after APNs' 200, and what the clock does to an
/// activity. Sources are named on each rule.
@Suite("Live Activities: starting, updating, ending, budgets")
struct ActivityLifecycleTests {
    static let hour: Int64 = 3_600_000
    let start: Int64 = 1_800_000_000_000
    var limits = ActivityLimits()
    var app = AppModel()
    var tokens = 0

    init() throws {
        self.app.activityTypes = [
            "Delivery": try JSONDecoder().decode(
                ActivityType.self,
                from: Data(#"{"attributes": {"order": "int"}, "contentState": {"status": "string", "eta": "date?"}}"#.utf8))
        ]
    }

    static func push(_ aps: String, priority: Int = 10) -> ActivityPush {
        ActivityPush(payload: Array(#"{"aps": {\#(aps)}}"#.utf8), priority: priority)
    }

    static let startAPS =
        #""event": "start", "timestamp": 1800000000, "attributes-type": "Delivery", "attributes": {"order": 7}, "content-state": {"status": "packing"}, "alert": {"title": "Order 7", "body": "Packing", "sound": "chime.caf"}"#

    mutating func send(_ push: ActivityPush, to target: ActivityTarget, after offset: Int64 = 0) -> ActivityReport {
        var issued = self.tokens
        defer { self.tokens = issued }
        return self.app.receive(push, at: target, uniqueID: "u", now: self.start + offset, limits: self.limits) {
            issued += 1
            return String(repeating: "0", count: 62) + String(format: "%02x", issued)
        }
    }

    mutating func started(_ extra: String = #", "input-push-token": 1"#) throws -> LiveActivity {
        let report = self.send(Self.push(Self.startAPS + extra), to: .pushToStart)
        #expect(report.outcome == .started, "\(report.reason ?? "")")
        return try #require(self.app.activities.last)
    }

    // Apple, "Starting and updating Live Activities with ActivityKit push notifications": a
    // push-to-start names attributes-type, attributes, content-state and an alert; iOS 18's
    // input-push-token asks for the new activity's update token.
    @Test("push-to-start with input-push-token starts an active activity with an update token")
    mutating func pushToStart() throws {
        let activity = try self.started()
        #expect(activity.activityState == .active && activity.startedBy == "push-to-start")
        #expect(
            activity.attributes == .object(["order": .number(7)])
                && activity.contentState == .object(["status": .string("packing")]))
        #expect(activity.updateToken != nil && activity.lastTimestamp == 1_800_000_000)
        let plain = try self.started("")
        #expect(plain.updateToken == nil, "on iOS 18 the token comes only when asked for")
    }

    // Same page: push-to-start arrived in iOS 17.2, input-push-token (an update token for the
    // started activity) in iOS 18.
    @Test("iOS versions: no push-to-start before 17.2; on 17.x input-push-token means nothing")
    mutating func versions() throws {
        self.app.iosVersion = "17.1"
        #expect(self.send(Self.push(Self.startAPS), to: .pushToStart).outcome == .notStarted("unsupported-ios"))
        self.app.iosVersion = "17.2"
        #expect(try self.started().updateToken == nil)
        self.app.iosVersion = "18.0"
        #expect(try self.started().updateToken != nil)
    }

    // APNSwift #232: a start with an empty alert, "nothing arrives".
    @Test("a start without a complete alert, or of an unknown type, is not started, with the reason")
    mutating func startRefusals() {
        let noAlert = self.send(
            Self.push(Self.startAPS.replacingOccurrences(of: #""body": "Packing", "#, with: "")), to: .pushToStart)
        #expect(noAlert.outcome == .notStarted("missing-alert") && self.app.activities.isEmpty)
        let unknown = self.send(
            Self.push(Self.startAPS.replacingOccurrences(of: "\"Delivery\"", with: "\"Pizza\"")), to: .pushToStart)
        #expect(unknown.outcome == .notStarted("unknown-attributes-type") && unknown.reason?.contains("Delivery") == true)
        let badState = self.send(
            Self.push(Self.startAPS.replacingOccurrences(of: #"{"status": "packing"}"#, with: #"{"state": "packing"}"#)),
            to: .pushToStart)
        #expect(
            badState.outcome == .notStarted("content-state-decode")
                && badState.reason?.contains("keyNotFound at aps.content-state.status") == true)
    }

    // ActivityKit, Activity.update/end(_:timestamp:): an update older than the last one is
    // ignored; forum thread 776165 sees the same with pushes.
    @Test("updates apply in timestamp order; an older one is ignored and the state kept")
    mutating func ordering() throws {
        let id = try self.started().id
        let newer = self.send(
            Self.push(
                #""event": "update", "timestamp": 1800000100, "content-state": {"status": "on the way", "eta": 785000000}"#),
            to: .activity(id), after: 1000)
        #expect(newer.outcome == .applied)
        let older = self.send(
            Self.push(#""event": "update", "timestamp": 1800000050, "content-state": {"status": "packing"}"#), to: .activity(id),
            after: 2000)
        #expect(older.outcome == .ignored("stale-timestamp"))
        let activity = try #require(self.app.activities.first { $0.id == id })
        #expect(activity.contentState == .object(["status": .string("on the way"), "eta": .string("2025-11-16T15:33:20Z")]))
        #expect(activity.history.map(\.outcome) == ["started", "applied", "ignored"])
        let missing = self.send(Self.push(#""event": "update", "timestamp": 1800000200"#), to: .activity(id), after: 3000)
        #expect(missing.outcome == .ignored("missing-content-state"))
    }

    // ActivityUIDismissalPolicy: .after(date) dismisses at the date, within a four-hour window;
    // .default keeps an ended activity up to four hours.
    @Test("end with a dismissal date: ended now, dismissed when the clock passes the date, at most 4 h later")
    mutating func dismissal() throws {
        let id = try self.started().id
        let end = self.send(
            Self.push(#""event": "end", "timestamp": 1800000100, "dismissal-date": 1800001800"#), to: .activity(id), after: 1000)
        #expect(end.outcome == .applied && end.changes.map(\.change.rawValue) == ["ended"])
        #expect(self.app.advanceActivities(to: self.start + 1_799_000, limits: self.limits).isEmpty)
        #expect(
            self.app.advanceActivities(to: self.start + 1_800_000, limits: self.limits).map(\.change.rawValue) == ["dismissed"])
        let later = self.send(
            Self.push(#""event": "update", "timestamp": 1800000200, "content-state": {"status": "x"}"#), to: .activity(id),
            after: 1_900_000)
        #expect(later.outcome == .ignored("activity-ended"))

        let other = try self.started().id
        _ = self.send(
            Self.push(#""event": "end", "timestamp": 1800000100, "dismissal-date": 1900000000"#), to: .activity(other),
            after: 1000)
        #expect(self.app.activities.last?.dismissalDate == self.start + 1000 + 4 * Self.hour)
    }

    // Displaying live data with Live Activities: an activity runs at most 8 hours, then stays
    // ended on the Lock Screen for up to 4 more.
    @Test("the clock: stale at the stale date, ended 8 h after the start, dismissed 4 h after that")
    mutating func clock() throws {
        let id = try self.started(#", "stale-date": 1800000600"#).id
        #expect(self.app.advanceActivities(to: self.start + 600_000, limits: self.limits).map(\.change.rawValue) == ["stale"])
        #expect(self.app.nextActivityChange(limits: self.limits) == self.start + 8 * Self.hour)
        #expect(
            self.app.advanceActivities(to: self.start + 8 * Self.hour, limits: self.limits).map(\.change.rawValue) == ["ended"])
        #expect(
            self.app.advanceActivities(to: self.start + 12 * Self.hour, limits: self.limits).map(\.change.rawValue) == [
                "dismissed"
            ])
        #expect(self.app.activities.first { $0.id == id }?.activityState == .dismissed)
    }

    // Apple: priority 10 updates draw from a budget, priority 5 ones do not; frequent updates
    // raise it (NSSupportsLiveActivitiesFrequentUpdates). The numbers are the emulator's.
    @Test("budget: the 16th priority 10 update in an hour is ignored, priority 5 goes on, frequent updates raise it")
    mutating func budget() throws {
        let id = try self.started().id
        func update(_ n: Int, _ priority: Int) -> ActivityReport {
            self.send(
                Self.push(
                    #""event": "update", "timestamp": \#(1_800_000_000 + n), "content-state": {"status": "s\#(n)"}"#,
                    priority: priority), to: .activity(id), after: Int64(n) * 1000)
        }
        for n in 1...15 { #expect(update(n, 10).outcome == .applied) }
        #expect(update(16, 10).outcome == .ignored("budget-exceeded"))
        #expect(update(17, 5).outcome == .applied)
        self.app.frequentUpdates = FrequentUpdates(declared: true, enabled: true)
        #expect(update(18, 10).outcome == .applied)
        self.app.frequentUpdates.enabled = false
        #expect(update(19, 10).outcome == .ignored("budget-exceeded"))
        #expect(
            self.send(
                Self.push(#""event": "update", "timestamp": 1800009000, "content-state": {"status": "later"}"#),
                to: .activity(id), after: Self.hour + 20_000
            ).outcome == .applied)
    }

    // Forum thread 799505 (DTS): push-to-start has a budget of its own, about ten in a short time.
    @Test("push-to-start budget, and at most 5 running activities per app")
    mutating func startLimits() throws {
        for _ in 1...5 { _ = try self.started() }
        #expect(self.send(Self.push(Self.startAPS), to: .pushToStart).outcome == .notStarted("target-maximum-exceeded"))
        self.limits.maximumConcurrent = 20
        for _ in 7...10 { _ = try self.started() }
        #expect(self.send(Self.push(Self.startAPS), to: .pushToStart).outcome == .notStarted("push-to-start-budget-exceeded"))
    }

    @Test(
        "the user's switches: Live Activities off ends and dismisses them and refuses new ones; an update's sound follows authorization"
    )
    mutating func switches() throws {
        let id = try self.started().id
        #expect(self.app.activities.last?.alert?.sound == nil, "not authorized for sounds")
        self.app.authorization = Authorization(status: .authorized, alert: true, sound: true)
        let update = self.send(
            Self.push(
                #""event": "update", "timestamp": 1800000100, "content-state": {"status": "here"}, "alert": {"title": "Here", "body": "At the door", "sound": "default"}"#
            ), to: .activity(id))
        #expect(update.alert == ActivityAlert(title: "Here", body: "At the door", sound: "default"))
        #expect(
            update.presentation?.shown == true && update.presentation?.sound == "default" && update.presentation?.title == "Here")
        self.app.authorization = Authorization(status: .authorized, alert: true, sound: false)
        let quiet = self.send(
            Self.push(
                #""event": "update", "timestamp": 1800000200, "content-state": {"status": "gone"}, "alert": {"title": "Gone", "body": "Left", "sound": "default"}"#
            ), to: .activity(id))
        #expect(quiet.presentation?.sound == nil && quiet.presentation?.suppressed.map(\.what) == ["sound"])
        self.app.liveActivitiesEnabled = false
        #expect(
            self.app.dismissAllActivities(at: self.start, limits: self.limits).map(\.change.rawValue) == ["ended", "dismissed"])
        #expect(self.send(Self.push(Self.startAPS), to: .pushToStart).outcome == .notStarted("live-activities-disabled"))
    }

    @Test("in the app: request with pushType token, end with immediate dismissal, token rotation")
    mutating func inApp() throws {
        let json = Array(
            #"{"attributes-type": "Delivery", "attributes": {"order": 1}, "content-state": {"status": "new"}, "pushType": "token"}"#
                .utf8)
        let request = try JSONDecoder().decode(ActivityRequest.self, from: Data(json))
        let report = try self.app.startActivity(request, json: json, now: self.start, limits: self.limits) { "aa" }
        let id = try #require(report.activityID)
        #expect(report.tokens == [ActivityTokenChange(.update, activityID: id, token: "aa")])
        #expect(
            try self.app.rotateActivityToken(id, now: self.start) { "bb" }
                == ActivityTokenChange(.update, activityID: id, token: "bb", replaced: "aa"))
        let end = Array(#"{"content-state": {"status": "done"}, "dismissalPolicy": "immediate"}"#.utf8)
        let ended = try self.app.endActivity(
            id, try JSONDecoder().decode(ActivityEndRequest.self, from: Data(end)), json: end, now: self.start + 1,
            limits: self.limits)
        #expect(
            ended.changes.map(\.change.rawValue) == ["ended", "dismissed"]
                && self.app.activities.last?.contentState == .object(["status": .string("done")]))
        #expect(throws: DeviceModelError.self) {
            try self.app.endActivity(id, ActivityEndRequest(), json: [], now: self.start + 2, limits: self.limits)
        }
        #expect(self.app.ensurePushToStartToken { "cc" }?.token == "cc" && self.app.ensurePushToStartToken { "dd" } == nil)
    }

    // Issue 41, settled: new content replaces the activity's ActivityContent whole, as
    // `Activity.update(_:)` takes one; `ActivityContent.init(state:staleDate:relevanceScore:)` gives
    // relevanceScore the default 0.0 and staleDate none. So an update without relevance-score puts
    // the score back to 0, as one without stale-date clears the stale date; an end without
    // content-state keeps the last content (ActivityKit's `end(nil, dismissalPolicy:)`).
    @Test("an update without relevance-score or stale-date resets both; an end without content keeps them")
    mutating func contentReplacedWhole() throws {
        let id = try self.started().id
        let scored = self.send(
            Self.push(
                #""event": "update", "timestamp": 1800000010, "content-state": {"status": "a"}, "relevance-score": 75, "stale-date": 1800003600"#
            ),
            to: .activity(id), after: 10_000)
        #expect(scored.outcome == .applied)
        #expect(self.app.activities.first?.relevanceScore == 75 && self.app.activities.first?.staleDate == 1_800_003_600_000)
        _ = self.send(
            Self.push(#""event": "update", "timestamp": 1800000020, "content-state": {"status": "b"}"#), to: .activity(id),
            after: 20_000)
        #expect(self.app.activities.first?.relevanceScore == 0 && self.app.activities.first?.staleDate == nil)
        _ = self.send(
            Self.push(
                #""event": "update", "timestamp": 1800000030, "content-state": {"status": "c"}, "relevance-score": 20, "stale-date": 1800009000"#
            ),
            to: .activity(id), after: 30_000)
        let ended = self.send(Self.push(#""event": "end", "timestamp": 1800000040"#), to: .activity(id), after: 40_000)
        #expect(ended.outcome == .applied)
        let activity = try #require(self.app.activities.first)
        #expect(activity.activityState == .ended && activity.contentState == .object(["status": .string("c")]))
        #expect(activity.relevanceScore == 20 && activity.staleDate == 1_800_009_000_000)
    }
}
