//! Which endpoints a reader may contact: only loopback ones. A lockfile is
//! written by another process; one naming `http://example.com/mcp` must not
//! make a reader resolve a name or open a connection off this machine.

/// The largest request body a devtools session reads (rmcp's own default): tool
/// arguments are a selector, some text, a timeout, so 4 MiB is generous and still
/// bounds a session's memory. Sessions refuse a larger one (HTTP 413); mur bounds
/// what it reads from files for one request by it, and says it when refused.
pub const MAX_REQUEST_BYTES: usize = 4 << 20;

/// The URL parser of every reader of an endpoint (WHATWG rules, reqwest's). The dialer,
/// mur-http (`crates/http/src/send.rs`), reads the URL again with `http::Uri` and dials
/// only an IP literal or `localhost`: a host this parser rewrites into a loopback one
/// (`http://2130706433:45001/mcp` is `127.0.0.1`) passes the check and is then refused
/// there ("mur looks up no host names"). Two readings, each holding to loopback: what is
/// sent anywhere is what both read as loopback.
pub use url::{Host, Url};

/// Checks that `endpoint` is an `http://` URL whose host is a loopback
/// literal (127.0.0.0/8, `::1`) or `localhost`. Pure: no name is resolved.
///
/// `Err` says why, in a form that fits after the endpoint in a message.
pub fn check_loopback(endpoint: &str) -> Result<(), String> {
    let url = reqwest::Url::parse(endpoint).map_err(|err| format!("is not a URL ({err})"))?;
    if url.scheme() != "http" {
        return Err(format!(
            "uses `{}:`; devtools endpoints are plain `http:` on loopback",
            url.scheme()
        ));
    }
    let loopback = match url.host() {
        Some(url::Host::Ipv4(ip)) => ip.is_loopback(),
        Some(url::Host::Ipv6(ip)) => ip.is_loopback(),
        // The URL parser lowercases names, so `LOCALHOST` arrives as `localhost`.
        Some(url::Host::Domain(name)) => name == "localhost",
        None => false,
    };
    if loopback {
        Ok(())
    } else {
        Err("is not a loopback address (only 127.0.0.0/8, ::1 and localhost are contacted)".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_literals_and_localhost_pass() {
        for ok in [
            "http://127.0.0.1:54931/mcp",
            "http://127.8.9.10:1/mcp",
            "http://[::1]:8080/mcp",
            "http://localhost:3000/mcp",
            "http://LOCALHOST:3000/mcp",
        ] {
            assert_eq!(check_loopback(ok), Ok(()), "{ok}");
        }
    }

    #[test]
    fn anything_that_could_leave_the_machine_is_refused() {
        for bad in [
            "http://10.255.255.1:80/mcp",
            "http://example.com/mcp",
            "http://localhost.example.com/mcp",
            "http://127.0.0.1.nip.io/mcp",
            "http://[::ffff:10.0.0.1]/mcp",
            "http://0.0.0.0:1/mcp",
            "https://127.0.0.1/mcp",
            "file:///etc/passwd",
            "stdio",
        ] {
            assert!(check_loopback(bad).is_err(), "{bad}");
        }
    }
}
