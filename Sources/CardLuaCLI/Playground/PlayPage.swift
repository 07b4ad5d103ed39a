import CardRender

/// The page `GET /` answers, put together from the embedded files
/// (Playground/Page/embed.list): page.html with play.css (and the card pictures' rules)
/// and play.js (after CardRender's card.js) put where its placeholders are.
enum PlayPage {
    static let html = playPageTemplate
        .replacingOccurrences(of: "/*{{style}}*/", with: playStyle + CardPictures.css)
        .replacingOccurrences(of: "//{{script}}", with: playScript)
}
