import APNsAuth
import APNsCore
import Crypto
import Foundation
