import APNsCore
import APNsDevice

/// Tokens no device holds whose app has settings: their notifications are presented as they are
/// accepted, since no device will ever be handed them.
struct DevicelessTokens: AppIndex {
    var tokens: Set<DeviceToken> = []

    static func concerns(_ app: AppModel, _ install: AppInstall) -> Bool {
        PhoneApps.isDeviceless(install)
    }

    mutating func track(_ app: AppModel, _ install: AppInstall) {
        if let token = PhoneApps.devicelessToken(install) { self.tokens.insert(token) }
    }
}
