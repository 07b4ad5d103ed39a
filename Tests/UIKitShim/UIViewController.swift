// UIViewController: what an app's screen of cards needs. Signatures from the iOS 17 SDK
// (UIKit/UIViewController.h as Swift imports it): `@MainActor open class UIViewController :
// UIResponder`, `public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?)`
// (designated), `public required init?(coder: NSCoder)`, `open var view: UIView!` (loaded on
// first use: `loadView()`, then `viewDidLoad()`), `open func loadView()`, `open func
// viewDidLoad()`, `open func viewWillAppear(_ animated: Bool)`, `viewDidAppear(_:)`,
// `viewWillDisappear(_:)`, `viewDidDisappear(_:)`, `open var isViewLoaded: Bool { get }`.
// NSObject's `-init` is imported as a convenience initializer (the class declares its
// designated ones), so `UIViewController()` and a subclass's inherited `init()` exist.

/// `UIViewController`.
@MainActor open class UIViewController: UIResponder {
    private var loadedView: UIView?

    public init(nibName nibNameOrNil: String?, bundle nibBundleOrNil: Bundle?) {
        super.init()
    }

    public required init?(coder: NSCoder) { nil }

    public override convenience init() { self.init(nibName: nil, bundle: nil) }

    /// The root view, made by `loadView()` the first time it is read, then `viewDidLoad()`.
    open var view: UIView! {
        get {
            if loadedView == nil {
                loadView()
                viewDidLoad()
            }
            return loadedView
        }
        set { loadedView = newValue }
    }

    open var isViewLoaded: Bool { loadedView != nil }

    /// Makes a plain view (no nib here).
    open func loadView() { loadedView = UIView(frame: .zero) }

    open func viewDidLoad() {}
    open func viewWillAppear(_ animated: Bool) {}
    open func viewDidAppear(_ animated: Bool) {}
    open func viewWillDisappear(_ animated: Bool) {}
    open func viewDidDisappear(_ animated: Bool) {}
}
