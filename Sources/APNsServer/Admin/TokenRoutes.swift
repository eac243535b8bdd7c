import APNsCore
import APNsInspection
import NIOCore

/// `GET /api/v1/tokens/<token>`, the Console's token validation: they hold the store's reader and nothing else.
struct TokenRoutes: Sendable {
    typealias Response = AdminRouter.Response
    let reader: StoreReader

    /// Is the token known, which environment it belongs to, its device and app, still
    /// registered or since when not.
    func check(_ token: DeviceToken) throws(AdminError) -> Response {
        do {
            let record = try self.reader.records(of: [token]).first?.record
            let queued = try self.reader.queued(for: token).count
            let body = TokenCheckJSON.write(
                token: token, record: record, queued: queued, openPolicy: self.reader.tokenPolicy == .open)
            return Response(status: 200, body: body)
        } catch {
            throw AdminError(.internalError, "\(error)")
        }
    }

    /// Their entries in ``AdminRoute/table``.
    static let routes: [AdminRoute] = [
        AdminRoute("GET", "/api/v1/tokens/{token}", cluster: .tokenOwner, on: \.tokenRoutes) {
            routes, request throws(AdminError) in
            try request.now(routes.check(request.deviceToken()))
        }
    ]
}

extension AdminRouter {
    var tokenRoutes: TokenRoutes { TokenRoutes(reader: self.reader) }
}
