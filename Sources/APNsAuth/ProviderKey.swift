import APNsCore
import Crypto
import Foundation

/// A provider-token signing key as the emulator knows it: the public half of a `.p8` key, the
/// team it belongs to and, optionally, the topics and environment it is limited to.
public struct ProviderKey: Sendable {
    public var keyID: String
    public var teamID: String
    /// The public key, X9.63-encoded (Crypto's key types are not `Sendable`).
    public var publicKeyBytes: [UInt8]
    /// Bundle ids the key may push to; empty means any topic of the team.
    public var topics: [String]
    /// The one environment the key is for; `nil` means both, as Apple's keys are by default.
    public var environment: APNsEnvironment?

    public init(
        keyID: String, teamID: String, publicKey: P256.Signing.PublicKey, topics: [String] = [],
        environment: APNsEnvironment? = nil
    ) {
        self.keyID = keyID
        self.teamID = teamID
        self.publicKeyBytes = Array(publicKey.x963Representation)
        self.topics = topics
        self.environment = environment
    }

    /// The public key to verify signatures with.
    public var publicKey: P256.Signing.PublicKey {
        get throws { try P256.Signing.PublicKey(x963Representation: self.publicKeyBytes) }
    }

    /// Whether a push to `topic` is within the key's topics. A bundle id also covers its
    /// `.voip`, `.complication` and other push-type suffixes.
    public func allows(topic: String) -> Bool {
        self.topics.isEmpty
            || self.topics.contains {
                topic == $0 || (topic.hasPrefix($0) && topic.utf8.dropFirst($0.utf8.count).first == UInt8(ascii: "."))
            }
    }

    /// The file a key is kept in inside a key-store directory.
    public static func fileName(keyID: String) -> String { keyID + ".json" }

    /// The key-store file's JSON.
    public func json() throws -> Data {
        var object: [String: JSONValue] = [
            "keyId": .string(self.keyID),
            "teamId": .string(self.teamID),
            "publicKey": .string(try self.publicKey.pemRepresentation),
            "topics": .array(self.topics.map(JSONValue.string)),
        ]
        if let environment = self.environment { object["environment"] = .string(environment.rawValue) }
        return Data(JSONValue.object(object).prettyPrinted)
    }

    /// Reads a key-store file's JSON.
    public init(json data: Data) throws {
        guard let object = JSONValue.parse(Array(data)), case .object = object,
            let keyID = object["keyId"]?.string, let teamID = object["teamId"]?.string,
            let pem = object["publicKey"]?.string
        else { throw AuthError(.keyStore, "a key-store entry needs keyId, teamId and publicKey") }
        let environment: APNsEnvironment?
        switch object["environment"] {
        case nil, .null?: environment = nil
        case .string(let name)?:
            guard let parsed = APNsEnvironment(rawValue: name) else {
                throw AuthError(.keyStore, "unknown environment \(name) (development or production)")
            }
            environment = parsed
        default: throw AuthError(.keyStore, "environment must be development or production")
        }
        self.init(
            keyID: keyID,
            teamID: teamID,
            publicKey: try P256.Signing.PublicKey(pemRepresentation: pem),
            topics: Self.strings(object["topics"]),
            environment: environment
        )
    }

    /// A JSON array of strings; empty for anything else (a missing or malformed `topics`).
    private static func strings(_ value: JSONValue?) -> [String] {
        guard case .array(let items)? = value else { return [] }
        let strings = items.compactMap(\.string)
        return strings.count == items.count ? strings : []
    }
}
