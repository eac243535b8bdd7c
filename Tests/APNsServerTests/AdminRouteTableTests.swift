import APNsCore
import Testing

@testable import APNsServer

/// The admin API's route table against `openapi.json`, both ways: what one says the other must.
@Suite("Admin route table and openapi.json")
struct AdminRouteTableTests {
    /// One operation: method and path as openapi.json writes them (`{id*}` is written `{id}`).
    struct Operation: Hashable, CustomStringConvertible {
        var method: String
        var path: String
        var description: String { "\(self.method) \(self.path)" }
    }

    /// Each operation of openapi.json with its query parameters and path parameters.
    static func documented() throws -> [Operation: (query: Set<String>, path: Set<String>)] {
        let document = try #require(JSONValue.parse(OpenAPIDocument.json))
        guard case .object(let paths)? = document["paths"], case .object(let shared)? = document["components"]?["parameters"]
        else {
            Issue.record("openapi.json has no paths or no shared parameters")
            return [:]
        }
        var operations: [Operation: (query: Set<String>, path: Set<String>)] = [:]
        for (path, item) in paths {
            guard case .object(let methods) = item else { continue }
            for (method, operation) in methods where ["get", "put", "post", "delete", "patch"].contains(method) {
                var query: Set<String> = []
                var inPath: Set<String> = []
                if case .array(let parameters)? = operation["parameters"] {
                    for parameter in parameters {
                        let resolved =
                            parameter["$ref"]?.string.flatMap { shared[String($0.split(separator: "/").last ?? "")] } ?? parameter
                        let name = try #require(resolved["name"]?.string, "\(method) \(path): a parameter without a name")
                        if resolved["in"]?.string == "query" {
                            query.insert(name)
                        } else if resolved["in"]?.string == "path" {
                            inPath.insert(name)
                        }
                    }
                }
                operations[Operation(method: method.uppercased(), path: path)] = (query, inPath)
            }
        }
        return operations
    }

    static func operation(of route: AdminRoute) -> Operation {
        Operation(method: route.method, path: route.pattern.replacingOccurrences(of: "*}", with: "}"))
    }

    @Test("every route is in openapi.json with the query parameters it takes, and every operation there is a route")
    func bothWays() throws {
        let documented = try Self.documented()
        #expect(documented.count >= 50)
        let routed = Dictionary(grouping: AdminRoute.table, by: Self.operation)
        for (operation, routes) in routed {
            #expect(routes.count == 1, "\(operation) is in the table \(routes.count) times")
            guard let route = routes.first else { continue }
            guard let described = documented[operation] else {
                Issue.record("\(operation) is routed but not in openapi.json")
                continue
            }
            #expect(
                described.query.subtracting(["scope"]) == route.query,
                "\(operation): openapi.json's query \(described.query.sorted()), the table's \(route.query.sorted())")
            #expect(!described.query.contains("scope") || !route.isPage, "\(operation): a page takes any query, so no scope")
            if route.pattern.hasPrefix("/api/") {
                #expect(described.query.contains("scope"), "\(operation): every API operation takes scope")
            }
            let names = Set(
                route.segments.compactMap { segment -> String? in
                    switch segment {
                    case .literal: nil
                    case .parameter(let name, _), .rest(let name): name
                    }
                })
            #expect(
                described.path == names,
                "\(operation): openapi.json's path parameters \(described.path.sorted()), the pattern's \(names.sorted())")
        }
        for operation in documented.keys where routed[operation] == nil {
            Issue.record("\(operation) is in openapi.json but no route takes it")
        }
    }

    @Test("a path made from each pattern reaches that pattern, not a less specific one")
    func specificity() {
        for route in AdminRoute.table {
            let path = route.segments.map { segment in
                switch segment {
                case .literal(let text): text
                case .parameter(_, let suffix): "x1" + suffix
                case .rest: "a/b"
                }
            }
            let found = AdminRoute.candidates(for: path, in: AdminRoute.table)
            #expect(
                !found.isEmpty && found.allSatisfy { $0.route.pattern == route.pattern },
                "\(route.pattern) -> \(found.map(\.route.pattern))")
            #expect(found.contains { $0.route.method == route.method })
        }
        // A literal segment wins over a parameter; a suffix over a bare parameter.
        #expect(
            AdminRoute.candidates(for: ["api", "v1", "notifications", "latest"], in: AdminRoute.table).map(\.route.pattern) == [
                "/api/v1/notifications/latest"
            ])
        #expect(
            AdminRoute.candidates(for: ["api", "v1", "notifications", "n1.apns"], in: AdminRoute.table).first?.parameters["id"]
                == "n1")
        #expect(
            AdminRoute.candidates(for: ["api", "v1", "notifications", ".apns"], in: AdminRoute.table).map(\.route.pattern) == [
                "/api/v1/notifications/{id}"
            ])
        #expect(
            AdminRoute.candidates(for: ["api", "v1", "channels", "a", "b+c="], in: AdminRoute.table).first?.parameters["id"]
                == "a/b+c=")
        #expect(AdminRoute.candidates(for: ["api", "v1", "activities", "a", "bogus"], in: AdminRoute.table).isEmpty)
    }

    @Test("each reason has its HTTP status, and the answer is the reason's status with the message")
    func errors() {
        let statuses = AdminError.Reason.allCases.map(\.status)
        #expect(Set(statuses).count == statuses.count)
        let answer = AdminError(.conflict, "the token is registered and valid").response
        #expect(answer.status == 409)
        #expect(String(decoding: answer.body, as: UTF8.self) == #"{"error":"the token is registered and valid"}"#)
    }
}
