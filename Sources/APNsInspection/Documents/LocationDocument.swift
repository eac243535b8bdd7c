import APNsDevice

/// The body of `POST /api/v1/devices/<token>/location`: `{"latitude", "longitude"}`.
public struct LocationDocument: Decodable {
    public var coordinate: Coordinate

    public static let example = #"{"latitude": 48.8606, "longitude": 2.3376}"#

    private enum CodingKeys: String, CodingKey, CaseIterable { case latitude, longitude }

    public init(from decoder: any Decoder) throws {
        try decoder.refuseUnknownKeys(CodingKeys.self, in: "a location")
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let latitude = try container.decode(Double.self, forKey: .latitude)
        let longitude = try container.decode(Double.self, forKey: .longitude)
        guard (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw InspectionError(.badDocument, field: "latitude", "latitude is -90 to 90 and longitude -180 to 180")
        }
        self.coordinate = Coordinate(latitude: latitude, longitude: longitude)
    }
}
