import APNsDevice

extension NotificationStore {
    /// Every broadcast channel the store keeps (deleted ones too) and the bundles with broadcast off.
    public func channelBook() throws(StoreError) -> ChannelBook {
        try self.read { txn throws(StoreError) -> ChannelBook in
            var channels: [BroadcastChannel] = []
            var disabled: Set<String> = []
            try txn.scan(self.environment.channels) { key, value throws(StoreError) in
                switch key.first {
                case UInt8(ascii: "c"): channels.append(try AppCodec.decode(BroadcastChannel.self, Array(value)))
                case UInt8(ascii: "d"): disabled.insert(String(decoding: key.dropFirst(), as: UTF8.self))
                default: throw .corruptRecord("channel key")
                }
                return true
            }
            return ChannelBook(channels: channels, disabled: disabled)
        }
    }
}
