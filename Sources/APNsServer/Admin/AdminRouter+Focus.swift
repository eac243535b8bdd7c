import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// `/api/v1/devices/<device id>/focus`: the Focus the user turned on, by device id (a Focus is
/// the phone's, not an app's).
/// The admin API's door to ``FocusOperations``.
extension AdminRouter {
    var focusOperations: FocusOperations { FocusOperations(phone: self.phone) }

    /// `GET`: the device's Focus (`active` null when none is on).
    func focus(of deviceID: String) throws(AdminError) -> Response {
        try Self.answer(self.focusOperations.read(deviceID))
    }

    /// `PUT`: turns a Focus on (`{"active": "Work", "allowedApps": [...], "timeSensitive": true}`)
    /// or off (`{"active": null}`) for every app of the device, and those it installs later.
    func setFocus(of deviceID: String, body: [UInt8], on eventLoop: any EventLoop) -> EventLoopFuture<Response> {
        self.focusOperations.set(deviceID, body, on: eventLoop).map { Response(status: 200, body: $0) }.failingAsRefusal()
    }
}

extension AdminRouter.Request {
    /// The path's `{deviceId}`, percent-decoded (`token%3A…` is the device `token:…`).
    func deviceID() -> String {
        let raw = self[path: "deviceId"]
        return raw.removingPercentEncoding ?? raw
    }
}

/// The routes of this concern: their entries in ``AdminRoute/table``.
extension AdminRoute {
    static let focus: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/devices/{deviceId}/focus") { router, request throws(AdminError) in
            try request.now(router.focus(of: request.deviceID()))
        },
        // Every shard: the device's apps may be on any of them, and those it installs later too.
        AdminRoute("PUT", "/api/v1/devices/{deviceId}/focus", cluster: .everyShard) { router, request throws(AdminError) in
            request.later(router.setFocus(of: request.deviceID(), body: request.body, on: request.eventLoop))
        },
    ]
}
