import APNsCore
import APNsInspection
import NIOCore

extension EmulatorMetrics {
    /// Counts `channel` among the connected providers until it closes.
    func countConnection(_ interface: Interface, _ channel: any Channel) {
        self.providerConnection(interface, 1)
        channel.closeFuture.whenComplete { _ in self.providerConnection(interface, -1) }
    }
}
