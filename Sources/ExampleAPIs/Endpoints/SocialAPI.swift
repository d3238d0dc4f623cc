import Courier
import Foundation

/// The social backend's calls. Each returns its own type, so each is a `Request` value; call sites
/// read the same as an enum's: `social.send(SocialAPI.friends(of: 1))`.
public enum SocialAPI {
    /// `GET friends?user_id=…`: the friends of a user.
    public static func friends(of userID: Int) -> Request<[User]> {
        Request(.get, "friends", query: ["user_id": userID])
    }

    /// `POST friends {user_id, friend_id}`: makes `friendID` a friend of `userID`; returns the friend.
    public static func addFriend(_ friendID: Int, to userID: Int) -> Request<User> {
        Request(.post, "friends", body: .json(["user_id": userID, "friend_id": friendID] as [String: Int]))
    }

    /// `DELETE friends/{friend_id}?user_id=…`: ends a friendship. Answers `204 No Content`.
    public static func removeFriend(_ friendID: Int, from userID: Int) -> Request<Void> {
        Request(.delete, "friends/\(friendID)", query: ["user_id": userID])
    }

    /// `GET users/{id}`: one user.
    public static func user(id: Int) -> Request<User> {
        Request(.get, "users/\(id)")
    }

    /// `POST users/{id}/avatar`: uploads an image as `multipart/form-data` with an optional caption.
    public static func uploadAvatar(
        for userID: Int,
        image: Data,
        filename: String,
        contentType: String,
        caption: String? = nil
    ) -> Request<AvatarReceipt> {
        var form = MultipartFormData()
        form.append(image, named: "avatar", filename: filename, contentType: contentType)
        if let caption { form.append(caption, named: "caption") }
        return Request(.post, "users/\(userID)/avatar", body: .multipart(form))
            .requiring(!image.isEmpty, "Choose an image to upload.")
    }
}
