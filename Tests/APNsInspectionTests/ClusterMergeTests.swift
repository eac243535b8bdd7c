import APNsCore
import APNsInspection
import Foundation
import Testing

@Suite("Merging shards' answers")
struct ClusterMergeTests {
    @Test("journal pages: totals summed, items newest first across shards, an unreadable page left out")
    func pages() {
        let zero =
            #"{"total": 2, "items": [{"id": "a", "receivedAt": "2026-11-25T10:00:03.000Z"}, {"id": "b", "receivedAt": "2026-11-25T10:00:01.000Z"}], "next": null}"#
        let one = #"{"total": 1, "items": [{"id": "c", "receivedAt": "2026-11-25T10:00:02.000Z"}], "next": null}"#
        let merged = ClusterMerge.pages([(0, Array(zero.utf8)), (1, Array(one.utf8)), (2, Array("<html>".utf8))])
        #expect(merged.total == 3)
        #expect(merged.items.map { $0["id"]?.string } == ["a", "c", "b"])
        #expect(merged.answered == [0, 1])
    }

    @Test("Prometheus text: each family's HELP and TYPE once, every shard's samples under it, labelled with the shard")
    func metrics() {
        let text = """
            # HELP apns_accepted_total Accepted.
            # TYPE apns_accepted_total counter
            apns_accepted_total{interface="http2"} 3
            # HELP apns_devices_connected Devices.
            # TYPE apns_devices_connected gauge
            apns_devices_connected 2

            """
        let merged = ClusterMerge.metrics([(0, text), (1, text.replacingOccurrences(of: "} 3", with: "} 5"))])
        #expect(
            merged == """
                # HELP apns_accepted_total Accepted.
                # TYPE apns_accepted_total counter
                apns_accepted_total{shard="0",interface="http2"} 3
                apns_accepted_total{shard="1",interface="http2"} 5
                # HELP apns_devices_connected Devices.
                # TYPE apns_devices_connected gauge
                apns_devices_connected{shard="0"} 2
                apns_devices_connected{shard="1"} 2

                """)
    }
}
