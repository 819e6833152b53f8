import Glibc
import Net

extension SocketAddress {
    /// The address as the kernel's `sockaddr_storage` and its length.
    func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var storage = sockaddr_storage()
        let length = fill(&storage)
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }

    /// Writes the address into `storage`; returns its length.
    func fill(_ storage: inout sockaddr_storage) -> socklen_t {
        storage = sockaddr_storage()
        let bytes = ip.bytes
        return withUnsafeMutablePointer(to: &storage) { pointer -> socklen_t in
            if bytes.count == 4 {
                return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    address.pointee.sin_family = sa_family_t(AF_INET)
                    address.pointee.sin_port = port.bigEndian
                    address.pointee.sin_addr.s_addr = UInt32(bytes[0]) | UInt32(bytes[1]) << 8 | UInt32(bytes[2]) << 16 | UInt32(bytes[3]) << 24
                    return socklen_t(MemoryLayout<sockaddr_in>.size)
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                address.pointee.sin6_family = sa_family_t(AF_INET6)
                address.pointee.sin6_port = port.bigEndian
                withUnsafeMutableBytes(of: &address.pointee.sin6_addr) { raw in
                    for (index, byte) in bytes.prefix(16).enumerated() { raw[index] = byte }
                }
                return socklen_t(MemoryLayout<sockaddr_in6>.size)
            }
        }
    }

    /// The address in a `sockaddr_storage` the kernel filled, or nil for a family other than IPv4/IPv6.
    init?(_ storage: sockaddr_storage) {
        var copy = storage
        let family = Int32(storage.ss_family)
        if family == AF_INET {
            let result: SocketAddress? = withUnsafePointer(to: &copy) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { address in
                    let value = UInt32(bigEndian: address.pointee.sin_addr.s_addr)
                    return SocketAddress(ip: IPAddress(ipv4: value), port: UInt16(bigEndian: address.pointee.sin_port))
                }
            }
            guard let result else { return nil }
            self = result
        } else if family == AF_INET6 {
            let result: SocketAddress? = withUnsafePointer(to: &copy) { pointer in
                pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { address in
                    let bytes = withUnsafeBytes(of: address.pointee.sin6_addr) { Array($0) }
                    guard let ip = IPAddress(bytes: bytes) else { return nil }
                    return SocketAddress(ip: ip, port: UInt16(bigEndian: address.pointee.sin6_port))
                }
            }
            guard let result else { return nil }
            self = result
        } else {
            return nil
        }
    }
}
