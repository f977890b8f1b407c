/// What the router decided: the reply, and how long to hold it back (`?delay=`).
struct RoutedResponse: Sendable {
    var response: HTTPResponse
    var delayMilliseconds: Int

    init(_ response: HTTPResponse, delayMilliseconds: Int = 0) {
        self.response = response
        self.delayMilliseconds = delayMilliseconds
    }
}
