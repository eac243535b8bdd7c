import APNsAuth
import APNsCore
import APNsDevice
import APNsInspection
import Crypto
import Foundation
import NIOSSL

/// The sections of a seed file, one reader each.
extension SeedReader {
    static let keyFields = ["keyId", "teamId", "p8", "publicKey", "topics", "environment"]

    /// `{keyId, teamId, p8 | publicKey, topics, environment}`: a provider-token key; `p8` is the
    /// private key's file (as `keys create` writes it), `publicKey` the PEM an export writes.
    func key(_ value: JSONValue, _ path: String) throws(ServerError) -> ProviderKey {
        let fields = try self.members(value, path, allowed: Self.keyFields, what: "keyId, teamId and p8 or publicKey")
        guard let keyID = try self.string(fields["keyId"], "\(path).keyId", "the key's id"),
            let teamID = try self.string(fields["teamId"], "\(path).teamId", "the team id")
        else { throw self.error(path, "needs keyId, teamId and p8 (the .p8 file's path) or publicKey (PEM)") }
        let publicKey: P256.Signing.PublicKey
        if let pem = try self.string(fields["publicKey"], "\(path).publicKey", "a P-256 public key in PEM") {
            do {
                publicKey = try P256.Signing.PublicKey(pemRepresentation: pem)
            } catch {
                throw self.error("\(path).publicKey", "is not a P-256 public key in PEM: \(error)")
            }
        } else if let p8 = try self.string(fields["p8"], "\(path).p8", "the .p8 file's path") {
            let file = self.resolve(p8)
            do {
                publicKey = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: file, encoding: .utf8))
                    .publicKey
            } catch {
                throw self.error("\(path).p8", "\(file) is not a readable P-256 key in PEM: \(error)")
            }
        } else {
            throw self.error(path, "needs p8 (the .p8 file's path) or publicKey (PEM)")
        }
        return ProviderKey(
            keyID: keyID, teamID: teamID, publicKey: publicKey, topics: try self.topics(fields["topics"], "\(path).topics"),
            environment: try self.environment(fields["environment"], "\(path).environment"))
    }

    private func topics(_ value: JSONValue?, _ path: String) throws(ServerError) -> [String] {
        guard let value, value != .null else { return [] }
        guard case .array(let items) = value, let topics = Optional(items.compactMap(\.string)),
            topics.count == items.count, !topics.contains(where: \.isEmpty)
        else { throw self.error(path, "is a list of bundle ids, e.g. [com.example.app]") }
        return topics
    }

    /// Apple's words for a key's environment: sandbox, production, or both (the default).
    private func environment(_ value: JSONValue?, _ path: String) throws(ServerError) -> APNsEnvironment? {
        switch try self.string(value, path, "sandbox, production or both") {
        case nil, "both"?: return nil
        case "sandbox"?, "development"?: return .development
        case "production"?: return .production
        default: throw self.error(path, "is sandbox, production or both (development is taken for sandbox)")
        }
    }

    /// A certificate authority provider certificates may chain to: its PEM text, or
    /// `{path: file}`. One entry may hold several certificates; each comes back on its own.
    func certificates(_ value: JSONValue, _ path: String) throws(ServerError) -> [String] {
        let pem: String
        if let text = value.string {
            pem = text
        } else {
            let fields = try self.members(value, path, allowed: ["path"], what: "path (a PEM file)")
            guard let file = try self.string(fields["path"], "\(path).path", "a PEM file's path") else {
                throw self.error(path, "is PEM text or {path: a PEM file}")
            }
            do {
                pem = try String(contentsOfFile: self.resolve(file), encoding: .utf8)
            } catch {
                throw self.error("\(path).path", "cannot read \(self.resolve(file)): \(error.localizedDescription)")
            }
        }
        let blocks = SeedCertificates.blocks(pem)
        guard !blocks.isEmpty else { throw self.error(path, "holds no PEM certificate (-----BEGIN CERTIFICATE-----)") }
        for block in blocks {
            do {
                _ = try NIOSSLCertificate(bytes: Array(block.utf8), format: .pem)
            } catch {
                throw self.error(path, "is not a readable certificate: \(error)")
            }
        }
        return blocks
    }

    /// A path relative to the seed file's folder.
    func resolve(_ path: String) -> String {
        path.hasPrefix("/") ? path : URL(fileURLWithPath: self.directory).appendingPathComponent(path).path
    }

    /// A fault rule as `POST /api/v1/faults` takes it, with the `id` and `hits` an export adds.
    func fault(_ value: JSONValue, _ path: String) throws(ServerError) -> SeedDocument.Fault {
        guard case .object(var members) = value else { throw self.error(path, "must be a mapping with match and action") }
        let id = try self.string(members.removeValue(forKey: "id"), "\(path).id", "a fault rule's id")
        var hits = 0
        if let given = members.removeValue(forKey: "hits"), given != .null {
            guard let number = given.number, number >= 0, number == number.rounded() else {
                throw self.error("\(path).hits", "must be a whole number, 0 or more")
            }
            hits = Int(number)
        }
        do {
            let document = try RequestDocument.decode(
                FaultRuleDocument.self, from: JSONValue.object(members).compact, example: FaultRuleDocument.example)
            return SeedDocument.Fault(document: document, id: id, hits: hits)
        } catch {
            throw self.error(path, error.message)
        }
    }
}

/// PEM certificate blocks in a text.
enum SeedCertificates {
    static func blocks(_ text: String) -> [String] {
        let end = "-----END CERTIFICATE-----"
        var blocks: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "-----BEGIN CERTIFICATE-----"),
            let stop = rest.range(of: end, range: start.upperBound..<rest.endIndex)
        {
            blocks.append(String(rest[start.lowerBound..<stop.upperBound]) + "\n")
            rest = rest[stop.upperBound...]
        }
        return blocks
    }
}
