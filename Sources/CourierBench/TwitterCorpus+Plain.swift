import Foundation

/// ``TwitterCorpus`` read with the default key strategy: models named as the JSON names its
/// members, as an app that mirrors the API's snake_case writes them.
extension TwitterCorpus {
    enum Plain {
        struct SearchResponse: Decodable {
            var statuses: [Status]
            var search_metadata: SearchMetadata
        }

        final class Status: Decodable {
            struct Metadata: Decodable {
                var result_type: String
                var iso_language_code: String
            }

            var metadata: Metadata
            var created_at: String
            var id: Int64
            var id_str: String
            var text: String
            var source: String
            var truncated: Bool
            var in_reply_to_status_id: Int64?
            var in_reply_to_status_id_str: String?
            var in_reply_to_user_id: Int64?
            var in_reply_to_user_id_str: String?
            var in_reply_to_screen_name: String?
            var user: User
            var retweeted_status: Status?
            var retweet_count: Int
            var favorite_count: Int
            var entities: Entities
            var favorited: Bool
            var retweeted: Bool
            var possibly_sensitive: Bool?
            var lang: String
        }

        struct User: Decodable {
            var id: Int64
            var id_str: String
            var name: String
            var screen_name: String
            var location: String
            var description: String
            var url: String?
            var entities: UserEntities
            var protected: Bool
            var followers_count: Int
            var friends_count: Int
            var listed_count: Int
            var created_at: String
            var favourites_count: Int
            var utc_offset: Int?
            var time_zone: String?
            var geo_enabled: Bool
            var verified: Bool
            var statuses_count: Int
            var lang: String
            var profile_background_color: String
            var profile_background_image_url: String
            var profile_background_image_url_https: String
            var profile_background_tile: Bool
            var profile_image_url: String
            var profile_image_url_https: String
            var profile_banner_url: String?
            var profile_link_color: String
            var profile_use_background_image: Bool
            var default_profile: Bool
            var default_profile_image: Bool
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
            var expanded_url: String
            var display_url: String
            var indices: [Int]
        }

        struct Entities: Decodable {
            var hashtags: [Hashtag]
            var symbols: [Hashtag]
            var urls: [URLEntity]
            var user_mentions: [Mention]
            var media: [Media]?
        }

        struct Hashtag: Decodable {
            var text: String
            var indices: [Int]
        }

        struct Mention: Decodable {
            var screen_name: String
            var name: String
            var id: Int64
            var id_str: String
            var indices: [Int]
        }

        struct Media: Decodable {
            struct Size: Decodable {
                var w: Int
                var h: Int
                var resize: String
            }

            var id: Int64
            var id_str: String
            var indices: [Int]
            var media_url: String
            var media_url_https: String
            var url: String
            var display_url: String
            var expanded_url: String
            var type: String
            var sizes: [String: Size]
        }

        struct SearchMetadata: Decodable {
            var completed_in: Double
            var max_id: Int64
            var max_id_str: String
            var next_results: String
            var query: String
            var refresh_url: String
            var count: Int
            var since_id: Int
            var since_id_str: String
        }
    }
}
