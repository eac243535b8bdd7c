import APNsCore
import SwiftASN1
import X509

/// What a provider's client certificate says about it, as APNs reads it: the topics it may push
/// to and the environments it is for.
public struct ProviderCertificate: Sendable, Equatable {
    /// Subject `UID`: the app's bundle id.
    static let userIDOID: ASN1ObjectIdentifier = [0, 9, 2342, 19_200_300, 100, 1, 1]
    /// Apple's extensions marking a push certificate for the sandbox and for production.
    static let developmentOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 1]
    static let productionOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 2]
    /// Apple's topics extension of universal certificates: a sequence of topic strings, each
    /// followed by a sequence naming its kind (`app`, `voip`, `complication`).
    static let topicsOID: ASN1ObjectIdentifier = [1, 2, 840, 113_635, 100, 6, 3, 6]

    /// The bundle id (subject UID) first, then the topics extension's, without repeats.
    public var topics: [String]
    /// The environments the certificate is for; a certificate with neither of Apple's environment
    /// extensions (a provider's own test CA, say) is taken for both.
    public var environments: Set<APNsEnvironment>

    public init(topics: [String], environments: Set<APNsEnvironment> = Set(APNsEnvironment.allCases)) {
        self.topics = topics
        self.environments = environments
    }

    /// Reads a certificate. Topics that cannot be decoded are left out, which leaves a certificate
    /// without topics: APNs' `BadCertificate`.
    public init(_ certificate: Certificate) {
        var topics: [String] = []
        for rdn in certificate.subject {
            for attribute in rdn where attribute.type == Self.userIDOID {
                if let uid = String(attribute.value), !uid.isEmpty { topics.append(uid) }
            }
        }
        if let topicsExtension = certificate.extensions[oid: Self.topicsOID] {
            for topic in Self.decodeTopics(topicsExtension.value) where !topics.contains(topic) {
                topics.append(topic)
            }
        }
        var environments = Set<APNsEnvironment>()
        if certificate.extensions[oid: Self.developmentOID] != nil { environments.insert(.development) }
        if certificate.extensions[oid: Self.productionOID] != nil { environments.insert(.production) }
        self.init(topics: topics, environments: environments.isEmpty ? Set(APNsEnvironment.allCases) : environments)
    }

    /// Reads a DER-encoded certificate; `nil` when it is not one.
    public init?(derEncoded bytes: [UInt8]) {
        guard let certificate = try? Certificate(derEncoded: bytes) else { return nil }
        self.init(certificate)
    }

    /// The topic a request without `apns-topic` goes to: only a single-topic certificate has one.
    public var defaultTopic: String? { self.topics.count == 1 ? self.topics[0] : nil }

    /// The bundle id: what the binary interface, which has no topic field, pushes to.
    public var bundleID: String? { self.topics.first }

    static func decodeTopics(_ value: ArraySlice<UInt8>) -> [String] {
        guard let root = try? DER.parse(value), case .constructed(let children) = root.content else { return [] }
        return children.compactMap { node in
            guard node.identifier == .utf8String, let topic = try? ASN1UTF8String(derEncoded: node) else { return nil }
            return String(topic)
        }
    }

    /// The topics extension's value for `topics`, each paired with its kind.
    static func encodeTopics(_ topics: [(topic: String, kind: String)]) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.appendConstructedNode(identifier: .sequence) { coder in
            for (topic, kind) in topics {
                try coder.serialize(ASN1UTF8String(topic))
                try coder.appendConstructedNode(identifier: .sequence) { try $0.serialize(ASN1UTF8String(kind)) }
            }
        }
        return serializer.serializedBytes
    }
}
