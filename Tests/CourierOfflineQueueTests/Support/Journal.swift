import Courier
import Foundation

/// `POST journal/{name}` with `{"value": n}`: what the reference server appends to a journal.
func journalEntry(_ name: String, _ value: Int, query: QueryParameters = [:]) -> Request<Data> {
    Request<Data>(.post, "journal/\(name)", query: query, body: .json(["value": value]))
}
