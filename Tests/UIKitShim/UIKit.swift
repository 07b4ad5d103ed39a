// The slice of UIKit the exported layouts use, re-declared for tests on Linux.
