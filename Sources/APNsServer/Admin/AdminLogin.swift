import APNsCore
import APNsInspection
import Foundation

/// The web inbox's login page (`/login`), for an emulator that asks for its admin token: a form
/// that takes the token once and sets an HttpOnly, SameSite=Strict cookie holding a digest of it,
/// then goes back to the page that sent the reader here.
enum AdminLogin {
    static let path = "/login"
    static let logoutPath = "/logout"

    /// `POST /logout`: forgets the login cookie and goes to the login page (a cross-site POST is
    /// refused before it gets here, as every other).
    static func logout(method: String) -> AdminRouter.Response {
        guard method == "POST" else { return AdminRouter.notAllowed(["POST"]) }
        var response = Self.redirect(to: Self.path, cookie: nil)
        response.headers["set-cookie"] = "\(AdminAccess.cookieName)=; Path=/; HttpOnly; SameSite=Strict; Max-Age=0"
        return response
    }

    /// `GET /login` shows the form; `POST /login` (a form, `token` and `next`) checks the token.
    static func respond(method: String, uri: String, body: [UInt8], access: AdminAccess) -> AdminRouter.Response {
        let query = QueryParameters(uri: uri)
        switch method {
        case "GET", "HEAD":
            return self.page(next: Self.safeNext(query["next"]), message: nil, status: 200, access: access)
        case "POST":
            let form = QueryParameters(uri: "?" + String(decoding: body, as: UTF8.self))
            let next = Self.safeNext(form["next"])
            guard let expected = access.token else {
                return Self.redirect(to: next, cookie: nil)
            }
            let given = form["token"]?.trimmingCharacters(in: .whitespaces) ?? ""
            guard AdminAccess.same(Array(given.utf8), Array(expected.utf8)), let cookie = access.cookieValue else {
                return Self.page(
                    next: next,
                    message:
                        "That is not this emulator's admin token. Copy it from the line serve printed at start (admin token: …) or from its ports file.",
                    status: 401, access: access)
            }
            return Self.redirect(to: next, cookie: cookie)
        default:
            return AdminRouter.notAllowed(["GET", "POST"])
        }
    }

    static func redirect(to next: String, cookie: String?) -> AdminRouter.Response {
        var response = AdminRouter.Response(status: 303, body: [])
        response.headers["location"] = next
        if let cookie {
            response.headers["set-cookie"] = "\(AdminAccess.cookieName)=\(cookie); Path=/; HttpOnly; SameSite=Strict"
        }
        return response
    }

    /// Where to go after logging in: a path of this emulator, never another site (`//evil`, `\`).
    static func safeNext(_ next: String?) -> String {
        guard let next, next.hasPrefix("/"), !next.hasPrefix("//"), !next.contains("\\"),
            !next.unicodeScalars.contains(where: { $0.value < 0x20 })
        else { return "/" }
        return next
    }

    /// Percent-encodes everything but unreserved characters and `/` (a `next` parameter).
    static func encoded(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~/")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? "/"
    }

    static func page(next: String, message: String?, status: Int, access: AdminAccess) -> AdminRouter.Response {
        let body: String
        if access.token == nil {
            body = """
                <p>This emulator asks for no admin token: <a href="\(escaped(next))">go to the web inbox</a>.</p>
                """
        } else {
            body = """
                <p>This emulator's admin API and web inbox ask for its admin token. It is the <code>--admin-token</code> it was started with, or the one it made: serve printed it at start (<code>admin token: …</code>) and wrote it to its ports file (<code>adminToken</code>).</p>
                \(message.map { #"<p class="login-error" role="alert" data-testid="login-error">\#(escaped($0))</p>"# } ?? "")
                <form method="post" action="/login">
                  <input type="hidden" name="next" value="\(escaped(next))">
                  <label for="token">Admin token</label>
                  <input id="token" name="token" type="password" autocomplete="current-password" required autofocus data-testid="login-token">
                  <button type="submit" data-testid="login-submit">Open the inbox</button>
                </form>
                """
        }
        let html = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>apns-emulator · log in</title>
            <link rel="stylesheet" href="/inbox/inbox.css">
            <link rel="icon" href="/inbox/icon.svg">
            </head>
            <body class="login">
            <main class="login-panel">
            <h1>apns-emulator</h1>
            \(body)
            </main>
            </body>
            </html>
            """
        return AdminRouter.Response(status: status, body: Array(html.utf8), contentType: "text/html; charset=utf-8")
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&#39;")
    }
}
