import Hummingbird

/// The analytics backend: accepts batches of events. Needs an `X-App-ID` header (a common
/// parameter of the analytics client); errors are `{"message": "…"}`.
enum AnalyticsRoutes {
    static func register(on router: Router<ReferenceRequestContext>, store: ReferenceStore) {
        router.post("v1/events") { request, _ -> Response in
            guard let appID = request.headerValue("X-App-ID"), !appID.isEmpty else {
                return JSONResponse.message("X-App-ID header is required", status: .badRequest)
            }
            struct Event: Decodable {
                var name: String
            }
            struct Batch: Decodable {
                var events: [Event]
            }
            guard let batch = await request.decodeJSON(Batch.self) else {
                return JSONResponse.message("Body must be {\"events\": [{\"name\": …}]}", status: .badRequest)
            }
            guard !batch.events.isEmpty else {
                return JSONResponse.message("A batch needs at least one event", status: .unprocessableContent)
            }
            let total = await store.record(events: batch.events.count)
            struct Receipt: Encodable {
                var accepted: Int
                var total: Int
                var app_id: String
            }
            return JSONResponse.make(Receipt(accepted: batch.events.count, total: total, app_id: appID), status: .accepted)
        }

        router.get("v1/stats") { _, _ -> Response in
            struct Stats: Encodable {
                var events: Int
                var batches: Int
            }
            return JSONResponse.make(Stats(events: await store.analyticsEventCount, batches: await store.analyticsBatchCount))
        }
    }
}
