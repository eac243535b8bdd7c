import APNsAuth
import APNsCore
import Crypto
import Foundation

/// APNs' answer to a push: 200, or a rejection with its reason.
public struct PushAnswer: Sendable, Equatable {
    public var status: Int
    public var reason: String?
    public var apnsID: String?
    public var uniqueID: String?
    /// The emulator's explanation of a rejection (`apns-emulator-detail`).
    public var detail: String?

    public var isAccepted: Bool { self.status == 200 }
}

/// A notification the emulator received, as its journal shows it.
public struct ReceivedNotification: Sendable, Equatable {
    public var id: String
    public var uniqueID: String?
    public var token: String?
    public var topic: String?
    public var pushType: String?
    public var priority: Int?
    /// queued, delivered, expired, rejected, ...
    public var status: String
    /// The payload as JSON text.
    public var payload: String

    init(_ item: [String: Any]) {
        self.id = item["id"] as? String ?? ""
        self.uniqueID = item["uniqueId"] as? String
        self.token = item["token"] as? String
        self.topic = item["topic"] as? String
        self.pushType = item["pushType"] as? String
        self.priority = item["priority"] as? Int
        self.status = item["status"] as? String ?? ""
        let payload = item["payload"].flatMap { $0 is NSNull ? nil : $0 }
        self.payload = payload.flatMap { JSONValue.text(ofFoundation: $0) }.map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// The payload's `aps` dictionary.
    public var aps: [String: Any] {
        (JSONValue.foundationObject(Array(self.payload.utf8)) as? [String: Any])?["aps"] as? [String: Any] ?? [:]
    }

    /// The alert's title (or the alert itself when it is a string).
    public var alertTitle: String? {
        if let text = self.aps["alert"] as? String { return text }
        return (self.aps["alert"] as? [String: Any])?["title"] as? String
    }

    /// The alert's body.
    public var alertBody: String? { (self.aps["alert"] as? [String: Any])?["body"] as? String }
}

/// A provider-token signing key: what a provider library (APNSwift's `.jwt(privateKey:keyIdentifier:teamIdentifier:)`) takes.
public struct ProviderSigningKey: Sendable {
    public var keyID: String
    public var teamID: String
    /// The private key as PKCS#8 PEM: the contents of an `AuthKey_<key id>.p8` file.
    public var p8: String

    /// An `authorization` header value (`bearer <JWT>`) signed with this key, issued now.
    public func authorization(issuedAt: Date = Date()) throws -> String {
        let key = try P256.Signing.PrivateKey(pemRepresentation: self.p8)
        return "bearer " + (try ProviderToken.sign(keyID: self.keyID, teamID: self.teamID, issuedAt: Int64(issuedAt.timeIntervalSince1970), with: key))
    }
}

/// What went wrong: a wait that timed out (with what came closest), or an admin call refused.
public struct TestEmulatorError: Error, CustomStringConvertible, Sendable {
    public var message: String
    /// For a wait: the newest notifications that arrived, each with the conditions it failed.
    public var nearMisses: [String] = []

    public var description: String {
        self.nearMisses.isEmpty ? self.message : self.message + "\nnear misses:\n" + self.nearMisses.map { "  " + $0 }.joined(separator: "\n")
    }
}
