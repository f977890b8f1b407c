import UnderstudyTestSupport

extension Fixtures {
    /// One product as DummyJSON writes it, every field present.
    static let productJSON = #"""
    {"id":1,"title":"Lamp","description":"A lamp","category":"home-decoration","price":9.99,
     "discountPercentage":10,"rating":4.5,"stock":3,"tags":["light"],"sku":"HOM-LAM-LAM-001","weight":2,
     "dimensions":{"width":10,"height":20.5,"depth":3},"warrantyInformation":"1 year warranty",
     "shippingInformation":"Ships in 1 week","availabilityStatus":"In Stock",
     "reviews":[{"rating":5,"comment":"Bright","date":"2025-04-30T09:41:02.053Z","reviewerName":"Ann",
                 "reviewerEmail":"ann@x.dummyjson.com"}],
     "returnPolicy":"30 days return policy","minimumOrderQuantity":2,
     "meta":{"createdAt":"2025-04-30T09:41:02.053Z","updatedAt":"2025-04-30T09:41:02.053Z",
             "barcode":"1234567890123","qrCode":"https://cdn.dummyjson.com/public/qr-code.png"},
     "images":["https://cdn.dummyjson.com/product-images/a/1.webp"],"thumbnail":"https://cdn.dummyjson.com/t.webp"}
    """#
}
