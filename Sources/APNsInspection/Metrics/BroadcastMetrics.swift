import CoreMetrics
import Prometheus
import Synchronization

/// Broadcast push in the words of Apple's Push Notifications Console: broadcasts published,
/// delivered (one per subscribed activity reached), subscriptions and unique subscribers; and
/// the channel management requests by operation and status.
public final class BroadcastMetrics: Sendable {
    private let factory: PrometheusMetricsFactory
    private let published: CoreMetrics.Counter
    private let delivered: CoreMetrics.Counter
    private let subscriptions: CoreMetrics.Gauge
    private let uniqueSubscribers: CoreMetrics.Gauge
    private let channels: CoreMetrics.Gauge
    private let requests = Mutex<[String: CoreMetrics.Counter]>([:])

    init(factory: PrometheusMetricsFactory) {
        self.factory = factory
        self.published = CoreMetrics.Counter(label: "apns_broadcasts_published_total", factory: factory)
        self.delivered = CoreMetrics.Counter(label: "apns_broadcasts_delivered_total", factory: factory)
        self.subscriptions = CoreMetrics.Gauge(label: "apns_broadcast_subscriptions", factory: factory)
        self.uniqueSubscribers = CoreMetrics.Gauge(label: "apns_broadcast_unique_subscribers", factory: factory)
        self.channels = CoreMetrics.Gauge(label: "apns_broadcast_channels", factory: factory)
    }

    /// A broadcast was published and reached `delivered` subscribed activities.
    public func published(delivered: Int) {
        self.published.increment()
        self.delivered.increment(by: delivered)
    }

    /// A stored message reached a subscriber that came later.
    public func delivered(_ count: Int) { self.delivered.increment(by: count) }

    /// A channel management request or broadcast was answered with `status`.
    public func request(operation: String, status: Int) {
        let key = operation + "\u{0}" + String(status)
        let counter = self.requests.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = CoreMetrics.Counter(
                label: "apns_channel_requests_total", dimensions: [("operation", operation), ("status", String(status))],
                factory: self.factory)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    /// The gauges, read now: running activities subscribed to a channel, the devices they run
    /// on, and the channels that exist.
    public func record(subscriptions: Int, uniqueSubscribers: Int, channels: Int) {
        self.subscriptions.record(subscriptions)
        self.uniqueSubscribers.record(uniqueSubscribers)
        self.channels.record(channels)
    }

    func reset() {
        self.published.reset()
        self.delivered.reset()
        self.requests.withLock { counters in for counter in counters.values { counter.reset() } }
    }
}
