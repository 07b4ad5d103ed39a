import CardLayout
import CardServe

extension Playground {
    /// What is answered before the page's own routes: with `--lan`, 403 for a request
    /// without the token (LANAccess.swift); with `--cards`, `GET /cards` (the list) and
    /// `GET /cards/N` (an image, CardsFolder.swift), or 404 for any other `/cards/…`.
    /// Nil: the request goes on to the routes.
    func lanAndCards(_ request: HTTPRequest) -> HTTPResponse? {
        if let lan, let refusal = lan.refusal(for: request) { return refusal }
        guard request.path == "/cards" || request.path.hasPrefix("/cards/") else { return nil }
        guard request.method == "GET" || request.method == "HEAD" else { return .status(405, message: "use GET") }
        guard let cards = options.cards else { return .status(404) }
        if request.path == "/cards" {
            return .json(cards.listing(numberOfItems: options.numberOfItems ?? Scenario.defaultNumberOfItems))
        }
        return cards.response(to: request)
    }
}
