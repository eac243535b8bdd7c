import APNsCore
import APNsProviderClient
import Foundation
import NIOCore
import NIOHTTP2
import NIOSSL
import Synchronization

/// Records the server's connection-level frames; on the connection's event loop.
final class ConnectionObserver: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTP2Frame
    let events = Mutex(HTTP2TestClient.ConnectionEvents())

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = self.unwrapInboundIn(data)
        switch frame.payload {
        case .settings(.settings(let settings)):
            self.events.withLock { $0.settings.append(contentsOf: settings) }
        case .goAway(let lastStreamID, let errorCode, let opaqueData):
            let text = opaqueData.map { String(buffer: $0) } ?? ""
            self.events.withLock { $0.goAway = (lastStreamID, errorCode, text) }
        case .windowUpdate(let increment):
            self.events.withLock { $0.windowIncrements += increment }
        default:
            break
        }
        context.fireChannelRead(data)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if error.isConnectionReset || (error as? NIOSSLError) == .uncleanShutdown {
            self.events.withLock { $0.resetByPeer = true }
        }
        context.fireErrorCaught(error)
    }

    func channelInactive(context: ChannelHandlerContext) {
        self.events.withLock { $0.closed = true }
        context.fireChannelInactive()
    }
}
