import APNsCore
import Crypto
import Synchronization

/// A provider token whose signature checked out against a key of the token's team.
public struct VerifiedProviderToken: Sendable {
    public var token: ProviderToken
    public var key: ProviderKey
}
