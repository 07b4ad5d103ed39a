// UILabel (UIKit/UILabel.h as Swift imports it: `@MainActor open class UILabel : UIView`,
// `public override init(frame: CGRect)`, `public required init?(coder: NSCoder)`, `open var
// text: String?`, `open var font: UIFont!`, `open var textColor: UIColor!`, `open var
// textAlignment: NSTextAlignment`, `open var numberOfLines: Int`).

/// `UILabel`: its properties only (nothing is drawn here).
@MainActor open class UILabel: UIView {
    open var text: String?
    open var font: UIFont! = .systemFont(ofSize: 17)
    open var textColor: UIColor! = .black
    open var textAlignment = NSTextAlignment.natural
    open var numberOfLines = 1

    public override init(frame: CGRect) { super.init(frame: frame) }

    public required init?(coder: NSCoder) { nil }
}
