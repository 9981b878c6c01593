/// `/_imock/ui/icon.svg`: the tab icon (two speech bubbles).
enum DashboardIcon {
    static let text = #"""
        <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">
        <rect x="2" y="4" width="20" height="14" rx="4" fill="#2f6fde"/>
        <path d="M7 18 l0 6 l6 -6 z" fill="#2f6fde"/>
        <rect x="12" y="13" width="18" height="12" rx="4" fill="#7ec4a0"/>
        <path d="M25 25 l0 5 l-5 -5 z" fill="#7ec4a0"/>
        </svg>

        """#
}
