import APNsCore
import APNsInspection
import Logging
import NIOCore

/// A connection a listener refuses once TLS is up, before any request it could answer: logged and
/// journaled with the port it reached and where what it wanted belongs, so that nothing a client
/// sends to the wrong door disappears without a word.
struct ConnectionRefusal {
    let inspection: Inspection
    let clock: @Sendable () -> Int64
    let logger: Logger

    /// Logs and journals the refusal of `channel`'s connection on `source`; `detail` says why.
    /// On the channel's event loop.
    func record(_ channel: any Channel, source: Interface, statusByte: UInt8? = nil, detail: String) {
        let port = channel.localAddress?.port
        self.logger.info(
            "refused a connection: \(detail)",
            metadata: [
                "connection.peer": "\(channel.remoteAddress.map { "\($0)" } ?? "?")", "connection.port": "\(port ?? 0)",
                "apns.interface": "\(source)",
            ])
        var ids = APNsIDGenerator(shard: nil)
        let now = self.clock()
        let refused = RejectedPush(
            connectionOn: source, port: port, id: ids.timeOrderedUUID(nowMillis: now), statusByte: statusByte, sent: [],
            detail: detail, receivedAt: now)
        self.inspection.rejected(refused, fault: nil)
    }
}
