/// The safety rules every request passes before a route handler sees it, for a server
/// that listens on 127.0.0.1 only.
///
/// - `Host` must be `127.0.0.1:PORT` or `localhost:PORT` (any case), else 403. A page on
///   another site that rebinds its DNS name to 127.0.0.1 still sends its own name, so
///   this stops DNS rebinding.
/// - Only GET, HEAD and POST are served; other methods get 405 with `Allow`.
/// - A POST whose `Origin` is present and is not `http://127.0.0.1:PORT` or
///   `http://localhost:PORT` gets 403, so another site cannot drive the engine by posting
///   forms or fetches at it (a missing `Origin` is allowed: curl and same-origin GETs).
///
/// The checks run in that order, so a foreign host learns nothing else.
package struct RequestPolicy: Sendable, Equatable {
    /// The port the server is bound to.
    package let port: UInt16
    /// More `Host` values that pass, as `address:port` (lower-case): a server that also
    /// listens on a LAN address (`cardlua play --lan`) lets that address through, and the
    /// same-origin `Origin` of it.
    package let extraHosts: [String]

    /// What the policy decided.
    package enum Verdict: Sendable, Equatable {
        case allow
        /// 403: `Host` is missing or names another host or port.
        case forbiddenHost
        /// 403: a state-changing request from another origin.
        case forbiddenOrigin
        /// 405: not GET, HEAD or POST.
        case methodNotAllowed
    }

    /// The methods that pass.
    package static let allowedMethods: [String] = ["GET", "HEAD", "POST"]

    /// The policy for a server bound to `port` on 127.0.0.1.
    package init(port: UInt16, extraHosts: [String] = []) {
        self.port = port
        self.extraHosts = extraHosts.map { $0.lowercased() }
    }

    /// The `Host` values that pass (lower-case).
    package var allowedHosts: [String] { ["127.0.0.1:\(port)", "localhost:\(port)"] + extraHosts }

    /// The `Origin` values that pass (lower-case).
    package var allowedOrigins: [String] { allowedHosts.map { "http://" + $0 } }

    /// The verdict for a request.
    package func verdict(for request: HTTPRequest) -> Verdict {
        let hosts = request.headers.values(for: "Host")
        guard hosts.count == 1, allowedHosts.contains(hosts[0].lowercased()) else { return .forbiddenHost }
        guard Self.allowedMethods.contains(request.method) else { return .methodNotAllowed }
        if request.method != "GET" && request.method != "HEAD" {
            let origins = request.headers.values(for: "Origin")
            if !origins.isEmpty && !(origins.count == 1 && allowedOrigins.contains(origins[0].lowercased())) {
                return .forbiddenOrigin
            }
        }
        return .allow
    }

    /// The response refusing the request, or nil when it may reach the handler.
    package func rejection(for request: HTTPRequest) -> HTTPResponse? {
        switch verdict(for: request) {
        case .allow:
            return nil
        case .forbiddenHost:
            return .status(403, message: "Forbidden: Host must be " + allowedHosts.joined(separator: " or "))
        case .forbiddenOrigin:
            return .status(403, message: "Forbidden: cross-origin request")
        case .methodNotAllowed:
            var response = HTTPResponse.status(405)
            response.headers.add("Allow", Self.allowedMethods.joined(separator: ", "))
            return response
        }
    }
}
