import CardLayout
import CardServe

extension Playground {
    /// What is answered before the page's own routes: with `--lan`, 403 for a request
    /// whose path does not start with the token (LANAccess.swift), else the request with
    /// that prefix taken off; with `--cards`, `GET /cards` (the list) and `GET /cards/N`
    /// (an image, CardsFolder.swift), or 404 for any other `/cards/…`.
    /// `.admitted`: the request goes on to the routes, as seen without `--lan`.
    func lanAndCards(_ request: HTTPRequest) -> LANAccess.Admission {
        var request = request
        if let lan {
            switch lan.admit(request) {
            case let .admitted(inner): request = inner
            case let .answered(response): return .answered(response)
            }
        }
        guard request.path == "/cards" || request.path.hasPrefix("/cards/") else { return .admitted(request) }
        guard request.method == "GET" || request.method == "HEAD" else { return .answered(.status(405, message: "use GET")) }
        guard let cards = options.cards else { return .answered(.status(404)) }
        if request.path == "/cards" {
            return .answered(.json(cards.listing(numberOfItems: options.numberOfItems ?? Scenario.defaultNumberOfItems)))
        }
        return .answered(cards.response(to: request))
    }
}
