import APNsCore
import APNsDevice
import APNsTestSupport
import Foundation
import Testing

@testable import APNsStore

/// The app record's activities are written by hand (AppCodec+Activities), for a broadcast's sake;
/// what they write must read back as the app itself, and as `JSONEncoder`'s text does (issue 71:
/// the codec had no round trip). Generated apps, a fixed seed and a fresh one.
@Suite("App codec")
struct AppCodecTests {
    /// Text with what JSON must escape: quotes, backslashes, control characters, non-ASCII.
    static func text(_ random: inout SeededGenerator) -> String {
        let pieces = ["a", "Zürich", "\"", "\\", "\n", "\u{01}", "🚀", "/", " ", "é", "\t", "\u{7F}", "x9"]
        return (0..<Int.random(in: 0...6, using: &random)).map { _ in pieces.randomElement(using: &random) ?? "" }.joined()
    }

    static func value(_ depth: Int, _ random: inout SeededGenerator) -> JSONValue {
        switch Int.random(in: 0..<(depth > 2 ? 4 : 6), using: &random) {
        case 0: return .string(Self.text(&random))
        case 1:
            let numbers: [Double] = [
                0, -1, 42, 3.5, 1e-7, 123_456_789_012, -0.25, Double(Int.random(in: -999...999, using: &random)),
            ]
            return .number(numbers.randomElement(using: &random) ?? 0)
        case 2: return .bool(Bool.random(using: &random))
        case 3: return .null
        case 4: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in Self.value(depth + 1, &random) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) { members[Self.text(&random)] = Self.value(depth + 1, &random) }
            return .object(members)
        }
    }

    static func maybe<T>(_ make: () -> T, _ random: inout SeededGenerator) -> T? { Bool.random(using: &random) ? make() : nil }

    static func activity(_ n: Int, _ random: inout SeededGenerator) -> LiveActivity {
        var activity = LiveActivity(
            id: "activity-\(n)-\(Self.text(&random))", attributesType: Self.text(&random), attributes: Self.value(0, &random),
            contentState: Self.value(0, &random), startedBy: Self.text(&random),
            at: Int64.random(in: 0...2_000_000_000_000, using: &random))
        activity.activityState = [.active, .stale, .ended, .dismissed, .pending].randomElement(using: &random) ?? .active
        activity.relevanceScore = [0, 0.5, 100, 1e-3].randomElement(using: &random) ?? 0
        activity.staleDate = Self.maybe({ 1_700_000_000 }, &random)
        activity.dismissalDate = Self.maybe({ 1_700_000_123 }, &random)
        activity.updateToken = Self.maybe({ String(repeating: "ab", count: 32) }, &random)
        activity.channelID = Self.maybe({ "dHN0LXNyY2gtY2hubA==" }, &random)
        activity.endedAt = Self.maybe({ 1_700_000_999 }, &random)
        activity.lastTimestamp = Self.maybe({ 1_700_000_000.5 }, &random)
        let alert = ActivityAlert(title: Self.text(&random), body: nil, sound: Self.maybe({ "default" }, &random))
        activity.alert = Self.maybe({ alert }, &random)
        activity.alertedAt = Self.maybe({ 1_700_000_001 }, &random)
        activity.scheduledStart = Self.maybe({ 1_800_000_000 }, &random)
        activity.startAlert = Self.maybe({ alert }, &random)
        activity.style = Self.maybe({ .transient }, &random)
        activity.history = (0..<Int.random(in: 0...4, using: &random)).map { index in
            ActivityHistoryItem(
                at: Int64(index), event: Self.text(&random),
                outcome: Bool.random(using: &random) ? .applied : .ignored("stale-timestamp"),
                reason: Self.maybe({ "older than the last" }, &random), uniqueID: Self.maybe({ "u-\(index)" }, &random),
                priority: Self.maybe({ 5 }, &random))
        }
        return activity
    }

    @Test(
        "generated apps: the hand-written record reads back as the app, and as JSONEncoder's text does",
        arguments: SeededGenerator.seeds(fixed: 0x6170_7073))
    func roundTrip(seed: UInt64) throws {
        var random = SeededGenerator(state: seed)
        for run in 0..<300 {
            var app = AppModel()
            app.activities = (0..<Int.random(in: 1...4, using: &random)).map { Self.activity($0, &random) }
            let written = try AppCodec.encodeApp(app)
            let read = try JSONDecoder().decode(AppModel.self, from: Data(written))
            #expect(read == app, "seed \(String(seed, radix: 16)) run \(run): \(String(decoding: written, as: UTF8.self))")
            let encoder = try JSONDecoder().decode(AppModel.self, from: JSONEncoder().encode(app))
            #expect(read == encoder, "seed \(String(seed, radix: 16)) run \(run)")
            if read != app { return }
        }
    }

    @Test("an activity with a number JSON cannot write is refused with the encoder's own error, not written")
    func nonFinite() {
        var app = AppModel()
        var random = SeededGenerator(state: 1)
        var activity = Self.activity(0, &random)
        activity.relevanceScore = .nan
        app.activities = [activity]
        #expect(AppCodec.activitiesJSON(app.activities) == nil)
        #expect(throws: StoreError.self) { try AppCodec.encodeApp(app) }
    }
}
