import APNsCore
import APNsDevice

extension JournalEntry {
    /// Whether `text` (lower-cased) is in what a person reads of this entry or what was sent: the
    /// phone's title, subtitle and body (after localisation), a web push's decrypted message, a
    /// Live Activity's reason, a rejection's reason and detail, the token, topic, push type, ids,
    /// collapse id, and the payload or body as sent. The admin API's `q`.
    public func contains(_ text: String) -> Bool {
        for field in self.searchFields() where field.lowercased().contains(text) { return true }
        return false
    }

    /// The texts `q` looks in, the short ones first (most searches are for an id or a title).
    func searchFields() -> [String] {
        var fields: [String] = [self.uniqueID]
        if let topic = self.topic { fields.append(topic) }
        if let pushType = self.pushType { fields.append(pushType) }
        if let presentation = self.presentation {
            fields += [presentation.title, presentation.subtitle, presentation.body].compactMap { $0 }
            if let web = presentation.webPush { fields += [web.message, web.navigate, web.detail].compactMap { $0 } }
            if let wake = presentation.wake { fields.append(wake.detail) }
        }
        if let activity = self.activity { fields += [activity.code, activity.reason, activity.id].compactMap { $0 } }
        switch self.push {
        case .accepted(let notification):
            fields.append(notification.token.hex)
            fields.append(notification.apnsID)
            if let collapse = notification.collapseID { fields.append(collapse) }
            fields.append(String(decoding: notification.payload, as: UTF8.self))
        case .rejected(let rejected):
            fields += [rejected.token, rejected.reason, rejected.detail, rejected.apnsID, rejected.collapseID, rejected.path]
                .compactMap { $0 }
            fields.append(String(decoding: rejected.body, as: UTF8.self))
        case .broadcast(let record):
            fields += [record.channelID, record.requestID, record.reason, record.detail, record.path].compactMap { $0 }
            fields.append(String(decoding: record.body, as: UTF8.self))
        }
        return fields
    }
}
