import APNsDevice
import Foundation

/// Apps and their delivered notifications as the store keeps them: JSON, so that a person reading
/// the database, and a later version of the emulator, can make sense of them.
enum AppCodec {
    static func encode<T: Encodable>(_ value: T) throws(StoreError) -> [UInt8] {
        do {
            return Array(try JSONEncoder().encode(value))
        } catch {
            throw .corruptRecord("could not encode \(T.self): \(error)")
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, _ bytes: [UInt8]) throws(StoreError) -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(bytes))
        } catch {
            throw .corruptRecord("\(T.self) record: \(error)")
        }
    }
}

extension StoreKeys {
    /// An app's key: device id and topic, each with its length (u16), so no two apps share a
    /// prefix.
    static func appKey(_ install: AppInstall) -> [UInt8] {
        var key: [UInt8] = []
        for part in [install.deviceID, install.topic] {
            let bytes = Array(part.utf8)
            key.appendBigEndian(UInt16(clamping: bytes.count))
            key.append(contentsOf: bytes)
        }
        return key
    }

    /// The app an app key names; nil when the key is not one.
    static func install(ofAppKey key: [UInt8]) -> AppInstall? {
        var parts: [String] = []
        var offset = 0
        while parts.count < 2 {
            guard offset + 2 <= key.count else { return nil }
            let length = Int(key[offset]) << 8 | Int(key[offset + 1])
            offset += 2
            guard offset + length <= key.count, let part = String(validating: key[offset..<offset + length], as: UTF8.self) else {
                return nil
            }
            parts.append(part)
            offset += length
        }
        return offset == key.count ? AppInstall(deviceID: parts[0], topic: parts[1]) : nil
    }

    /// A delivered notification's key: its app's key, when it was presented, its unique id
    /// (Notification Center in the order things arrived).
    static func deliveredKey(_ install: AppInstall, _ notification: DeliveredNotification) -> [UInt8] {
        var key = self.appKey(install)
        key.appendBigEndian(UInt64(max(notification.presentedAt, 0)))
        key.append(contentsOf: notification.uniqueID.utf8)
        return key
    }
}

extension StoreWriter {
    /// Writes an app's change; inside a commit only (the commit lock held).
    func saveApp(_ change: AppChange, _ txn: Transaction, sequence: inout UInt64) throws(StoreError) -> StoreOutcome {
        let key = StoreKeys.appKey(change.install)
        if let settings = change.settings {
            try txn.put(self.environment.apps, key, AppCodec.encodeApp(settings))
            // The settings hold every broadcast applied before them.
            var applied: [[UInt8]] = []
            try txn.scan(self.environment.appBroadcasts, from: key) { entryKey, _ throws(StoreError) in
                guard entryKey.count == key.count + 8, entryKey.starts(with: key) else { return false }
                applied.append(Array(entryKey))
                return true
            }
            for entryKey in applied { _ = try txn.delete(self.environment.appBroadcasts, entryKey) }
        }
        if let broadcast = change.broadcast {
            var entryKey = key
            entryKey.appendBigEndian(sequence)
            sequence += 1
            try txn.put(self.environment.appBroadcasts, entryKey, AppCodec.encode(broadcast))
        }
        for notification in change.removed {
            _ = try txn.delete(self.environment.delivered, StoreKeys.deliveredKey(change.install, notification))
        }
        for notification in change.added {
            try txn.put(
                self.environment.delivered, StoreKeys.deliveredKey(change.install, notification), AppCodec.encode(notification))
        }
        return .appSaved
    }
}

extension NotificationStore {
    /// Every app whose settings the store keeps.
    public func appInstalls() throws(StoreError) -> [AppInstall] {
        try self.read { txn throws(StoreError) in
            var installs: [AppInstall] = []
            try txn.scan(self.environment.apps) { key, _ throws(StoreError) in
                guard let install = StoreKeys.install(ofAppKey: Array(key)) else { throw .corruptRecord("app key") }
                installs.append(install)
                return true
            }
            return installs
        }
    }

    /// The app as the store keeps it, its Notification Center included; nil when nothing was
    /// ever saved for it.
    public func app(_ install: AppInstall) throws(StoreError) -> AppModel? {
        try self.read { txn throws(StoreError) -> AppModel? in
            let key = StoreKeys.appKey(install)
            let app = try txn.get(self.environment.apps, key).map { bytes throws(StoreError) in
                try AppCodec.decode(AppModel.self, bytes)
            }
            var delivered: [DeliveredNotification] = []
            try txn.scan(self.environment.delivered, from: key) { entryKey, value throws(StoreError) in
                guard entryKey.count > key.count + 8, entryKey.starts(with: key) else { return false }
                delivered.append(try AppCodec.decode(DeliveredNotification.self, Array(value)))
                return true
            }
            var broadcasts: [AppBroadcastDelta] = []
            try txn.scan(self.environment.appBroadcasts, from: key) { entryKey, value throws(StoreError) in
                guard entryKey.count == key.count + 8, entryKey.starts(with: key) else { return false }
                broadcasts.append(try AppCodec.decode(AppBroadcastDelta.self, Array(value)))
                return true
            }
            guard app != nil || !delivered.isEmpty || !broadcasts.isEmpty else { return nil }
            var found = app ?? AppModel()
            found.delivered = delivered
            for broadcast in broadcasts { broadcast.apply(to: &found) }
            return found
        }
    }

    /// How many broadcasts the store applies again when it reads the app (kept since its
    /// settings were last written).
    public func appBroadcastCount(_ install: AppInstall) throws(StoreError) -> Int {
        try self.read { txn throws(StoreError) -> Int in
            let key = StoreKeys.appKey(install)
            var count = 0
            try txn.scan(self.environment.appBroadcasts, from: key) { entryKey, _ throws(StoreError) in
                guard entryKey.count == key.count + 8, entryKey.starts(with: key) else { return false }
                count += 1
                return true
            }
            return count
        }
    }
}
