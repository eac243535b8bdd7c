import APNsDevice
import Foundation
import Testing

/// Issue 41: a running Live Activity on the iPhone's paired surfaces. ActivityKit's overview (the
/// Smart Stack on Apple Watch, the menu bar on Mac, the Home Screen in CarPlay); WidgetKit's
/// ActivityFamily (`small` is the Smart Stack's, opted into with supplementalActivityFamilies).
@Suite("Live Activities on paired surfaces")
struct ActivitySurfaceTests {
    static func app(families: [ActivityFamily], version: String = "26.0") -> AppModel {
        var app = AppModel()
        app.iosVersion = version
        app.pairedSurfaces = ActivitySurface.allCases
        app.activityTypes = ["Match": ActivityType(attributes: [], contentState: [], supplementalActivityFamilies: families)]
        return app
    }

    static let activity = LiveActivity(
        id: "a", attributesType: "Match", attributes: .object([:]), contentState: .object([:]), startedBy: "app", at: 0)

    @Test("small where the type declares it (watch, CarPlay), the compact views otherwise; the menu bar always compact")
    func families() {
        let small = Self.app(families: [.small]).surfaces(of: Self.activity)
        #expect(small.map(\.surface) == [.watch, .carPlay, .macMenuBar])
        #expect(small.map(\.family) == [.small, .small, .compact] && small.allSatisfy(\.shown))
        let plain = Self.app(families: []).surfaces(of: Self.activity)
        #expect(plain.map(\.family) == [.compact, .compact, .compact])
    }

    @Test("versions, platform, state and pairing decide whether it shows, and say why not")
    func shown() {
        let ios18 = Self.app(families: [.small], version: "18.2").surfaces(of: Self.activity)
        #expect(ios18.map(\.shown) == [true, false, false])
        #expect(ios18[1].reason?.contains("from iOS 26.0") == true)
        var ipad = Self.app(families: [])
        ipad.platform = .iPadOS
        #expect(ipad.surfaces(of: Self.activity).allSatisfy { !$0.shown && $0.reason?.contains("iPhone") == true })
        var ended = Self.activity
        ended.activityState = .ended
        #expect(Self.app(families: []).surfaces(of: ended).allSatisfy { !$0.shown })
        var watchOnly = Self.app(families: [])
        watchOnly.pairedSurfaces = [.watch]
        #expect(watchOnly.surfaces(of: Self.activity).map(\.surface) == [.watch])
        #expect(AppModel().surfaces(of: Self.activity).isEmpty, "nothing is paired by default")
    }

    @Test("the declaration: supplementalActivityFamilies takes small and medium, and is refused otherwise")
    func declaration() throws {
        let type = try JSONDecoder().decode(
            ActivityType.self, from: Data(#"{"contentState": {"s": "string"}, "supplementalActivityFamilies": ["small"]}"#.utf8))
        #expect(type.supplementalActivityFamilies == [.small])
        #expect {
            try JSONDecoder().decode(ActivityType.self, from: Data(#"{"supplementalActivityFamilies": ["large"]}"#.utf8))
        } throws: { error in
            (error as? DeviceModelError).map { "\($0)".contains("small and medium, not large") } ?? false
        }
        let update = try JSONDecoder().decode(AppUpdate.self, from: Data(#"{"pairedSurfaces": ["watch", "carPlay"]}"#.utf8))
        #expect(update.pairedSurfaces == [.watch, .carPlay])
        #expect {
            try JSONDecoder().decode(AppUpdate.self, from: Data(#"{"pairedSurfaces": ["tv"]}"#.utf8))
        } throws: { error in
            (error as? DeviceModelError).map { "\($0)".contains("pairedSurfaces tv is not one of watch, carPlay") } ?? false
        }
    }
}
