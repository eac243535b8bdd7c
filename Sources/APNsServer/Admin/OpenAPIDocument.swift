/// The admin API described as OpenAPI 3 (`GET /openapi.json`). The document is the resource file
/// `openapi.json` beside this one, kept by hand with the router and compiled into the binary, so
/// the page needs no file at run time; a test checks every path and method in it is served.
enum OpenAPIDocument {
    static let json: [UInt8] = PackageResources.openapi_json
}
