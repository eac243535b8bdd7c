/// Where else a running Live Activity shows, beyond the iPhone's Lock Screen and Dynamic Island:
/// the surfaces paired with the emulated iPhone, switched per device (`pairedSurfaces` in the
/// app's settings, device-wide like `iosVersion`).
///
/// Sources: ActivityKit's overview ("On Apple Watch, it appears in the Smart Stack. On Mac, it
/// appears in the Menu bar. In CarPlay, it appears on the Home Screen."); WidgetKit's
/// `ActivityFamily` (an iPhone renders `.medium`; `.small`, opted into with
/// `supplementalActivityFamilies(_:)`, is the watch Smart Stack's size, iOS 18 / watchOS 11);
/// the Smart Stack, CarPlay (iOS 26) and the Mac menu bar (macOS 26, through iPhone Mirroring).
public enum ActivitySurface: String, Codable, Hashable, Sendable, CaseIterable {
    /// Apple Watch's Smart Stack (watchOS 11, with iOS 18 on the phone).
    case watch
    /// The CarPlay Home Screen (iOS 26).
    case carPlay
    /// The Mac's menu bar, through iPhone Mirroring (macOS 26, with iOS 26 on the phone).
    case macMenuBar

    /// The iPhone version from which the surface shows Live Activities.
    public var since: IOSVersion {
        self == .watch ? IOSVersion(parts: [18, 0]) : IOSVersion(parts: [26, 0])
    }

    /// The size class an activity is drawn in there: `small` where the activity type declares it
    /// in `supplementalActivityFamilies` (the watch and CarPlay), otherwise the Dynamic Island's
    /// compact leading and trailing views, which is what these surfaces fall back to; the menu bar
    /// always shows the compact views. (Apple names `small` for the Smart Stack; CarPlay's use of
    /// it and the menu bar's of the compact views are the emulator's reading, named in the README.)
    public func family(declared families: [ActivityFamily]) -> ActivityFamily {
        switch self {
        case .watch, .carPlay: families.contains(.small) ? .small : .compact
        case .macMenuBar: .compact
        }
    }
}

extension AppModel {
    /// Where `activity` shows on the device's paired surfaces, one entry per surface paired:
    /// a running activity (active or stale) on an iPhone recent enough for the surface.
    public func surfaces(of activity: LiveActivity) -> [SurfacePresentation] {
        let declared = self.activityTypes[activity.attributesType]?.supplementalActivityFamilies ?? []
        let version = IOSVersion(self.iosVersion)
        return ActivitySurface.allCases.filter { self.pairedSurfaces.contains($0) }.map { surface in
            var presentation = SurfacePresentation(
                surface: surface, family: surface.family(declared: declared), shown: false, reason: nil)
            if self.platform != .iOS {
                presentation.reason =
                    "only an iPhone's Live Activities reach its paired surfaces; this device is \(self.platform.rawValue)"
            } else if let version, version < surface.since {
                presentation.reason =
                    "\(surface.rawValue) shows Live Activities from iOS \(surface.since); the phone runs \(self.iosVersion)"
            } else if !activity.isRunning {
                presentation.reason = "the activity is \(activity.activityState.rawValue)"
            } else {
                presentation.shown = true
            }
            return presentation
        }
    }
}
