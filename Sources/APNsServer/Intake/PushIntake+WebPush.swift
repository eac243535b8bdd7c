import APNsAuth
import APNsCore
import APNsInspection
import Logging
import NIOCore

/// The Web Push service's door into the one intake: a ``WebPushDoor`` through the intake's steps,
/// with the same fault rules, journal and metrics as every push (interface `webpush`). Called on
/// the connection's event loop, which the answer comes back on.
extension PushIntake {
    /// Answers a Web Push request once, on `eventLoop`.
    func take(webPush request: WebPushRequest, on eventLoop: any EventLoop, answer: @escaping (WebPushAnswer) -> Void) {
        let subscription = Self.subscriptionID(request.path).flatMap { self.webApps.webAppSubscription($0) }
        var door = WebPushDoor(request, subscription: subscription, receivedAt: self.clock())
        self.take(&door, on: eventLoop) { result in
            switch result {
            case .accepted(let accepted): answer(accepted)
            case .refused(let refusal): answer(.refused(refusal))
            case .reset, .goAway: answer(WebPushAnswer(status: 0, reset: true))
            }
        }
    }

    /// The `<id>` of `/push/<id>`.
    static func subscriptionID(_ path: String) -> String? {
        let prefix = "/push/"
        guard path.hasPrefix(prefix) else { return nil }
        let id = path.dropFirst(prefix.count)
        return id.isEmpty || id.contains("/") || id.contains("?") ? nil : String(id)
    }
}
