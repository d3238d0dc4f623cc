import Foundation

/// A payload shaped as nativejson-benchmark's `citm_catalog.json`: a concert hall's catalogue of
/// about 1.7 MB, indented, mostly integers, with events and names in objects keyed by numeric ids
/// and performances whose seat categories list their areas.
enum CatalogCorpus {
    struct Catalog: Decodable {
        var areaNames: [String: String]
        var audienceSubCategoryNames: [String: String]
        var blockNames: [String: String]
        var events: [String: Event]
        var performances: [Performance]
        var seatCategoryNames: [String: String]
        var subTopicNames: [String: String]
        var subjectNames: [String: String]
        var topicNames: [String: String]
        var topicSubTopics: [String: [Int]]
        var venueNames: [String: String]
    }

    struct Event: Decodable {
        var description: String?
        var id: Int
        var logo: String?
        var name: String
        var subTopicIds: [Int]
        var subjectCode: String?
        var subtitle: String?
        var topicIds: [Int]
    }

    struct Performance: Decodable {
        var eventId: Int
        var id: Int
        var logo: String?
        var name: String?
        var prices: [Price]
        var seatCategories: [SeatCategory]
        var seatMapImage: String?
        var start: Int
        var venueCode: String
    }

    struct Price: Decodable {
        var amount: Int
        var audienceSubCategoryId: Int
        var seatCategoryId: Int
    }

    struct SeatCategory: Decodable {
        struct Area: Decodable {
            var areaId: Int
            var blockIds: [Int]
        }

        var areas: [Area]
        var seatCategoryId: Int
    }

    /// The JSON text, about `bytes` bytes.
    static func make(bytes: Int = 1_700_000) -> Data {
        var random = CorpusRandom(state: 0xC17_CA7)
        let names = ["Arrière-scène central", "1er balcon central", "2ème balcon bergerie cour", "Parterre central", "Loge", "Fosse", "Catégorie unique", "Abonné", "Tarif réduit", "Chœur"]
        func table(_ count: Int, base: Int) -> CorpusJSON {
            .object((0..<count).map { (String(base + $0 * 7), .string(random.pick(names) + " \($0)")) })
        }
        let areaIDs = (0..<17).map { 205_705_993 + $0 * 2 }
        let seatCategoryIDs = (0..<64).map { 338_937_235 + $0 * 6 }
        let topicIDs = [324_846_099, 107_888_604, 324_846_100, 107_888_605]
        let subTopicIDs = (0..<19).map { 337_184_262 + $0 * 7 }
        let eventIDs = (0..<184).map { 138_586_341 + $0 * 1_113 }
        let events = CorpusJSON.object(
            eventIDs.map { id in
                (
                    String(id),
                    .object([
                        ("description", .null), ("id", .int(id)),
                        ("logo", Bool.random(using: &random) ? .string("/images/UE0AAAAACEKo6QAAAAZDSVRN") : .null),
                        ("name", .string(random.pick(names) + " Tour")),
                        ("subTopicIds", .array((0..<Int.random(in: 1...3, using: &random)).map { _ in .int(random.pick(subTopicIDs)) })),
                        ("subjectCode", .null), ("subtitle", .null),
                        ("topicIds", .array((0..<Int.random(in: 1...2, using: &random)).map { _ in .int(random.pick(topicIDs)) })),
                    ])
                )
            })
        var performances: [CorpusJSON] = []
        var size = 60_000  // the tables and events, about
        var performanceID = 339_887_544
        // A performance takes about a fifth more room indented in the document than alone.
        while size * 6 / 5 < bytes {
            let categories = (0..<Int.random(in: 2...6, using: &random)).map { _ in random.pick(seatCategoryIDs) }
            let performance = CorpusJSON.object([
                ("eventId", .int(random.pick(eventIDs))), ("id", .int(performanceID)),
                ("logo", Bool.random(using: &random) ? .string("/images/UE0AAAAACEKo6QAAAAZDSVRN") : .null), ("name", .null),
                (
                    "prices",
                    .array(
                        categories.map { category in
                            .object([
                                ("amount", .int(Int.random(in: 10...200, using: &random) * 250)), ("audienceSubCategoryId", .int(337_100_890)),
                                ("seatCategoryId", .int(category)),
                            ])
                        })
                ),
                (
                    "seatCategories",
                    .array(
                        categories.map { category in
                            .object([
                                (
                                    "areas",
                                    .array(
                                        (0..<Int.random(in: 3...17, using: &random)).map { _ in
                                            .object([("areaId", .int(random.pick(areaIDs))), ("blockIds", .array([]))])
                                        })
                                ),
                                ("seatCategoryId", .int(category)),
                            ])
                        })
                ),
                ("seatMapImage", .null), ("start", .int(1_372_701_600_000 + performanceID % 1000 * 86_400_000)),
                ("venueCode", .string("PLEYEL_PLEYEL")),
            ])
            size += performance.text().utf8.count
            performances.append(performance)
            performanceID += 17
        }
        let json = CorpusJSON.object([
            ("areaNames", table(17, base: 205_705_993)),
            ("audienceSubCategoryNames", .object([("337100890", .string("Abonné"))])),
            ("blockNames", .object([])),
            ("events", events),
            ("performances", .array(performances)),
            ("seatCategoryNames", table(64, base: 338_937_235)),
            ("subTopicNames", table(19, base: 337_184_262)),
            ("subjectNames", .object([])),
            ("topicNames", table(4, base: 107_888_604)),
            ("topicSubTopics", .object(topicIDs.map { (String($0), .array(subTopicIDs.prefix(5).map(CorpusJSON.int))) })),
            ("venueNames", .object([("PLEYEL_PLEYEL", .string("Salle Pleyel"))])),
        ])
        return Data(json.text().utf8)
    }
}
