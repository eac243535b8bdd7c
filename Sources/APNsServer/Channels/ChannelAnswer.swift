import APNsAuth
import APNsCore
import APNsDevice
import APNsInspection
import NIOCore

/// What a channel management or broadcast request is answered with.
struct ChannelAnswer: Sendable {
    var status: Int
    var requestID: String
    var channelID: String?
    var uniqueID: String?
    /// A success's JSON body (a read, a list).
    var body: [UInt8]?
    /// A refusal's reason and, when it says more than the reason, why.
    var reason: Reason?
    var detail: String?
    var warnings: [String] = []
    /// What the journal keeps of it.
    var record: BroadcastRecord
    /// What follows once the answer is written (a broadcast's news for the devices): the door
    /// that writes the answer calls it.
    var afterAnswer: (@Sendable () -> Void)? = nil

    /// As a provider's outcome: done as asked, or refused (it carries a reason).
    var outcome: ProviderOutcome {
        self.reason == nil ? .accepted(.channel(self)) : .refused(.channel(self))
    }
}
