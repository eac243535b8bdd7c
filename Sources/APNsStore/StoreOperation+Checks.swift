import APNsCore

extension StoreOperation {
    /// LMDB's largest key (its default `MDB_MAXKEYSIZE`): a longer or empty key makes `mdb_put`
    /// and `mdb_get` fail with `MDB_BAD_VALSIZE`, and with them the whole transaction.
    static let maximumKeySize = 511

    /// Why the store would refuse this operation, found before the transaction so that it fails
    /// alone instead of aborting the batch it shares with everyone else; nil when it is fine.
    var problem: String? {
        switch self {
        case .acknowledge(let uniqueID):
            return Self.keyProblem(uniqueID, "an acknowledged unique id")
        case .accept(let notification), .acceptForConnectedDevice(let notification), .record(let notification, _):
            return Self.keyProblem(notification.uniqueID, "a notification's unique id")
        case .register(_, let topic, _, _):
            return topic.isEmpty ? "a token needs a topic" : nil
        case .restoreToken(let record, _):
            return record.topic.isEmpty ? "a token needs a topic" : nil
        case .saveApp(let change):
            // Settings live under the device id and topic; delivered notifications add their id.
            let size = StoreKeys.appKey(change.install).count + 9
            let longest = (change.added + change.removed).map(\.uniqueID.utf8.count).max() ?? 0
            return size + longest > Self.maximumKeySize ? "the device id and topic are too long to keep an app under" : nil
        case .saveChannel(let channel):
            return StoreKeys.channelKey(channel.bundleID, channel.id).count > Self.maximumKeySize
                ? "the bundle id and channel id are too long to keep a channel under" : nil
        case .saveBroadcastSetting(let bundleID, _):
            return Self.keyProblem(bundleID, "a bundle id")
        case .recordRejection(let key, _):
            return Self.keyProblem(key.id, "a rejected request's id", room: 8)
        case .deleteRejections(let keys):
            return keys.lazy.compactMap { Self.keyProblem($0.id, "a rejected request's id", room: 8) }.first
        case .sweepExpired, .unregister, .clearFeedback, .delete, .clear, .recordPhone:
            // Tokens are 32 to 100 bytes by construction; the rest carries no key from outside.
            return nil
        }
    }

    /// `room`: bytes of the key that come before `key`.
    private static func keyProblem(_ key: String, _ what: String, room: Int = 0) -> String? {
        let size = key.utf8.count
        guard size > 0 else { return "\(what) is empty" }
        guard size + room <= Self.maximumKeySize else {
            return "\(what) has \(size) bytes, more than the \(Self.maximumKeySize - room) it may have"
        }
        return nil
    }
}
