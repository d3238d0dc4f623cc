import Courier
import ExampleAPIs
import Foundation

extension AppFlow {
    /// What every standards-following server does, handled the same on every transport: a
    /// compressed body decoded, a 401 challenge answered at once.
    func showStandards(movies: Client) async {
        transcript.heading("Compression and challenges")
        do {
            let response = try await movies.response(for: MovieAPI.popular(page: 1))
            let coding = response.headerFields[.contentEncoding] ?? "none"
            transcript.check(
                coding == "gzip" && response.value.results.count == 20,
                "popular movies arrived \(coding)-compressed and decoded: \(response.value.results.count) titles, status \(response.status.code)"
            )
        } catch {
            transcript.check(false, "compressed response failed: \(error.localizedDescription) — \(error)")
        }
        let anonymous = Client.social(environment: environment, transport: transport)
        let started = ContinuousClock.now
        do {
            _ = try await anonymous.send(SocialAPI.friends(of: 1))
            transcript.check(false, "a request without a token was served")
        } catch {
            let duration = ContinuousClock.now - started
            let elapsed = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
            let challenge = error.responseHeaderFields?[.wwwAuthenticate] ?? "none"
            transcript.check(
                error.kind == .unauthorized && elapsed < 1000,
                "401 with challenge \"\(challenge)\" delivered in \(elapsed) ms: \"\(error.localizedDescription)\" (\(error.kind))"
            )
        }
    }
}
