/// Which back end of the exporter writes the file: the one translator's Swift for the
/// script's callbacks, assembled into a UIKit layout or a SwiftUI view.
public enum ExportTarget: Sendable, Equatable {
    /// `cardlua export`: a `UICollectionViewFlowLayout` subclass (docs/export.md).
    case uikit
    /// `cardlua export --swiftui`: a generic SwiftUI carousel view, its scroll target
    /// behaviour and the script's code on a small file-local flow (docs/export-swiftui.md).
    case swiftui

    /// The command a diagnostic names: `export` or `export --swiftui`.
    public var commandName: String { self == .uikit ? "export" : "export --swiftui" }
}
