import APNsCore
import APNsInspection
import Foundation
import NIOCore

/// Every admin route, once, each concern's with its handlers in `<Concern>Routes.swift` (the
/// cluster's in `Cluster/`). A new route is one entry in its concern's list, its handler beside
/// it and its operation in `openapi.json`.
extension AdminRoute {
    /// The journal filter's parameters (`JournalFilter.parse`).
    static let filter: Set<String> = [
        "token", "topic", "pushType", "status", "interface", "since", "q", "outcome", "environment",
    ]

    static let table: [AdminRoute] =
        ServiceRoutes.routes + WorldRoutes.routes + ClockRoutes.routes + PushRoutes.routes + NotificationRoutes.routes
        + FaultRoutes.routes + DeviceRoutes.routes
        + TokenRoutes.routes + PhoneRoutes.routes
        + LocalRoutes.routes
        + FocusRoutes.routes
        + ActivityRoutes.routes
        + WebAppRoutes.routes + ChannelRoutes.routes + ClusterChannelRoutes.routes + ProviderRoutes.routes
}
