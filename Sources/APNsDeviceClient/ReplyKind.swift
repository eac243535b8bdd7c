import APNsCore
import APNsDevice
import APNsWire
import Foundation
import NIOCore

/// The kinds of reply a request waits for.
enum ReplyKind: Hashable {
    case welcome, registered, resumed, unregistered, pong
    /// Version 2, answered by their own message or by `refused`, matched by subject (topic or
    /// unique id) since the same messages also arrive unasked.
    case authorization, app, response, scheduled, pending, cancelled, power, webApp
    /// Version 3: the answer to start-activity, end-activity and activities.
    case activities

    /// Whether the kind is a version-2 answer (matched by subject, refusable).
    var isPhone: Bool {
        switch self {
        case .welcome, .registered, .resumed, .unregistered, .pong: false
        case .authorization, .app, .response, .scheduled, .pending, .cancelled, .power, .webApp, .activities: true
        }
    }
}
