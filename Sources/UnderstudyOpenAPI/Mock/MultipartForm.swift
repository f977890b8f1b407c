/// The fields of a `multipart/form-data` body: the text fields, as DummyJSON's multer reads them for its write
/// routes, and, when asked (a document's operation describes its files), the files' contents too.
///
/// Anything that is not a well-formed form (no boundary, a missing delimiter, a part without a name) is an error
/// naming what is wrong.
package enum MultipartForm {
    /// The boundary from a `Content-Type: multipart/form-data; boundary=…` value, unquoted.
    package static func boundary(in contentType: String) -> String? {
        guard let value = parameters(of: Substring(contentType)).first(where: { $0.name == "boundary" })?.value,
              !value.isEmpty else { return nil }
        return value
    }

    /// The `name=value` parameters after a header value's first `;`: names lower-cased, values unquoted.
    private static func parameters(of header: Substring) -> [(name: String, value: String)] {
        header.split(separator: ";").dropFirst().compactMap { parameter in
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            var value = pair[1].trimmingSpaces
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
            return (pair[0].trimmingSpaces.lowercased(), value)
        }
    }

    /// The named fields, in order: text fields, and file parts too with `includingFiles` (skipped otherwise: no
    /// DummyJSON route stores files).
    /// - Throws: a description of the first problem found.
    package static func fields(of body: [UInt8], boundary: String,
                               includingFiles: Bool = false) throws(MultipartError) -> [(name: String, value: String)] {
        let delimiter = Array("--\(boundary)".utf8)
        guard var position = body.firstRange(of: delimiter)?.upperBound else {
            throw MultipartError("no '--\(boundary)' delimiter in the body")
        }
        var fields: [(name: String, value: String)] = []
        let crlf: [UInt8] = [13, 10]
        while true {
            // After a delimiter: "--" ends the form, CRLF starts a part.
            if body[position...].starts(with: [45, 45]) { return fields }
            guard body[position...].starts(with: crlf) else { throw MultipartError("a delimiter is not followed by a line break") }
            position += 2
            // The part ends at the next delimiter; its head must end inside it (else one part would swallow the
            // next one's head).
            guard let next = body[position...].firstRange(of: crlf + delimiter) else {
                throw MultipartError("part \(fields.count + 1) is not closed by '--\(boundary)'")
            }
            guard let headEnd = body[position..<next.lowerBound].firstRange(of: crlf + crlf)
                    ?? (body[position..<next.lowerBound].starts(with: crlf) ? position..<(position + 2) : nil) else {
                throw MultipartError("part \(fields.count + 1) has no blank line after its headers")
            }
            let head = String(decoding: body[position..<headEnd.lowerBound], as: UTF8.self)
            let disposition = Disposition(head)
            guard let name = disposition.name else {
                throw MultipartError("part \(fields.count + 1) has no Content-Disposition name")
            }
            if !disposition.isFile || includingFiles {
                fields.append((name, String(decoding: body[headEnd.upperBound..<next.lowerBound], as: UTF8.self)))
            }
            position = next.upperBound
        }
    }

    /// The `name` and `filename` of a part's `Content-Disposition: form-data; …` header.
    private struct Disposition {
        var name: String?
        var isFile = false

        init(_ head: String) {
            for line in head.split(separator: "\r\n") {
                let pieces = line.split(separator: ":", maxSplits: 1)
                guard pieces.count == 2, pieces[0].trimmingSpaces.lowercased() == "content-disposition" else { continue }
                for parameter in MultipartForm.parameters(of: pieces[1]) {
                    switch parameter.name {
                    case "name": name = parameter.value
                    case "filename", "filename*": isFile = true
                    default: break
                    }
                }
            }
        }
    }
}

/// Why a multipart body could not be read.
package struct MultipartError: Error, CustomStringConvertible {
    package let description: String

    init(_ description: String) {
        self.description = description
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    package var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
