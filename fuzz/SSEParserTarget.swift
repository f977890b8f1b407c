// libFuzzer target: the client's SSE parser, fed the same bytes whole and split at every position the input picks.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSSEParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    var whole = SSEParser()
    let expected = whole.consume(bytes)
    // However the stream is chunked, the events must be the same.
    var split = SSEParser()
    var events: [ServerSentEvent] = []
    var start = 0
    for (index, byte) in bytes.enumerated() where byte % 7 == 0 {
        events += split.consume(bytes[start..<index])
        start = index
    }
    events += split.consume(bytes[start...])
    precondition(events == expected, "chunking changed the events")
    return 0
}
