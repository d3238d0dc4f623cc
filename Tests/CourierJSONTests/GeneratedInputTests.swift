import Testing

/// The decoder's suites that check hundreds of thousands of generated inputs. They run one at a
/// time (this parent is serialized, and so are its children) and yield between inputs: each keeps
/// one of a two-core machine's cooperative threads busy for seconds, and two at once would leave
/// nothing for the suites that talk to servers and measure time.
@Suite("Generated JSON inputs, one suite at a time", .serialized)
struct GeneratedInputTests {}
