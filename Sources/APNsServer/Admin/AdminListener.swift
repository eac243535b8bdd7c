import APNsCore
import APNsInspection
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// The admin API: plain HTTP/1.1 and JSON, for people and tests.
struct AdminListener: Service {
    let listener: Listener
    let router: AdminRouter
    /// Who may use it: Origin and Host checks, the token.
    let access: AdminAccess
    let onBound: @Sendable (SocketAddress) -> Void

    func run() async throws {
        let (router, access) = (self.router, self.access)
        try await self.listener.run(
            initializeChild: { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(AdminHTTPHandler(router: router, access: access))
                }
            },
            onBound: self.onBound
        )
    }
}
