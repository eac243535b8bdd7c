import APNsDevice

extension StoreKeys {
    /// A channel's key: `c`, its bundle id, a zero byte, its id.
    static func channelKey(_ bundleID: String, _ id: String) -> [UInt8] {
        [UInt8(ascii: "c")] + Array(bundleID.utf8) + [0] + Array(id.utf8)
    }

    /// The key that marks a bundle's broadcast capability as off: `d` and its bundle id.
    static func broadcastSettingKey(_ bundleID: String) -> [UInt8] {
        [UInt8(ascii: "d")] + Array(bundleID.utf8)
    }
}
