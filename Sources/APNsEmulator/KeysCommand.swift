import APNsAuth
import APNsCore
import ArgumentParser
import Crypto
import Foundation

/// `apns-emulator keys`: provider-token signing keys.
struct KeysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys",
        abstract: "Create and register provider-token (JWT) signing keys.",
        version: EmulatorVersion.string,
        subcommands: [Create.self, Import.self, Token.self]
    )

    /// The key id given, or the one in an `AuthKey_<key id>.p8` file name, as Apple names them.
    static func keyID(_ given: String?, of path: String) throws -> String {
        let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        guard let keyID = given ?? (name.hasPrefix("AuthKey_") ? String(name.dropFirst(8)) : nil), !keyID.isEmpty else {
            throw ValidationError("give --key-id: \(path) is not named AuthKey_<key id>.p8")
        }
        return keyID
    }

    /// Where the key is registered and what it may be used for; shared by `create` and `import`.
    struct Registration: ParsableArguments {
        @Option(name: .customLong("team-id"), help: "The team the key belongs to: the iss claim of its tokens.")
        var teamID: String

        @Option(
            name: .customLong("topic"),
            help: "Limit the key to this bundle id (and its .voip, .complication… topics); repeatable. Default: any topic.")
        var topic: [String] = []

        @Option(
            name: .customLong("topics"),
            help: "The same as a comma-separated list, as Apple's key page offers topic-specific keys.",
            transform: { list in list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            }
        )
        var topicLists: [[String]] = []

        @Option(help: "Where the key may be used, in Apple's words: sandbox (development), production or both.")
        var environment: KeyEnvironment = .both

        /// Every topic given, by either option.
        var topics: [String] { self.topic + self.topicLists.flatMap { $0 } }

        @Option(name: .customLong("keys"), help: "The emulator's key store (serve --keys).")
        var keysDirectory = "keys"

        func register(keyID: String, publicKey: P256.Signing.PublicKey) throws {
            let key = ProviderKey(
                keyID: keyID, teamID: self.teamID, publicKey: publicKey, topics: self.topics,
                environment: self.environment.environment)
            try ProviderKeyStore.register(key, in: self.keysDirectory)
            say("registered key \(keyID) of team \(self.teamID) in \(self.keysDirectory)/\(ProviderKey.fileName(keyID: keyID))")
        }
    }

    /// `apns-emulator keys create`: a new `.p8` key for the provider, registered with the emulator.
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Create an ES256 key: writes AuthKey_<key id>.p8 for the provider and registers its public key with the emulator.",
            version: EmulatorVersion.string
        )

        @OptionGroup var registration: Registration

        @Option(name: .customLong("key-id"), help: "The key id (kid), 10 characters as Apple's. Default: a random one.")
        var keyID: String?

        @Option(
            name: .customLong("out"),
            help: "Directory to write AuthKey_<key id>.p8 into (creds/ is git-ignored: it holds private keys).")
        var directory = "creds"

        func run() throws {
            let keyID = self.keyID ?? Self.randomKeyID()
            let key = P256.Signing.PrivateKey()
            // Private: it holds private keys.
            try PrivateFiles.directory(self.directory)
            let path = self.directory + "/AuthKey_\(keyID).p8"
            guard
                FileManager.default.createFile(
                    atPath: path, contents: Data(key.pemRepresentation.utf8), attributes: [.posixPermissions: 0o600])
            else {
                throw ValidationError("cannot write \(path)")
            }
            say("private key: \(path)  (give this to the provider, with key id \(keyID) and team id \(self.registration.teamID))")
            try self.registration.register(keyID: keyID, publicKey: key.publicKey)
        }

        static func randomKeyID() -> String {
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
            return String((0..<10).map { _ in alphabet.randomElement() ?? "A" })
        }
    }

    /// `apns-emulator keys import`: registers an existing `.p8` key.
    struct Import: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Register an existing .p8 key (such as one downloaded from Apple) with the emulator.",
            version: EmulatorVersion.string
        )

        @Argument(help: "The .p8 file.")
        var path: String

        @OptionGroup var registration: Registration

        @Option(name: .customLong("key-id"), help: "The key id (kid). Default: taken from an AuthKey_<key id>.p8 file name.")
        var keyID: String?

        func run() throws {
            let keyID = try KeysCommand.keyID(self.keyID, of: self.path)
            let key = try ProviderKeyStore.privateKey(p8: self.path)
            try self.registration.register(keyID: keyID, publicKey: key.publicKey)
        }
    }

    /// `apns-emulator keys token`: prints a provider token, for curl and load generators.
    struct Token: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print a provider token (JWT) signed with a .p8 key, for use as `authorization: bearer <token>`.",
            version: EmulatorVersion.string
        )

        @Argument(help: "The .p8 file.")
        var path: String

        @Option(name: .customLong("team-id"), help: "The iss claim.")
        var teamID: String

        @Option(name: .customLong("key-id"), help: "The kid header. Default: taken from an AuthKey_<key id>.p8 file name.")
        var keyID: String?

        @Option(name: .customLong("issued-at"), help: "The iat claim in UNIX seconds. Default: now.")
        var issuedAt: Int64?

        func run() throws {
            let keyID = try KeysCommand.keyID(self.keyID, of: self.path)
            let key = try ProviderKeyStore.privateKey(p8: self.path)
            let issuedAt = self.issuedAt ?? Int64(Date().timeIntervalSince1970)
            say(try ProviderToken.sign(keyID: keyID, teamID: self.teamID, issuedAt: issuedAt, with: key))
        }
    }
}
