//! The reqwest client mur builds for what needs one (the OAuth flow): no proxy, no
//! redirects, and no host names looked up.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

/// Every reqwest client mur builds, with `resolver` asked for names other
/// than `localhost` (in production, [`NoLookups`]).
pub(crate) fn client_builder(
    resolver: impl reqwest::dns::Resolve + 'static,
) -> reqwest::ClientBuilder {
    let builder = reqwest::Client::builder()
        .no_proxy()
        // A redirect would re-send the body to wherever `Location` points,
        // another host included; callers see the 3xx instead.
        .redirect(reqwest::redirect::Policy::none())
        // `localhost` is 127.0.0.1 without asking a resolver: no DNS lookup,
        // so no query leaves the machine and no resolver can point it elsewhere.
        // (A port of 0 here means "the URL's port".)
        .resolve("localhost", SocketAddr::from((Ipv4Addr::LOCALHOST, 0)))
        .dns_resolver(resolver)
        // No keepalive probes and no unacknowledged-data timeout (reqwest sets
        // both): a loopback peer that dies is noticed at once, one that hangs is
        // bounded by the caller, and each option was a `setsockopt` a request.
        .tcp_keepalive(None::<Duration>)
        .tcp_keepalive_interval(None::<Duration>)
        .tcp_keepalive_retries(None::<u32>);
    #[cfg(any(target_os = "android", target_os = "fuchsia", target_os = "linux"))]
    let builder = builder.tcp_user_timeout(None::<Duration>);
    builder
}

/// Why a host name is not reached: one sentence for both stacks.
pub(crate) fn no_lookups(name: &str) -> String {
    format!(
        "mur looks up no host names (`{name}`): devtools endpoints are loopback addresses \
         (127.0.0.1, [::1]) or localhost"
    )
}

/// The reqwest client's resolver for every name but `localhost`: refuses.
pub(crate) struct NoLookups;

impl reqwest::dns::Resolve for NoLookups {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let message = no_lookups(name.as_str());
        Box::pin(async move { Err(message.into()) })
    }
}
