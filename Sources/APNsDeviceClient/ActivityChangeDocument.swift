import APNsCore
import APNsDevice
import APNsWire
import Foundation

struct ActivityChangeDocument: Decodable {
    var change: String
    var reason: String?
    var activity: ActivitySnapshot
}
