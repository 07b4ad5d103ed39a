import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin POSIX socket helpers shared by the server (internal; no policy here).
enum Socket {
    #if canImport(Glibc)
    static let streamType = Int32(SOCK_STREAM.rawValue)
    /// Linux: ask `send` not to raise SIGPIPE on a closed peer.
    static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
    static let streamType = SOCK_STREAM
    /// Darwin: `SO_NOSIGPIPE` is set on every socket instead.
    static let sendFlags: Int32 = 0
    #endif

    /// An errno value with its message.
    struct Failure: Error, CustomStringConvertible {
        let operation: String
        let code: Int32
        var description: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    /// Non-blocking, close-on-exec and (on Darwin) no SIGPIPE.
    static func configure(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
        let fdFlags = fcntl(fd, F_GETFD)
        if fdFlags >= 0 { _ = fcntl(fd, F_SETFD, fdFlags | FD_CLOEXEC) }
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
    }

    /// A loopback socket address for `port` (network byte order inside).
    static func loopbackAddress(port: UInt16, host: UInt32 = 0x7F00_0001) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port.bigEndian)
        address.sin_addr.s_addr = in_addr_t(host.bigEndian)
        return address
    }

    /// The IPv4 address in dotted form (`192.168.1.20`) as a host-order number, or nil.
    static func ipv4(_ text: String) -> UInt32? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var value: UInt32 = 0
        for part in parts {
            guard (1...3).contains(part.count), part.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let byte = UInt8(part) else { return nil }
            value = value << 8 | UInt32(byte)
        }
        return value
    }

    /// A listening, non-blocking TCP socket bound to `address`:`port` (127.0.0.1 unless
    /// given; 0: any free port), with `SO_REUSEADDR` so a restart can rebind while old
    /// connections sit in TIME_WAIT.
    static func listen(port: UInt16, backlog: Int32, address host: UInt32 = 0x7F00_0001) throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw Failure(operation: "socket", code: errno) }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        configure(fd)
        var address = loopbackAddress(port: port, host: host)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            let code = errno
            close(fd)
            let shown = [24, 16, 8, 0].map { String(host >> UInt32($0) & 0xFF) }.joined(separator: ".")
            throw Failure(operation: "bind \(shown):\(port)", code: code)
        }
        guard systemListen(fd, backlog) == 0 else {
            let code = errno
            close(fd)
            throw Failure(operation: "listen", code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            close(fd)
            throw Failure(operation: "getsockname", code: code)
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// Sends as much as the socket takes now: bytes written, 0 if it would block, nil on
    /// a real error (peer gone: EPIPE/ECONNRESET never raise a signal here).
    static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Int? {
        while true {
            let n = systemSend(fd, bytes.baseAddress, bytes.count, sendFlags)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            return nil
        }
    }

    /// Receives into `buffer`: bytes read, 0 at end of stream, -1 if it would block,
    /// nil on a real error.
    static func receive(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int? {
        while true {
            let n = recv(fd, buffer.baseAddress, buffer.count, 0)
            if n >= 0 { return n }
            if errno == EINTR { continue }
            if errno == EAGAIN || errno == EWOULDBLOCK { return -1 }
            return nil
        }
    }
}

// `listen` and `send` are shadowed by `Socket.listen` and `Socket.send` inside the enum.
private func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    listen(fd, backlog)
}

private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}
