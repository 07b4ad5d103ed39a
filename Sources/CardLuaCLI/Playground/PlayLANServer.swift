import CardServe

/// The second server of `play --lan`, on the LAN address at the loopback server's port,
/// answering as the first (same playground, same engine).
enum PlayLANServer {
    /// `--lan` and `--lan-address IPV4` (which needs `--lan`).
    static func options(_ arguments: Arguments) throws(UsageError) -> (Bool, String?) {
        let command = arguments.command
        let lan = arguments.isSet(.lan)
        guard let address = arguments.value(.lanAddress) else { return (lan, nil) }
        guard lan else { throw UsageError("--lan-address needs --lan", command: command) }
        let parts = address.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isNumber) && UInt8($0) != nil }) else {
            throw UsageError("--lan-address: expected an IPv4 address like 127.0.0.2 (got '\(Echo.safe(address))')", command: command)
        }
        return (lan, address)
    }

    /// Starts the LAN server when `--lan` is on (and sets the playground's token), else nil.
    static func start(_ options: PlayOptions, port: UInt16, playground: Playground,
                      engine: PlayEngineQueue) throws -> LoopbackServer? {
        guard options.lan else { return nil }
        guard let address = options.lanAddress ?? LANAccess.findAddress() else {
            throw CommandFailure("cardlua play: --lan: this machine has no network address (no interface up but loopback)")
        }
        let access = LANAccess(address: address, port: port)
        playground.lan = access
        var configuration = LoopbackServer.Configuration(port: port)
        configuration.address = address
        configuration.extraHosts = ["\(address):\(port)"]
        let server: LoopbackServer
        do {
            server = try LoopbackServer(configuration: configuration) { request, reply in
                playground.route(request, engine: engine, reply: reply)
            }
        } catch let failure as LoopbackServer.Failure {
            throw CommandFailure("cardlua play: --lan: \(failure.message)")
        }
        server.start()
        return server
    }
}
