import APNsCore
import APNsInspection
import NIOCore

extension AdminRouter {
    /// `GET /api/v1/tokens/<token>`: is the token known, which environment it belongs to, its
    /// device and app, still registered or since when not: the Console's token validation.
    func checkToken(_ token: DeviceToken) throws(AdminError) -> Response {
        do {
            let record = try self.relay.records(of: [token]).first?.record
            let queued = try self.relay.queued(for: token).count
            let body = TokenCheckJSON.write(
                token: token, record: record, queued: queued, openPolicy: self.relay.tokenPolicy == .open)
            return Response(status: 200, body: body)
        } catch {
            throw AdminError(.internalError, "\(error)")
        }
    }
}

/// The routes of this concern: their entries in ``AdminRoute/table``.
extension AdminRoute {
    static let tokens: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/tokens/{token}", cluster: .tokenOwner) { router, request throws(AdminError) in
            try request.now(router.checkToken(request.deviceToken()))
        }
    ]
}
