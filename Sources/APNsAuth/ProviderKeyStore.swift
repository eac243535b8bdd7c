import APNsCore
import Crypto
import Foundation
import Logging
import Synchronization

/// The provider-token keys the emulator trusts: one `<key id>.json` file per key in a directory
/// (`--keys`), written by `apns-emulator keys create` or `keys import`.
///
/// A running emulator sees keys added later: an unknown key id re-reads the directory when it has
/// changed since it was last read. Thread-safe.
public final class ProviderKeyStore: Sendable {
    public let directory: String
    private let state: Mutex<Loaded>
    private let logger: Logger

    private struct Loaded {
        var keys: [String: ProviderKey] = [:]
        var modified: Date?
    }

    /// Reads every key in `directory`; a missing directory is an empty store.
    public init(directory: String, logger: Logger = Logger(label: "apns-emulator.keys")) throws(AuthError) {
        self.directory = directory
        self.logger = logger
        var loaded = Loaded()
        try Self.reload(directory, into: &loaded)
        self.state = Mutex(loaded)
    }

    /// The key with this id, re-reading the directory once if it changed since it was last read.
    /// A directory that fails to read then keeps the keys read before, and the failure is logged.
    public func key(id: String) -> ProviderKey? {
        self.state.withLock { loaded in
            if let key = loaded.keys[id] { return key }
            guard Self.modified(self.directory) != loaded.modified else { return nil }
            do {
                try Self.reload(self.directory, into: &loaded)
            } catch {
                // Not retried until the directory changes again: one bad file must not cost a
                // directory read per request.
                loaded.modified = Self.modified(self.directory)
                self.logger.error(
                    "could not re-read the key store",
                    metadata: ["keys.directory": "\(self.directory)", "keys.error": "\(error)"])
            }
            return loaded.keys[id]
        }
    }

    /// Every key in the directory now, by key id (an export).
    public static func keys(in directory: String) throws(AuthError) -> [ProviderKey] {
        var loaded = Loaded()
        try Self.reload(directory, into: &loaded)
        return loaded.keys.values.sorted { $0.keyID < $1.keyID }
    }

    /// How many keys are loaded.
    public var count: Int { self.state.withLock { $0.keys.count } }

    private static func reload(_ directory: String, into loaded: inout Loaded) throws(AuthError) {
        let modified = Self.modified(directory)
        guard modified != nil else {
            // No directory (yet): no keys, as documented for a fresh emulator.
            loaded = Loaded()
            return
        }
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw AuthError(.keyStore, "cannot list \(directory): \(error.localizedDescription)")
        }
        var keys: [String: ProviderKey] = [:]
        for name in names where name.hasSuffix(".json") {
            let path = directory + "/" + name
            do {
                let key = try ProviderKey(json: try Data(contentsOf: URL(fileURLWithPath: path)))
                keys[key.keyID] = key
            } catch {
                throw AuthError(.keyStore, "\(path): \(error)")
            }
        }
        loaded = Loaded(keys: keys, modified: modified)
    }

    /// The directory's modification time; nil when there is no directory.
    private static func modified(_ directory: String) -> Date? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: directory) else { return nil }
        return attributes[.modificationDate] as? Date
    }

    /// Adds `key` to the key store in `directory`, replacing a key with the same id.
    public static func register(_ key: ProviderKey, in directory: String) throws {
        try PrivateFiles.directory(directory)
        try PrivateFiles.write(Array(key.json()), to: directory + "/" + ProviderKey.fileName(keyID: key.keyID))
    }

    /// Reads a `.p8` private key (PKCS#8 PEM, as Apple issues them).
    public static func privateKey(p8 path: String) throws(AuthError) -> P256.Signing.PrivateKey {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw AuthError(.privateKey, "cannot read \(path): \(error.localizedDescription)")
        }
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: text)
        } catch {
            throw AuthError(.privateKey, "\(path) holds no P-256 private key (expected a .p8 file as Apple issues them)")
        }
    }
}
