import APNsDevice
import Foundation
import Testing

/// iOS 26's scheduled Live Activities (issue 41): `Activity.request(attributes:content:pushType:
/// style:alertConfiguration:start:)` ("Requests and schedules a Live Activity for a specific
/// date") makes an activity in `ActivityState.pending` ("scheduled to start at a specified date
/// but hasn't started yet"). What Apple does not document is the emulator's choice, named here
/// and in the README: a pending activity holds its place in the app's limit, takes updates (no
/// alert lights while it is on no screen) and an end (it leaves at once, never having shown).
@Suite("Scheduled Live Activities (iOS 26)")
struct ScheduledActivityTests {
    static let hour: Int64 = 3_600_000
    let now: Int64 = 1_800_000_000_000
    var limits = ActivityLimits()
    var app = AppModel()
    var tokens = 0

    init() throws {
        self.app.iosVersion = "26.0"
        self.app.authorization = Authorization(status: .authorized, alert: true, sound: true)
        self.app.activityTypes = [
            "Match": try JSONDecoder().decode(
                ActivityType.self, from: Data(#"{"attributes": {"home": "string"}, "contentState": {"score": "string"}}"#.utf8))
        ]
    }

    static func request(_ extra: String) -> String {
        #"{"attributes-type": "Match", "attributes": {"home": "Lyon"}, "content-state": {"score": "0-0"}, "pushType": "token"\#(extra)}"#
    }

    static let alertConfiguration =
        #", "alertConfiguration": {"title": "Kick-off", "body": "Lyon are on", "sound": "whistle.caf"}"#

    mutating func request(_ document: String, at offset: Int64 = 0) throws -> ActivityReport {
        let request = try JSONDecoder().decode(ActivityRequest.self, from: Data(document.utf8))
        var issued = self.tokens
        defer { self.tokens = issued }
        return try self.app.startActivity(
            request, json: Array(document.utf8), now: self.now + offset, limits: self.limits,
            issueToken: {
                issued += 1
                return String(format: "%064x", issued)
            })
    }

    mutating func push(_ aps: String, to id: String, at offset: Int64) -> ActivityReport {
        self.app.receive(
            ActivityPush(payload: Array(#"{"aps": {\#(aps)}}"#.utf8), priority: 10), at: .activity(id), uniqueID: "u",
            now: self.now + offset, limits: self.limits
        ) { "ff" }
    }

    @Test("pending until its start, then active with its alertConfiguration's alert and sound; 8 h count from the start")
    mutating func pendingThenActive() throws {
        let start = (self.now + 2 * Self.hour) / 1000
        let report = try self.request(Self.request(#", "start": \#(start)"# + Self.alertConfiguration))
        #expect(report.changes.map(\.change.rawValue) == ["scheduled", "token"] && report.alert == nil)
        var activity = try #require(self.app.activities.first)
        #expect(activity.activityState == .pending && activity.scheduledStart == start * 1000)
        #expect(activity.updateToken != nil, "the Activity exists from the request: its push token with it")
        #expect(self.app.advanceActivities(to: self.now + Self.hour, limits: self.limits).isEmpty)
        #expect(self.app.nextActivityChange(limits: self.limits) == start * 1000)
        let changes = self.app.advanceActivities(to: self.now + 3 * Self.hour, limits: self.limits)
        #expect(changes.map(\.change.rawValue) == ["started"])
        activity = try #require(self.app.activities.first)
        #expect(activity.activityState == .active && activity.startedAt == start * 1000)
        #expect(
            activity.alert?.title == "Kick-off" && activity.alert?.sound == "whistle.caf" && activity.alertedAt == start * 1000)
        #expect(activity.history.map(\.outcome) == ["scheduled", "started"])
        let ended = self.app.advanceActivities(to: start * 1000 + 8 * Self.hour, limits: self.limits)
        #expect(ended.map(\.change.rawValue).contains("ended"), "the 8 hours run from the scheduled start")
    }

    @Test("while pending: an update changes its content and lights nothing; an end ends it and it leaves at once")
    mutating func updatesAndEndWhilePending() throws {
        let start = (self.now + Self.hour) / 1000
        _ = try self.request(Self.request(#", "start": \#(start)"# + Self.alertConfiguration))
        let id = try #require(self.app.activities.first?.id)
        let update = self.push(
            #""event": "update", "timestamp": 1800000010, "content-state": {"score": "warm-up"}, "alert": {"title": "t", "body": "b"}"#,
            to: id, at: 10_000)
        #expect(update.outcome == .applied && update.presentation == nil)
        #expect(self.app.activities.first?.activityState == .pending)
        #expect(self.app.activities.first?.contentState == .object(["score": .string("warm-up")]))
        let end = self.push(#""event": "end", "timestamp": 1800000020"#, to: id, at: 20_000)
        #expect(end.outcome == .applied)
        #expect(self.app.activities.first?.activityState == .dismissed)
        #expect(self.app.advanceActivities(to: start * 1000 + 1, limits: self.limits).isEmpty, "an ended one never starts")
    }

    @Test("a pending activity holds its place in the limit; a start in the past starts at once with its alert")
    mutating func limitAndPastStart() throws {
        self.limits.maximumConcurrent = 2
        let later = (self.now + Self.hour) / 1000
        _ = try self.request(Self.request(#", "start": \#(later)"# + Self.alertConfiguration))
        let now = try self.request(Self.request(#", "start": \#(self.now / 1000 - 60)"# + Self.alertConfiguration))
        #expect(now.changes.first?.change == .started && now.alert?.title == "Kick-off" && now.presentation?.shown == true)
        #expect(self.app.activities.last?.activityState == .active)
        #expect(throws: DeviceModelError.self) { try self.request(Self.request("")) }
    }

    @Test("refusals: a start before iOS 26, a start without alertConfiguration, an unknown style")
    mutating func refusals() throws {
        let start = (self.now + Self.hour) / 1000
        #expect(throws: DeviceModelError.self) {
            try JSONDecoder().decode(ActivityRequest.self, from: Data(Self.request(#", "start": \#(start)"#).utf8))
        }
        #expect(throws: DeviceModelError.self) {
            try JSONDecoder().decode(ActivityRequest.self, from: Data(Self.request(#", "style": "loud""#).utf8))
        }
        self.app.iosVersion = "18.4"
        do {
            _ = try self.request(Self.request(#", "start": \#(start)"# + Self.alertConfiguration))
            Issue.record("a scheduled request on iOS 18 was taken")
        } catch {
            #expect("\(error)".contains("needs iOS 26"), "\(error)")
        }
        #expect(self.app.activities.isEmpty)
    }

    @Test("style transient: an ended activity leaves at once; standard stays on the Lock Screen")
    mutating func transient() throws {
        _ = try self.request(Self.request(#", "style": "transient""#))
        _ = try self.request(Self.request(#", "style": "standard""#))
        for activity in self.app.activities {
            _ = try self.app.endActivity(activity.id, ActivityEndRequest(), json: [], now: self.now + 1000, limits: self.limits)
        }
        #expect(self.app.activities.map(\.activityState) == [.dismissed, .ended])
        #expect(self.app.activities.map(\.style) == [.transient, .standard])
    }
}
