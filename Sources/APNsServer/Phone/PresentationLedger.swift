import APNsCore
import APNsDevice
import Synchronization

/// What the phone decided for each notification handed to a device, until the device
/// acknowledges it (a notification sent again after a reconnect is not presented twice), and
/// the local request each fired local notification came from, until it is presented. A lock of
/// its own: nothing here touches an app.
///
/// Thread-safe.
final class PresentationLedger: Sendable {
    struct Decision: Sendable {
        var install: AppInstall
        var token: DeviceToken
        var presentation: Presentation
    }

    private struct State {
        var decided: [String: Decision] = [:]
        var order: [String] = []
        var localRequests: [String: String] = [:]
    }

    private let state = RankedMutex(.index, State())
    /// The most decisions remembered for devices that do not acknowledge; past it the oldest
    /// tenth is forgotten.
    let limit: Int

    init(limit: Int = 10_000) {
        self.limit = limit
    }

    /// The decision made for `uniqueID`, if one is remembered.
    func decision(_ uniqueID: String) -> Decision? {
        self.state.withLock { $0.decided[uniqueID] }
    }

    /// Remembers a decision.
    func record(_ uniqueID: String, _ decision: Decision) {
        self.state.withLock { state in
            if state.decided.updateValue(decision, forKey: uniqueID) == nil { state.order.append(uniqueID) }
            if state.order.count > self.limit {
                let dropped = state.order.prefix(self.limit / 10)
                for id in dropped { state.decided[id] = nil }
                state.order.removeFirst(dropped.count)
            }
        }
    }

    /// A remembered decision's presentation changed since (its Scheduled Summary was presented).
    func update(_ uniqueID: String, presentation: Presentation) {
        self.state.withLock { $0.decided[uniqueID]?.presentation = presentation }
    }

    /// The device acknowledged `uniqueID`: it will not be handed over again. Its id stays in the
    /// order until trimmed (removing it there would scan the list).
    func forget(_ uniqueID: String) {
        _ = self.state.withLock { $0.decided.removeValue(forKey: uniqueID) }
    }

    /// A local notification `uniqueID` fired from request `identifier`.
    func fired(_ uniqueID: String, from identifier: String) {
        self.state.withLock { $0.localRequests[uniqueID] = identifier }
    }

    /// The request local notification `uniqueID` fired from, once: it is being presented.
    func takeLocalRequest(_ uniqueID: String) -> String? {
        self.state.withLock { $0.localRequests.removeValue(forKey: uniqueID) }
    }

    /// How many decisions are remembered.
    var count: Int { self.state.withLock { $0.decided.count } }

    /// Forgets every decision (a reset).
    func removeAll() {
        self.state.withLock { state in
            state.decided = [:]
            state.order = []
        }
    }
}
