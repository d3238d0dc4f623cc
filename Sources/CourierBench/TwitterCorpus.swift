import Foundation

/// A payload shaped as nativejson-benchmark's `twitter.json`: a search API page of about 630 KB,
/// 100 tweets with their users and entities, some retweeting another, much of the text Japanese,
/// indented. Read with the snake-case key strategy, as an app would.
enum TwitterCorpus {
    struct SearchResponse: Decodable {
        var statuses: [Status]
        var searchMetadata: SearchMetadata
    }

    final class Status: Decodable {
        struct Metadata: Decodable {
            var resultType: String
            var isoLanguageCode: String
        }

        var metadata: Metadata
        var createdAt: String
        var id: Int64
        var idStr: String
        var text: String
        var source: String
        var truncated: Bool
        var inReplyToStatusId: Int64?
        var inReplyToStatusIdStr: String?
        var inReplyToUserId: Int64?
        var inReplyToUserIdStr: String?
        var inReplyToScreenName: String?
        var user: User
        var retweetedStatus: Status?
        var retweetCount: Int
        var favoriteCount: Int
        var entities: Entities
        var favorited: Bool
        var retweeted: Bool
        var possiblySensitive: Bool?
        var lang: String
    }

    struct User: Decodable {
        var id: Int64
        var idStr: String
        var name: String
        var screenName: String
        var location: String
        var description: String
        var url: String?
        var entities: UserEntities
        var protected: Bool
        var followersCount: Int
        var friendsCount: Int
        var listedCount: Int
        var createdAt: String
        var favouritesCount: Int
        var utcOffset: Int?
        var timeZone: String?
        var geoEnabled: Bool
        var verified: Bool
        var statusesCount: Int
        var lang: String
        var profileBackgroundColor: String
        var profileBackgroundImageUrl: String
        var profileBackgroundImageUrlHttps: String
        var profileBackgroundTile: Bool
        var profileImageUrl: String
        var profileImageUrlHttps: String
        var profileBannerUrl: String?
        var profileLinkColor: String
        var profileUseBackgroundImage: Bool
        var defaultProfile: Bool
        var defaultProfileImage: Bool
        var following: Bool
    }

    struct UserEntities: Decodable {
        var url: URLs?
        var description: URLs
    }

    struct URLs: Decodable {
        var urls: [URLEntity]
    }

    struct URLEntity: Decodable {
        var url: String
        var expandedUrl: String
        var displayUrl: String
        var indices: [Int]
    }

    struct Entities: Decodable {
        var hashtags: [Hashtag]
        var symbols: [Hashtag]
        var urls: [URLEntity]
        var userMentions: [Mention]
        var media: [Media]?
    }

    struct Hashtag: Decodable {
        var text: String
        var indices: [Int]
    }

    struct Mention: Decodable {
        var screenName: String
        var name: String
        var id: Int64
        var idStr: String
        var indices: [Int]
    }

    struct Media: Decodable {
        struct Size: Decodable {
            var w: Int
            var h: Int
            var resize: String
        }

        var id: Int64
        var idStr: String
        var indices: [Int]
        var mediaUrl: String
        var mediaUrlHttps: String
        var url: String
        var displayUrl: String
        var expandedUrl: String
        var type: String
        var sizes: [String: Size]
    }

    struct SearchMetadata: Decodable {
        var completedIn: Double
        var maxId: Int64
        var maxIdStr: String
        var nextResults: String
        var query: String
        var refreshUrl: String
        var count: Int
        var sinceId: Int
        var sinceIdStr: String
    }

    /// The JSON text: 100 tweets.
    /// - Parameters:
    ///   - count: How many tweets.
    ///   - camelCaseKeys: Whether members are named in camelCase (`created_at` becomes
    ///     `createdAt`, as the snake-case key strategy reads it), so the models read the page with
    ///     the default key strategy, as an app whose API names its members as its models do.
    /// - Returns: The page, indented.
    static func make(count: Int = 100, camelCaseKeys: Bool = false) -> Data {
        var random = CorpusRandom(state: 0x7717_7E5)
        let statuses = (0..<count).map { index in status(index, &random, retweets: index % 3 == 0) }
        let json = CorpusJSON.object([
            ("statuses", .array(statuses)),
            (
                "search_metadata",
                .object([
                    ("completed_in", .number("0.087")), ("max_id", .int(505_874_924_095_815_681)), ("max_id_str", .string("505874924095815681")),
                    ("next_results", .string("?max_id=505874847260352512&q=%E4%B8%80&count=100&include_entities=1")),
                    ("query", .string("%E4%B8%80")), ("refresh_url", .string("?since_id=505874924095815681&q=%E4%B8%80&include_entities=1")),
                    ("count", .int(100)), ("since_id", .int(0)), ("since_id_str", .string("0")),
                ])
            ),
        ])
        return Data((camelCaseKeys ? json.keysInCamelCase() : json).text().utf8)
    }

    private static func id(_ random: inout CorpusRandom) -> Int {
        Int.random(in: 100_000_000_000_000_000...999_999_999_999_999_999, using: &random)
    }

    private static func indices(_ random: inout CorpusRandom) -> CorpusJSON {
        let start = Int.random(in: 0...100, using: &random)
        return .array([.int(start), .int(start + Int.random(in: 3...30, using: &random))])
    }

    private static func urlEntity(_ random: inout CorpusRandom) -> CorpusJSON {
        let path = String(Int.random(in: 100_000...999_999, using: &random), radix: 36)
        return .object([
            ("url", .string("http://t.co/\(path)")), ("expanded_url", .string("http://example.com/articles/\(path)?ref=tw")),
            ("display_url", .string("example.com/articles/\(path)…")), ("indices", indices(&random)),
        ])
    }

    private static func status(_ index: Int, _ random: inout CorpusRandom, retweets: Bool) -> CorpusJSON {
        let statusID = id(&random)
        let reply = Int.random(in: 0..<4, using: &random) == 0
        let replyID = reply ? id(&random) : nil
        let replyUser = reply ? id(&random) : nil
        var members: [(String, CorpusJSON)] = [
            ("metadata", .object([("result_type", .string("recent")), ("iso_language_code", .string(random.pick(["ja", "en", "fr"])))])),
            ("created_at", .string("Sun Aug 31 00:29:\(10 + index % 50) +0000 2014")),
            ("id", .int(statusID)), ("id_str", .string(String(statusID))),
            ("text", .string(random.sentence(Int.random(in: 8...32, using: &random)))),
            ("source", .string("<a href=\"http://twitter.com/download/iphone\" rel=\"nofollow\">Twitter for iPhone</a>")),
            ("truncated", .bool(false)),
            ("in_reply_to_status_id", replyID.map(CorpusJSON.int) ?? .null),
            ("in_reply_to_status_id_str", .optional(replyID.map(String.init))),
            ("in_reply_to_user_id", replyUser.map(CorpusJSON.int) ?? .null),
            ("in_reply_to_user_id_str", .optional(replyUser.map(String.init))),
            ("in_reply_to_screen_name", .optional(reply ? "user\(index)" : nil)),
            ("user", user(&random)),
            ("geo", .null), ("coordinates", .null), ("place", .null), ("contributors", .null),
        ]
        if retweets {
            members.append(("retweeted_status", status(index + 1000, &random, retweets: false)))
        }
        var entities: [(String, CorpusJSON)] = [
            ("hashtags", .array((0..<Int.random(in: 0...3, using: &random)).map { _ in .object([("text", .string(random.pick(["swift", "東京", "json", "今日"]))), ("indices", indices(&random))]) })),
            ("symbols", .array([])),
            ("urls", .array((0..<Int.random(in: 0...2, using: &random)).map { _ in urlEntity(&random) })),
            (
                "user_mentions",
                .array(
                    (0..<Int.random(in: 0...2, using: &random)).map { _ in
                        let mentioned = id(&random)
                        return .object([
                            ("screen_name", .string("user\(mentioned % 1000)")), ("name", .string(random.sentence(2))),
                            ("id", .int(mentioned)), ("id_str", .string(String(mentioned))), ("indices", indices(&random)),
                        ])
                    })
            ),
        ]
        if Int.random(in: 0..<4, using: &random) == 0 {
            let mediaID = id(&random)
            let size = { (w: Int, h: Int, resize: String) in CorpusJSON.object([("w", .int(w)), ("h", .int(h)), ("resize", .string(resize))]) }
            entities.append(
                (
                    "media",
                    .array([
                        .object([
                            ("id", .int(mediaID)), ("id_str", .string(String(mediaID))), ("indices", indices(&random)),
                            ("media_url", .string("http://pbs.twimg.com/media/\(mediaID).jpg")), ("media_url_https", .string("https://pbs.twimg.com/media/\(mediaID).jpg")),
                            ("url", .string("http://t.co/\(mediaID % 100_000)")), ("display_url", .string("pic.twitter.com/\(mediaID % 100_000)")),
                            ("expanded_url", .string("http://twitter.com/user/status/\(statusID)/photo/1")), ("type", .string("photo")),
                            ("sizes", .object([("medium", size(600, 399, "fit")), ("small", size(340, 226, "fit")), ("thumb", size(150, 150, "crop")), ("large", size(1024, 681, "fit"))])),
                        ])
                    ])
                ))
        }
        members += [
            ("retweet_count", .int(Int.random(in: 0...5000, using: &random))), ("favorite_count", .int(Int.random(in: 0...500, using: &random))),
            ("entities", .object(entities)), ("favorited", .bool(false)), ("retweeted", .bool(false)),
        ]
        if Bool.random(using: &random) { members.append(("possibly_sensitive", .bool(false))) }
        members.append(("lang", .string(random.pick(["ja", "en", "fr"]))))
        return .object(members)
    }

    private static func user(_ random: inout CorpusRandom) -> CorpusJSON {
        let userID = id(&random) % 10_000_000_000
        let hasURL = Bool.random(using: &random)
        let color = { (random: inout CorpusRandom) in CorpusJSON.string(String(format: "%06X", Int.random(in: 0...0xFFFFFF, using: &random))) }
        return .object([
            ("id", .int(userID)), ("id_str", .string(String(userID))), ("name", .string(random.sentence(2))),
            ("screen_name", .string("user_\(userID % 100_000)")), ("location", .string(random.pick(["", "東京", "Paris", "大阪府"]))),
            ("description", .string(random.sentence(Int.random(in: 0...20, using: &random)))),
            ("url", hasURL ? .string("http://t.co/\(userID % 100_000)") : .null),
            (
                "entities",
                .object(
                    (hasURL ? [("url", CorpusJSON.object([("urls", .array([urlEntity(&random)]))]))] : [])
                        + [("description", .object([("urls", .array([]))]))])
            ),
            ("protected", .bool(false)), ("followers_count", .int(Int.random(in: 0...100_000, using: &random))),
            ("friends_count", .int(Int.random(in: 0...5000, using: &random))), ("listed_count", .int(Int.random(in: 0...100, using: &random))),
            ("created_at", .string("Thu Jul 11 0\(userID % 10):44:03 +0000 2013")), ("favourites_count", .int(Int.random(in: 0...10_000, using: &random))),
            ("utc_offset", Bool.random(using: &random) ? .int(32400) : .null), ("time_zone", Bool.random(using: &random) ? .string("Tokyo") : .null),
            ("geo_enabled", .bool(Bool.random(using: &random))), ("verified", .bool(false)),
            ("statuses_count", .int(Int.random(in: 0...50_000, using: &random))), ("lang", .string(random.pick(["ja", "en"]))),
            ("contributors_enabled", .bool(false)), ("is_translator", .bool(false)), ("is_translation_enabled", .bool(false)),
            ("profile_background_color", color(&random)),
            ("profile_background_image_url", .string("http://abs.twimg.com/images/themes/theme1/bg.png")),
            ("profile_background_image_url_https", .string("https://abs.twimg.com/images/themes/theme1/bg.png")),
            ("profile_background_tile", .bool(false)),
            ("profile_image_url", .string("http://pbs.twimg.com/profile_images/\(userID)/avatar_normal.jpeg")),
            ("profile_image_url_https", .string("https://pbs.twimg.com/profile_images/\(userID)/avatar_normal.jpeg")),
            ("profile_banner_url", Bool.random(using: &random) ? .string("https://pbs.twimg.com/profile_banners/\(userID)/1403924564") : .null),
            ("profile_link_color", color(&random)), ("profile_sidebar_border_color", color(&random)),
            ("profile_sidebar_fill_color", color(&random)), ("profile_text_color", color(&random)),
            ("profile_use_background_image", .bool(true)), ("default_profile", .bool(true)), ("default_profile_image", .bool(false)),
            ("following", .bool(false)), ("follow_request_sent", .bool(false)), ("notifications", .bool(false)),
        ])
    }
}
