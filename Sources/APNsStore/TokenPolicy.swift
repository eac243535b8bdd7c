import APNsCore
import APNsDevice

/// Which tokens a push may go to.
public enum TokenPolicy: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Any well-formed token; its queue waits for a device that resumes it.
    case open
    /// Only tokens the emulator issued (unknown → 400 BadDeviceToken, as APNs does).
    case registered

    public var description: String { self.rawValue }

    /// Why a push to a token is refused, given what the store knows of it (`record`) and the
    /// provider's topic; `nil` lets it through. The writer and the gateway's early check share it.
    public func refusal(for record: TokenRecord?, topic: String?) -> StoreOutcome? {
        guard let record else { return self == .registered ? .unknownToken : nil }
        if let unregisteredAt = record.unregisteredAt { return .tokenUnregistered(timestamp: unregisteredAt) }
        if let topic, !record.topic.isEmpty, topic != record.topic { return .tokenNotForTopic }
        return nil
    }
}
