import APNsDevice

/// Each device's Focus, while one is on: the phone's, not one app's, so every app of the device
/// holds it too, and an app the device installs later starts in it (``PhoneApps/preload(_:)``).
///
/// Thread-safe.
final class DeviceFocuses: Sendable {
    private let focuses = RankedMutex(.index, [String: Focus]())

    /// The Focus `deviceID` is in, if any.
    func focus(of deviceID: String) -> Focus? {
        self.focuses.withLock { $0[deviceID] }
    }

    func set(_ focus: Focus?, of deviceID: String) {
        self.focuses.withLock { $0[deviceID] = focus }
    }

    /// Takes in the Focus of each app read at start (every app of a device holds the device's).
    func load(_ apps: [(AppInstall, AppModel)]) {
        self.focuses.withLock { focuses in
            for (install, app) in apps { if let focus = app.focus { focuses[install.deviceID] = focus } }
        }
    }

    func reset() {
        self.focuses.withLock { $0 = [:] }
    }
}
