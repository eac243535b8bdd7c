import Foundation

/// The benchmarks: each prints its figures.
///
///   swift run -c release APNsBenchmark [devices] [pushes] [providers]         push-to-device latency
///   swift run -c release APNsBenchmark gateway [connections] [frames] [tokens]  binary gateway throughput
@main
struct Benchmark {
    static func main() async throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        let gateway = arguments.first == "gateway"
        if gateway || arguments.first == "delivery" { arguments.removeFirst() }
        let numbers = arguments.compactMap { Int($0) }
        guard numbers.count == arguments.count else {
            print("usage: APNsBenchmark [delivery] [devices] [pushes] [providers] | gateway [connections] [frames] [tokens]")
            exit(2)
        }
        if gateway {
            try await GatewayBenchmark.run(numbers)
        } else {
            try await DeliveryBenchmark.run(numbers)
        }
    }
}
