import Foundation

/// The Swift files of the app `cardlua export --app` writes, beside the exported layout:
/// a SwiftUI entry point, the UIKit collection view it hosts, the cell and the cards'
/// source. Each text is formatted as `swift-format --strict` with the repository's
/// `.swift-format` wants it (the CLI tests lint every file), and compiles without
/// warnings in Swift 6 mode against the iOS 17 SDK.
struct AppSources {
    /// What the exported layout declares, read from its Swift (``init(layoutSwift:…)``).
    struct LayoutFeatures: Equatable {
        var sizeForItem = false
        var insetForSection = false
        var headerSize = false
        var footerSize = false
        /// The layout hands out `<Class>Attributes` with an `apply(to:)` for the cell.
        var appearance = false
    }

    /// The app's display name (the folder's, without `.swiftpm`).
    var appName: String
    /// The exported layout's class.
    var className: String
    /// What the layout declares that the app must wire.
    var features: LayoutFeatures
    /// Items per section: the script's demo.
    var numberOfItems: [Int]
    /// The images copied into Resources, in order; empty for the numbered placeholders.
    var imageNames: [String]
    /// The script's file name, for the comments.
    var scriptName: String

    /// The types the app declares: `--class` may not take one of them.
    static let typeNames: Set<String> = ["CarouselApp", "CarouselView", "CarouselViewController", "CardCell", "CardDeck"]

    /// What the exported Swift declares, found by the signatures the exporter writes
    /// (docs/export.md, "What the file contains").
    static func features(ofLayout swift: String, className: String) -> LayoutFeatures {
        LayoutFeatures(
            sizeForItem: swift.contains("sizeForItemAt indexPath: IndexPath")
                || swift.contains(" sizeForItemAt "),
            insetForSection: swift.contains(" insetForSectionAt "),
            headerSize: swift.contains(" referenceSizeForHeaderInSection "),
            footerSize: swift.contains(" referenceSizeForFooterInSection "),
            appearance: swift.contains("final class \(className)Attributes: UICollectionViewLayoutAttributes")
                && swift.contains("func apply(to view: UIView)"))
    }

    /// File name → contents, the layout's file not included.
    var files: [(name: String, text: String)] {
        [
            ("Package.swift", package),
            ("CarouselApp.swift", entryPoint),
            ("CarouselView.swift", representable),
            ("CarouselViewController.swift", viewController),
            ("CardCell.swift", cell),
            ("CardDeck.swift", deck),
        ]
    }

    /// The files that import SwiftUI (the others import UIKit only).
    static let swiftUIFiles: Set<String> = ["CarouselApp.swift", "CarouselView.swift"]

    // MARK: - Package.swift

    /// A Swift Playgrounds app package (AppleProductTypes' `.iOSApplication`), in the
    /// layout Swift Playgrounds itself writes.
    var package: String {
        let name = Self.literal(appName)
        let resources = imageNames.isEmpty ? "" : ",\n            resources: [.process(\"Resources\")]"
        return """
            // swift-tools-version: 5.9

            // Written by `cardlua export --app` from \(scriptName). Open the folder in Swift
            // Playgrounds, or this file in Xcode, and run the app on a phone or in the simulator.
            // The imports in the order Swift Playgrounds writes them:
            // swift-format-ignore: OrderedImports
            import PackageDescription
            import AppleProductTypes

            let package = Package(
                name: \(name),
                platforms: [
                    .iOS("16.0")
                ],
                products: [
                    .iOSApplication(
                        name: \(name),
                        targets: ["AppModule"],
                        bundleIdentifier: \(Self.literal(bundleIdentifier)),
                        teamIdentifier: "",
                        displayVersion: "1.0",
                        bundleVersion: "1",
                        appIcon: .placeholder(icon: .cards),
                        accentColor: .presetColor(.blue),
                        supportedDeviceFamilies: [
                            .pad,
                            .phone,
                        ],
                        supportedInterfaceOrientations: [
                            .portrait,
                            .landscapeRight,
                            .landscapeLeft,
                            .portraitUpsideDown(.when(deviceFamilies: [.pad])),
                        ]
                    )
                ],
                targets: [
                    .executableTarget(
                        name: "AppModule",
                        path: "."\(resources)
                    )
                ]
            )

            """
    }

    /// `com.example.` and the name's ASCII letters and digits (a bundle identifier takes
    /// letters, digits, `-` and `.`); change it, and the team, to sign for a device.
    var bundleIdentifier: String {
        let kept = appName.unicodeScalars.filter { $0.isASCII && (CharacterSet.alphanumerics.contains($0)) }
        return "com.example." + (kept.isEmpty ? "CardCarousel" : String(String.UnicodeScalarView(kept)))
    }

    // MARK: - SwiftUI

    var entryPoint: String {
        """
        import SwiftUI

        /// The app: one window, the carousel edge to edge.
        @main
        struct CarouselApp: App {
            var body: some Scene {
                WindowGroup {
                    CarouselView()
                        .ignoresSafeArea()
                }
            }
        }

        """
    }

    var representable: String {
        """
        import SwiftUI

        /// The UIKit carousel (``CarouselViewController``) as a SwiftUI view.
        struct CarouselView: UIViewControllerRepresentable {
            func makeUIViewController(context: Context) -> CarouselViewController {
                CarouselViewController()
            }

            func updateUIViewController(_ uiViewController: CarouselViewController, context: Context) {}
        }

        """
    }

    // MARK: - UIKit

    var viewController: String {
        let sections = numberOfItems.count == 1 ? "one section" : "\(numberOfItems.count) sections"
        var forwarding: [String] = []
        if features.sizeForItem {
            forwarding.append(
                delegateMethod("sizeForItemAt indexPath: IndexPath", returns: "CGSize", argument: "sizeForItemAt: indexPath"))
        }
        if features.insetForSection {
            forwarding.append(
                delegateMethod("insetForSectionAt section: Int", returns: "UIEdgeInsets", argument: "insetForSectionAt: section"))
        }
        if features.headerSize {
            forwarding.append(
                delegateMethod("referenceSizeForHeaderInSection section: Int", returns: "CGSize",
                               argument: "referenceSizeForHeaderInSection: section"))
        }
        if features.footerSize {
            forwarding.append(
                delegateMethod("referenceSizeForFooterInSection section: Int", returns: "CGSize",
                               argument: "referenceSizeForFooterInSection: section"))
        }
        // A layout with headers or footers hands out their attributes: UIKit then asks the
        // data source for a view of each (an empty one here), and raises without one.
        let kinds = (features.headerSize ? ["elementKindSectionHeader"] : [])
            + (features.footerSize ? ["elementKindSectionFooter"] : [])
        let registrations = kinds.map {
            "\n        collectionView.register(\n"
                + "            UICollectionReusableView.self, forSupplementaryViewOfKind: UICollectionView.\($0),\n"
                + "            withReuseIdentifier: Self.supplementaryIdentifier)"
        }.joined()
        let supplementaryIdentifier = kinds.isEmpty ? "" : """


                /// The empty views of the section headers and footers the layout sizes.
                private static let supplementaryIdentifier = "supplementary"
            """
        let supplementaryView = kinds.isEmpty ? "" : """


                func collectionView(
                    _ collectionView: UICollectionView, viewForSupplementaryElementOfKind kind: String,
                    at indexPath: IndexPath
                ) -> UICollectionReusableView {
                    collectionView.dequeueReusableSupplementaryView(
                        ofKind: kind, withReuseIdentifier: Self.supplementaryIdentifier, for: indexPath)
                }
            """
        let delegateSection = forwarding.isEmpty ? "" : """


            // MARK: - UICollectionViewDelegateFlowLayout

            // UIKit asks the delegate, not the layout, for these: each forwards to the method
            // \(className) declares with the same signature.
        \(forwarding.joined(separator: "\n"))
        """
        return """
            import UIKit

            /// \(className) in a collection view that fills the screen, with the cards of the
            /// script's demo (\(Self.count(numberOfItems)) in \(sections)).
            final class CarouselViewController: UIViewController, UICollectionViewDataSource,
                UICollectionViewDelegateFlowLayout
            {
                private let layout = \(className)()
                private lazy var collectionView = UICollectionView(frame: .zero, collectionViewLayout: layout)\(supplementaryIdentifier)

                override func viewDidLoad() {
                    super.viewDidLoad()
                    view.backgroundColor = .systemBackground
                    collectionView.frame = view.bounds
                    collectionView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
                    collectionView.backgroundColor = .clear
                    // The layout sees the bounds cardlua's prototype saw: the safe area (status bar,
                    // home indicator) is not added to the content insets, so the cards may run under
                    // the bars. With .automatic, size the cards from what is left instead
                    // (docs/export.md, "Wiring the layout into an app").
                    collectionView.contentInsetAdjustmentBehavior = .never
                    collectionView.dataSource = self
                    collectionView.delegate = self
                    collectionView.register(CardCell.self, forCellWithReuseIdentifier: CardCell.reuseIdentifier)\(registrations)
                    view.addSubview(collectionView)
                }

                // MARK: - UICollectionViewDataSource

                func numberOfSections(in collectionView: UICollectionView) -> Int {
                    CardDeck.numberOfItems.count
                }

                func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
                    CardDeck.numberOfItems[section]
                }

                func collectionView(
                    _ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath
                ) -> UICollectionViewCell {
                    let cell = collectionView.dequeueReusableCell(withReuseIdentifier: CardCell.reuseIdentifier, for: indexPath)
                    (cell as? CardCell)?.show(card: CardDeck.number(at: indexPath))
                    return cell
                }\(supplementaryView)\(delegateSection)
            }

            """
    }

    /// A `UICollectionViewDelegateFlowLayout` method that forwards to the layout's own.
    private func delegateMethod(_ label: String, returns type: String, argument: String) -> String {
        """

            func collectionView(
                _ collectionView: UICollectionView, layout collectionViewLayout: UICollectionViewLayout,
                \(label)
            ) -> \(type) {
                layout.collectionView(collectionView, layout: collectionViewLayout, \(argument))
            }
        """
    }

    var cell: String {
        let appearance = features.appearance ? """


                // The script's appearance (corner radius, shadow, background, double-sidedness),
                // set on the cell itself, whose layer UIKit turns.
                override func apply(_ layoutAttributes: UICollectionViewLayoutAttributes) {
                    super.apply(layoutAttributes)
                    (layoutAttributes as? \(className)Attributes)?.apply(to: self)
                }
            """ : ""
        if imageNames.isEmpty {
            return """
                import UIKit

                /// One card: its number on a coloured rounded background (the app was exported
                /// without `--cards`).
                final class CardCell: UICollectionViewCell {
                    static let reuseIdentifier = "card"
                    private let label = UILabel()

                    override init(frame: CGRect) {
                        super.init(frame: frame)
                        contentView.layer.cornerRadius = 16
                        label.frame = contentView.bounds
                        label.autoresizingMask = [.flexibleWidth, .flexibleHeight]
                        label.textAlignment = .center
                        label.textColor = .white
                        label.font = .boldSystemFont(ofSize: 48)
                        contentView.addSubview(label)
                    }

                    required init?(coder: NSCoder) {
                        fatalError("CardCell is made in code")
                    }

                    /// Shows card `number` (counted from 0 across the sections).
                    func show(card number: Int) {
                        label.text = String(number)
                        contentView.backgroundColor = CardDeck.color(forCard: number)
                    }\(appearance)
                }

                """
        }
        return """
            import UIKit

            /// One card: an image from Resources, filling the card, with rounded corners.
            final class CardCell: UICollectionViewCell {
                static let reuseIdentifier = "card"
                private let imageView = UIImageView()

                override init(frame: CGRect) {
                    super.init(frame: frame)
                    imageView.frame = contentView.bounds
                    imageView.autoresizingMask = [.flexibleWidth, .flexibleHeight]
                    imageView.contentMode = .scaleAspectFill
                    imageView.clipsToBounds = true
                    imageView.layer.cornerRadius = 16
                    contentView.addSubview(imageView)
                }

                required init?(coder: NSCoder) {
                    fatalError("CardCell is made in code")
                }

                /// Shows card `number` (counted from 0 across the sections).
                func show(card number: Int) {
                    imageView.image = CardDeck.image(forCard: number)
                }\(appearance)
            }

            """
    }

    var deck: String {
        let counts = numberOfItems.map(String.init).joined(separator: ", ")
        if imageNames.isEmpty {
            return """
                import UIKit

                /// What the cards show: numbered placeholders (export with `--cards FOLDER` for images).
                enum CardDeck {
                    /// Items per section: the script's demo, as `cardlua run \(scriptName)` lays it out.
                    static let numberOfItems = [\(counts)]

                    /// The card at an index path, counted from 0 across the sections.
                    static func number(at indexPath: IndexPath) -> Int {
                        numberOfItems.prefix(indexPath.section).reduce(0, +) + indexPath.item
                    }

                    /// Card `number`'s colour: twelve hues round the colour wheel, in turn.
                    static func color(forCard number: Int) -> UIColor {
                        UIColor(hue: CGFloat(number % 12) / 12, saturation: 0.6, brightness: 0.8, alpha: 1)
                    }
                }

                """
        }
        // On one line when it fits in swift-format's 120 columns, else one name a line.
        let oneLine = "    static let imageNames = [" + imageNames.map(Self.literal).joined(separator: ", ") + "]"
        let names = oneLine.count <= 120
            ? oneLine
            : "    static let imageNames = [\n" + imageNames.map { "        \(Self.literal($0)),\n" }.joined() + "    ]"
        return """
            import UIKit

            /// What the cards show: the images in Resources in turn (card n shows image n modulo their
            /// count), as `cardlua play --cards` draws them.
            enum CardDeck {
                /// Items per section: the script's demo, as `cardlua run \(scriptName)` lays it out.
                static let numberOfItems = [\(counts)]

                /// The images in Resources: the `--cards` folder's, in the order of their names.
            \(names)

                /// The card at an index path, counted from 0 across the sections.
                static func number(at indexPath: IndexPath) -> Int {
                    numberOfItems.prefix(indexPath.section).reduce(0, +) + indexPath.item
                }

                /// The image card `number` shows (nil if UIKit cannot read it).
                static func image(forCard number: Int) -> UIImage? {
                    UIImage(named: imageNames[number % imageNames.count], in: .module, compatibleWith: nil)
                }
            }

            """
    }

    // MARK: - Helpers

    /// A Swift string literal of `text` (quotes, backslashes and control characters escaped).
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    /// `20 cards`, `1 card`.
    static func count(_ numberOfItems: [Int]) -> String {
        let total = numberOfItems.reduce(0, +)
        return total == 1 ? "1 card" : "\(total) cards"
    }
}
