import Crypto
import Foundation
import NIOConcurrencyHelpers

/// The provider-token keys the emulator trusts: one `<key id>.json` file per key in a directory
/// (`--keys`), written by `apns-emulator keys create` or `keys import`.
///
/// A running emulator sees keys added later: an unknown key id re-reads the directory when it has
/// changed since it was last read. Thread-safe.
public final class ProviderKeyStore: Sendable {
    public let directory: String
    private let state: NIOLockedValueBox<Loaded>

    private struct Loaded {
        var keys: [String: ProviderKey] = [:]
        var modified: Date?
    }

    /// Reads every key in `directory`; a missing directory is an empty store.
    public init(directory: String) throws {
        self.directory = directory
        self.state = NIOLockedValueBox(Loaded())
        try self.state.withLockedValue { try self.reload(&$0) }
    }

    /// The key with this id, re-reading the directory once if it changed since it was last read.
    public func key(id: String) -> ProviderKey? {
        self.state.withLockedValue { loaded in
            if let key = loaded.keys[id] { return key }
            guard Self.modified(self.directory) != loaded.modified else { return nil }
            // A key that fails to load now is reported by `keys` when it is written; here it is
            // simply not there.
            try? self.reload(&loaded)
            return loaded.keys[id]
        }
    }

    /// How many keys are loaded.
    public var count: Int { self.state.withLockedValue { $0.keys.count } }

    private func reload(_ loaded: inout Loaded) throws {
        loaded.modified = Self.modified(self.directory)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: self.directory) else {
            loaded.keys = [:]
            return
        }
        var keys: [String: ProviderKey] = [:]
        for name in names where name.hasSuffix(".json") {
            let path = self.directory + "/" + name
            do {
                let key = try ProviderKey(json: try Data(contentsOf: URL(fileURLWithPath: path)))
                keys[key.keyID] = key
            } catch {
                throw ServerError(name: "keys", message: "\(path): \(error)")
            }
        }
        loaded.keys = keys
    }

    private static func modified(_ directory: String) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: directory))?[.modificationDate] as? Date
    }

    /// Adds `key` to the key store in `directory`, replacing a key with the same id.
    public static func register(_ key: ProviderKey, in directory: String) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try key.json().write(to: URL(fileURLWithPath: directory + "/" + ProviderKey.fileName(keyID: key.keyID)), options: .atomic)
    }

    /// Reads a `.p8` private key (PKCS#8 PEM, as Apple issues them).
    public static func privateKey(p8 path: String) throws -> P256.Signing.PrivateKey {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ServerError(name: "keys", message: "cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: text)
        } catch {
            throw ServerError(name: "keys", message: "\(path) holds no P-256 private key (expected a .p8 file as Apple issues them)")
        }
    }
}
