import APNsAuth
import APNsCore
import APNsDevice
import APNsInspection
import Foundation

/// The world as a seed document (`apns-emulator export`, `POST /api/v1/export`,
/// `serve --export-on-exit`): ``SeedDocument`` reads it back into the same world.
struct WorldExport: Sendable {
    let reader: StoreReader
    let phone: Phone
    let channels: BroadcastChannels
    let power: DevicePowerBook
    let inspection: Inspection
    let clock: EmulatorClock
    /// The key store's directory and the certificate authorities' files besides the emulator's own.
    let keysDirectory: String
    let certificatePaths: [String]

    init(_ configuration: EmulatorConfiguration, _ parts: EmulatorParts) {
        (self.reader, self.phone, self.channels, self.power) = (parts.reader, parts.phone, parts.channels, parts.power)
        (self.inspection, self.clock) = (parts.inspection, parts.clock)
        (self.keysDirectory, self.certificatePaths) = (configuration.keysDirectory, configuration.providerCAPaths)
    }

    /// The members of an app's document (`GET .../app`) that are its settings, as `PUT .../app`
    /// takes them back; the widget and control budgets are read from their own members.
    static let settingsFields = [
        "authorization", "categories", "appState", "foregroundOptions", "alertStyle", "language", "timeZone",
        "locationAuthorization", "strings", "sounds", "badge", "activityTypes", "liveActivitiesEnabled", "frequentUpdates",
        "iosVersion", "platform", "pairedSurfaces", "entitlements", "backgroundAppRefresh", "forceQuit", "backgroundPushBudget",
        "reportsCalls", "serviceExtension", "summaryTimes",
    ]

    func document() throws -> JSONValue {
        var document: [String: JSONValue] = [
            "version": .number(Double(SeedDocument.version)),
            "exportedAt": .string(Timestamp.rfc3339(millis: self.clock.nowMillis)),
            "clock": .object(["offsetMs": .number(Double(self.clock.offsetMillis))]),
        ]
        document["keys"] = .array(try ProviderKeyStore.keys(in: self.keysDirectory).map(Self.keyJSON))
        document["certificates"] = .array(try self.exportedCertificates().map(JSONValue.string))
        document["devices"] = .array(try self.exportedDevices())
        let book = self.channels.read { $0 }
        document["channels"] = .array(
            book.channels.values.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map(Self.channelJSON))
        document["broadcastDisabled"] = .array(book.disabled.sorted().map(JSONValue.string))
        document["faults"] = .array(self.inspection.faults.all.compactMap { JSONValue.parse(JournalJSON.rule($0)) })
        return .object(document)
    }

    static func keyJSON(_ key: ProviderKey) throws -> JSONValue {
        let environment: String
        switch key.environment {
        case nil: environment = "both"
        case .development?: environment = "sandbox"
        case .production?: environment = "production"
        }
        return .object([
            "keyId": .string(key.keyID), "teamId": .string(key.teamID),
            "publicKey": .string(try key.publicKey.pemRepresentation), "topics": .array(key.topics.map(JSONValue.string)),
            "environment": .string(environment),
        ])
    }

    /// The certificate authorities given besides the emulator's own, one PEM certificate each.
    private func exportedCertificates() throws -> [String] {
        try self.certificatePaths.flatMap { path in
            SeedCertificates.blocks(try String(contentsOfFile: path, encoding: .utf8))
        }
    }

    static func channelJSON(_ channel: BroadcastChannel) -> JSONValue {
        var fields: [String: JSONValue] = [
            "id": .string(channel.id), "bundleId": .string(channel.bundleID),
            "storagePolicy": .number(Double(channel.storagePolicy)), "pushType": .string(channel.pushType),
            "createdAt": .string(Timestamp.rfc3339(millis: channel.createdAt)), "published": .number(Double(channel.published)),
        ]
        if let deleted = channel.deletedAt { fields["deletedAt"] = .string(Timestamp.rfc3339(millis: deleted)) }
        if let environment = channel.environment { fields["environment"] = .string(environment.rawValue) }
        if let message = channel.message, let data = try? JSONEncoder().encode(message) {
            fields["message"] = JSONValue.parse(Array(data))
        }
        return .object(fields)
    }
}

extension Emulator {
    /// The world as a seed document: what `serve --seed` of it starts.
    public func export() throws -> JSONValue {
        try WorldExport(self.configuration, self.parts).document()
    }
}
