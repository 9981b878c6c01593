/// The outcome of looking up a request in a `Router`.
public enum RouteMatch<Handler> {
    /// A route matched; `parameters` maps each `{name}` of its pattern to the path segment.
    case found(Handler, parameters: [String: String])
    /// The path matched routes, none of them for this method. `allowed` is sorted and
    /// includes HEAD whenever GET is allowed (for the `Allow` header of a 405).
    case methodNotAllowed(allowed: [String])
    /// No route matches the path.
    case notFound
}

extension RouteMatch: Sendable where Handler: Sendable {}
extension RouteMatch: Equatable where Handler: Equatable {}

/// Maps a method and a percent-decoded path to a handler, using a trie of path segments.
///
/// Patterns are `/`-separated literal segments and `{name}` parameters, each parameter
/// capturing exactly one non-empty segment: `/{org}/{app}/users/{username}`.
///
/// Precedence: segments are decided left to right, a literal segment before a parameter at
/// the same position; if the literal branch has no route for the method, the parameter
/// branch is tried. So `/{org}/{app}/users/batch/status` beats
/// `/{org}/{app}/users/{username}/status` for `/o/a/users/batch/status`. A trailing `/` in
/// the request path is ignored, and HEAD uses the GET route when there is no HEAD route.
public struct Router<Handler: Sendable>: Sendable {
    private struct Endpoint: Sendable {
        var handler: Handler
        /// The names of the pattern's parameters, in path order.
        var parameterNames: [String]
    }

    /// The paths, apart from the handlers: walking it needs no generic type metadata (a generic
    /// trie looked up the metadata of its node type at every segment, 14,000 instructions for an
    /// OpenIM gateway path, callgrind of `bench login-storm --dialect openim`).
    private var trie = RouterTrie()
    /// The routes' handlers, by the index the trie's nodes hold.
    private var endpoints: [Endpoint] = []

    /// Every route added, in insertion order.
    public private(set) var routes: [(method: String, pattern: String)] = []

    /// Creates an empty router.
    public init() {}

    /// Adds a route. A malformed pattern or a second route for the same method and
    /// pattern shape (parameter names aside) is a programming error and traps.
    public mutating func add(_ method: String, _ pattern: String, _ handler: Handler) {
        guard let segments = Self.segments(of: pattern) else {
            preconditionFailure("route pattern must start with '/': \(pattern)")
        }
        var parameterNames: [String] = []
        for segment in segments where RouterTrie.isParameter(segment) {
            let name = String(segment.dropFirst().dropLast())
            precondition(!name.contains("{") && !name.contains("}"), "malformed parameter in \(pattern)")
            precondition(!parameterNames.contains(name), "parameter {\(name)} repeated in \(pattern)")
            parameterNames.append(name)
        }
        trie.add(method, segments, pattern: pattern, endpoint: endpoints.count)
        endpoints.append(Endpoint(handler: handler, parameterNames: parameterNames))
        routes.append((method: method, pattern: pattern))
    }

    /// Finds the route for `method` and the percent-decoded `path` (no query).
    public func match(method: String, path: String) -> RouteMatch<Handler> {
        guard let segments = Self.segments(of: path) else { return .notFound }
        var captures: [Substring] = []
        var allowed: Set<String> = []
        if let index = trie.search(node: 0, segments[...], method: method, captures: &captures, allowed: &allowed) {
            let endpoint = endpoints[index]
            var parameters: [String: String] = [:]
            for (name, value) in zip(endpoint.parameterNames, captures) {
                parameters[name] = String(value)
            }
            return .found(endpoint.handler, parameters: parameters)
        }
        if allowed.isEmpty { return .notFound }
        if allowed.contains("GET") { allowed.insert("HEAD") }
        return .methodNotAllowed(allowed: allowed.sorted())
    }

    /// The segments of a path or pattern: `/a/b/` and `/a/b` give `["a", "b"]`, `/` gives `[]`.
    /// Nil when it does not start with `/`.
    /// Split on the UTF-8 bytes: splitting the `String` compares `Character`s, 8,000 instructions
    /// for `/openim/{org}/{app}` (callgrind of `bench login-storm --dialect openim`).
    static func segments(of path: String) -> [Substring]? {
        let utf8 = path.utf8
        guard utf8.first == UInt8(ascii: "/") else { return nil }
        var start = utf8.index(after: utf8.startIndex)
        var end = utf8.endIndex
        if start < end, utf8[utf8.index(before: end)] == UInt8(ascii: "/") { end = utf8.index(before: end) }
        guard start < end else { return [] }
        var segments: [Substring] = []
        var index = start
        while index < end {
            if utf8[index] == UInt8(ascii: "/") {
                segments.append(path[start..<index])
                start = utf8.index(after: index)
            }
            index = utf8.index(after: index)
        }
        segments.append(path[start..<end])
        return segments
    }
}

/// A ``Router``'s trie of path segments, its endpoints by index (not generic).
private struct RouterTrie: Sendable {
    private struct Node: Sendable {
        var literalChildren: [String: Int] = [:]
        var parameterChild: Int?
        /// Endpoint indices by method.
        var endpoints: [String: Int] = [:]

        func endpoint(for method: String) -> Int? {
            if let endpoint = endpoints[method] { return endpoint }
            return method == "HEAD" ? endpoints["GET"] : nil
        }
    }

    /// Index 0 is the root (the path `/`).
    private var nodes: [Node] = [Node()]

    /// Whether a pattern's segment is a parameter, `{name}`.
    static func isParameter(_ segment: Substring) -> Bool {
        segment.count > 2 && segment.first == "{" && segment.last == "}"
    }

    /// Adds the path of `segments` (literals and `{name}` parameters) for `method`.
    mutating func add(_ method: String, _ segments: [Substring], pattern: String, endpoint: Int) {
        var node = 0
        for segment in segments {
            if Self.isParameter(segment) {
                if let child = nodes[node].parameterChild {
                    node = child
                } else {
                    nodes.append(Node())
                    nodes[node].parameterChild = nodes.count - 1
                    node = nodes.count - 1
                }
            } else {
                precondition(
                    !segment.isEmpty && !segment.contains("{") && !segment.contains("}"),
                    "malformed segment '\(segment)' in \(pattern)")
                let literal = String(segment)
                if let child = nodes[node].literalChildren[literal] {
                    node = child
                } else {
                    nodes.append(Node())
                    nodes[node].literalChildren[literal] = nodes.count - 1
                    node = nodes.count - 1
                }
            }
        }
        precondition(nodes[node].endpoints[method] == nil, "duplicate route \(method) \(pattern)")
        nodes[node].endpoints[method] = endpoint
    }

    /// Depth-first, literal before parameter. On a miss, collects the methods of every
    /// node the path reaches into `allowed`.
    func search(
        node index: Int, _ remaining: ArraySlice<Substring>, method: String,
        captures: inout [Substring], allowed: inout Set<String>
    ) -> Int? {
        let node = nodes[index]
        guard let segment = remaining.first else {
            if let endpoint = node.endpoint(for: method) { return endpoint }
            allowed.formUnion(node.endpoints.keys)
            return nil
        }
        let rest = remaining.dropFirst()
        if let child = node.literalChildren[String(segment)],
            let endpoint = search(node: child, rest, method: method, captures: &captures, allowed: &allowed)
        {
            return endpoint
        }
        if !segment.isEmpty, let child = node.parameterChild {
            captures.append(segment)
            if let endpoint = search(node: child, rest, method: method, captures: &captures, allowed: &allowed) {
                return endpoint
            }
            captures.removeLast()
        }
        return nil
    }
}
