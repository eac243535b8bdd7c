import APNsAuth
import APNsCore
import APNsServer
import Crypto
import Foundation
import NIOSSL
import X509

extension RunningEmulator {
    /// Where this emulator's provider-token keys are.
    public var keysDirectory: String { self.emulator.configuration.keysDirectory }

    /// Mints a provider certificate signed by this emulator's development CA.
    public func providerIdentity(
        uid: String?,
        topics: [(topic: String, kind: String)] = [],
        environments: Set<APNsEnvironment> = [.development]
    ) throws -> ClientIdentity {
        try ClientIdentity.mint(
            signedBy: self.emulator.configuration.certificatesDirectory,
            into: self.directory.appending("clients"),
            uid: uid,
            topics: topics,
            environments: environments
        )
    }

    /// Registers a new provider-token key with this emulator.
    public func registerKey(
        keyID: String = "KEY1234567", teamID: String = "TEAM123456", topics: [String] = [], environment: APNsEnvironment? = nil
    ) throws -> TestProviderKey {
        try TestProviderKey.register(
            in: self.keysDirectory, keyID: keyID, teamID: teamID, topics: topics, environment: environment)
    }

    /// The emulator's clock now, in seconds: the `iat` of a fresh token.
    public var nowSeconds: Int64 { self.emulator.configuration.clock() / 1000 }
}
