import Foundation

/// The benchmarks: each prints its figures.
///
///   swift run -c release APNsBenchmark [devices] [pushes] [providers]         push-to-device latency
///   swift run -c release APNsBenchmark gateway [connections] [frames] [tokens]  binary gateway throughput
///   swift run -c release APNsBenchmark floor PORT KEY.pem CERT.pem [threads]    the bare stack's 200s
///   swift run -c release APNsBenchmark floor-nghttp2 PORT KEY.pem CERT.pem [threads]  the same on libnghttp2
///   swift run -c release APNsBenchmark broadcast [devices] [activities per device] [broadcasts]  broadcast fan-out
///   swift run -c release APNsBenchmark hold HOST PORT CA.pem COUNT [SERVER-NAME]  devices held open (their cost)
@main
struct Benchmark {
    static func main() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "floor-nghttp2" {
            try await StackFloorNGHTTP2.run(Array(arguments.dropFirst()))
            return
        }
        if arguments.first == "hold" {
            try await DeviceHold.run(Array(arguments.dropFirst()))
            return
        }
        if arguments.first == "floor" {
            try await StackFloor.run(Array(arguments.dropFirst()))
            return
        }
        let gateway = arguments.first == "gateway"
        let broadcast = arguments.first == "broadcast"
        if gateway || broadcast || arguments.first == "delivery" { arguments.removeFirst() }
        let numbers = arguments.compactMap { Int($0) }
        guard numbers.count == arguments.count else {
            print(
                "usage: APNsBenchmark [delivery] [devices] [pushes] [providers] | gateway [connections] [frames] [tokens] | broadcast [devices] [activities per device] [broadcasts]"
            )
            exit(2)
        }
        if gateway {
            try await GatewayBenchmark.run(numbers)
        } else if broadcast {
            try await BroadcastBenchmark.run(numbers)
        } else {
            try await DeliveryBenchmark.run(numbers)
        }
    }
}
