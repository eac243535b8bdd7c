import APNsCore
import APNsDevice

/// Which tokens a push may go to.
public enum TokenPolicy: String, Sendable, CaseIterable, CustomStringConvertible {
    /// Any well-formed token; its queue waits for a device that resumes it.
    case open
    /// Only tokens the emulator issued (unknown → 400 BadDeviceToken, as APNs does).
    case registered

    public var description: String { self.rawValue }

    /// Why a push to a token is refused, given what the store knows of it (`record`), the
    /// provider's topic and the environment it was sent to; `nil` lets it through. The writer and
    /// the gateway's early check share it. A token is no token at all in the other environment,
    /// so that is judged first (APNs: BadDeviceToken).
    public func refusal(for record: TokenRecord?, topic: String?, environment: APNsEnvironment) -> StoreOutcome? {
        guard let record else { return self == .registered ? .unknownToken : nil }
        if record.environment != environment { return .tokenInOtherEnvironment(record.environment) }
        if let unregisteredAt = record.unregisteredAt { return .tokenUnregistered(timestamp: unregisteredAt) }
        if let topic, !record.topic.isEmpty, topic != record.topic { return .tokenNotForTopic }
        return nil
    }
}
