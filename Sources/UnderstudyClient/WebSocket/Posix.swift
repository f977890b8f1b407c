#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The socket calls the WebSocket channel makes, by one name on Linux and Apple platforms (and out of the way of
/// the channel's own `send` and `close`).
enum Posix {
    #if canImport(Glibc)
    /// A write to a peer that has gone returns EPIPE instead of raising SIGPIPE.
    static let noSignal = Int32(MSG_NOSIGNAL)
    static let shutBoth = Int32(SHUT_RDWR)
    static let stream = Int32(SOCK_STREAM.rawValue)
    static func close(_ descriptor: Int32) -> Int32 { Glibc.close(descriptor) }
    static func send(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        Glibc.send(descriptor, bytes, count, flags)
    }
    static func recv(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        Glibc.recv(descriptor, bytes, count, flags)
    }
    static func shutdown(_ descriptor: Int32, _ how: Int32) -> Int32 { Glibc.shutdown(descriptor, how) }
    static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
        Glibc.connect(descriptor, address, length)
    }
    #else
    /// Darwin has no MSG_NOSIGNAL: the socket is opened with SO_NOSIGPIPE instead.
    static let noSignal: Int32 = 0
    static let shutBoth = SHUT_RDWR
    static let stream = SOCK_STREAM
    static func close(_ descriptor: Int32) -> Int32 { Darwin.close(descriptor) }
    static func send(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        Darwin.send(descriptor, bytes, count, flags)
    }
    static func recv(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int, _ flags: Int32) -> Int {
        Darwin.recv(descriptor, bytes, count, flags)
    }
    static func shutdown(_ descriptor: Int32, _ how: Int32) -> Int32 { Darwin.shutdown(descriptor, how) }
    static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
        Darwin.connect(descriptor, address, length)
    }
    #endif
}
