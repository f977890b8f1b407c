import UnderstudyJSON

extension EventStream {
    /// `{"id", "price", "stock", "updatedAt", "note"}` for event `id`: the same bytes for the same seed and id on
    /// every connection, so a resumed stream neither repeats nor skips. The note has an em dash, so `chunk=1`
    /// splits a multi-byte UTF-8 character as it does CRLF.
    static func payload(for id: Int, plan: StreamPlan, catalog: Catalog) -> [UInt8] {
        var generator = SeededGenerator(seed: plan.seed, stream: "event-\(id)")
        let product = catalog.products.records[Int(generator.next() % UInt64(max(1, catalog.productCount)))]
        let basePrice = product.object["price"]?.doubleValue ?? 10
        let price = (basePrice * (0.9 + 0.2 * generator.unit()) * 100).rounded() / 100
        let stock = Int(generator.next() % 101)
        var writer = JSONWriter(reservingCapacity: 96)
        writer.writeRaw("{\"id\":")
        writer.writeRaw(product.idText.utf8)
        writer.writeRaw(",\"price\":")
        writer.write(.number(JSONNumber(price)))
        writer.writeRaw(",\"stock\":")
        writer.write(int: stock)
        writer.writeRaw(",\"updatedAt\":")
        writer.write(string: Timestamp.iso8601(1_746_006_062.053 + Double(id)))
        writer.writeRaw(",\"note\":")
        writer.write(string: EventStream.note(stock: stock))
        writer.writeRaw("}")
        return writer.bytes
    }

    /// What a shop would say about `stock`.
    static func note(stock: Int) -> String {
        switch stock {
        case 0: "Sold out — back soon"
        case 1..<10: "Only \(stock) left — order soon"
        default: "In stock — ships today"
        }
    }
}
