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
/// literal (127.0.0.0/8, `::1`) or `localhost`, written as the dialer reads it
/// ([`written_otherwise`]). Pure: no name is resolved.
///
/// `Err` says why, in a form that fits after the endpoint in a message.
pub fn check_loopback(endpoint: &str) -> Result<(), String> {
    // Parsed once, here: discovery checks every lockfile's endpoint on every call.
    let url = Url::parse(endpoint).map_err(|err| format!("is not a URL ({err})"))?;
    if url.scheme() != "http" {
        return Err(format!(
            "uses `{}:`; devtools endpoints are plain `http:` on loopback",
            url.scheme()
        ));
    }
    // Loopback, but not as the dialer reads it: refused here, where it is checked, with
    // what it is (`127.1` passed, and was then "could not connect"; `localhost.` was
    // "not a loopback address").
    if let Some(otherwise) = written_otherwise_of(endpoint, &url) {
        return Err(otherwise.to_string());
    }
    let loopback = match url.host() {
        Some(Host::Ipv4(ip)) => ip.is_loopback(),
        Some(Host::Ipv6(ip)) => ip.is_loopback(),
        // The URL parser lowercases names, so `LOCALHOST` arrives as `localhost`.
        Some(Host::Domain(name)) => name == "localhost",
        None => false,
    };
    if loopback {
        Ok(())
    } else {
        Err("is not a loopback address (only 127.0.0.0/8, ::1 and localhost are contacted)".into())
    }
}

/// A loopback endpoint whose host is written in a form mur does not contact: the
/// dialer (mur-http) takes a host only as `localhost` or an IP address written out, and
/// the loopback check only 127.0.0.0/8, `::1` and `localhost`. Said as "`ENDPOINT`
/// writes its loopback host as `127.1`, which mur does not dial: …" (its [`Display`]
/// follows the endpoint), for `--endpoint` and a lockfile's `endpoint` alike.
///
/// [`Display`]: std::fmt::Display
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WrittenOtherwise {
    /// The host as written: `127.1`, `2130706433`, `0x7f000001`, `127.0.0.1.`,
    /// `localhost.`, `[::ffff:127.0.0.1]`.
    pub written: String,
    /// The endpoint with the address it stands for written out
    /// (`http://127.0.0.1:PORT/mcp`): the one to write.
    pub meant: String,
    /// Why mur does not take it as written.
    why: &'static str,
}

impl std::fmt::Display for WrittenOtherwise {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "writes its loopback host as `{}`, {}",
            self.written, self.why
        )
    }
}

/// Whether `endpoint` (an `http:` URL) names loopback with a host written in a form mur
/// does not contact ([`WrittenOtherwise`]): an IPv4 loopback address the URL parser
/// (WHATWG's) reads but the dialer does not (`127.1`, one number, hex, a trailing dot);
/// `localhost.` (written from the root, a name the dialer would look up); or an IPv4
/// loopback address mapped into IPv6 (`[::ffff:127.0.0.1]`).
pub fn written_otherwise(endpoint: &str) -> Option<WrittenOtherwise> {
    written_otherwise_of(endpoint, &Url::parse(endpoint).ok()?)
}

/// [`written_otherwise`] of `endpoint` parsed as `url`, for a caller that has parsed it
/// already ([`check_loopback`]). The dialer's own reading of the endpoint (the host as
/// typed) is made only for a host that may be written otherwise.
fn written_otherwise_of(endpoint: &str, url: &Url) -> Option<WrittenOtherwise> {
    if url.scheme() != "http" {
        return None;
    }
    // As typed (`[::ffff:127.0.0.1]`, `127.1`), not as the parser writes it back
    // (`[::ffff:7f00:1]`, `127.0.0.1`).
    let typed = || {
        mur_http::read_url(endpoint)
            .ok()
            .and_then(|uri| uri.host().map(str::to_owned))
    };
    let (standing, why, typed) = match url.host()? {
        Host::Domain("localhost.") => (
            Some("localhost".to_owned()),
            "which mur does not dial: it looks up no host names, and takes `localhost` only \
             as it is",
            typed(),
        ),
        Host::Ipv6(ip) => match ip.to_ipv4_mapped() {
            Some(v4) if v4.is_loopback() => (
                Some(v4.to_string()),
                "an IPv4 address mapped into IPv6, which mur does not take for loopback: only \
                 127.0.0.0/8, ::1 and localhost are contacted",
                typed(),
            ),
            _ => return None,
        },
        Host::Ipv4(ip) if ip.is_loopback() => {
            let typed = typed();
            let bare = typed.as_deref()?;
            let bare = bare.trim_start_matches('[').trim_end_matches(']');
            if bare.parse::<std::net::IpAddr>().is_ok() {
                return None;
            }
            (
                None,
                "which mur does not dial: it looks up no host names, and reads an address \
                 only written out in full",
                typed,
            )
        }
        _ => return None,
    };
    let written = typed.or_else(|| url.host_str().map(str::to_owned))?;
    let mut meant = url.clone();
    if let Some(standing) = standing {
        meant.set_host(Some(&standing)).ok()?;
    }
    Some(WrittenOtherwise {
        written,
        meant: meant.to_string(),
        why,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Loopback written in a form mur does not contact is refused as that, naming the
    /// host as written (`127.1` passed the check, and the dialer then refused it as a
    /// name; `localhost.` was "not a loopback address"), with the address to write.
    #[test]
    fn loopback_written_otherwise_is_refused_as_such() {
        for (endpoint, written, meant) in [
            ("http://127.1:9/mcp", "127.1", "http://127.0.0.1:9/mcp"),
            (
                "http://2130706433:9/mcp",
                "2130706433",
                "http://127.0.0.1:9/mcp",
            ),
            (
                "http://0x7f000001:9/mcp",
                "0x7f000001",
                "http://127.0.0.1:9/mcp",
            ),
            (
                "http://127.0.0.1.:9/mcp",
                "127.0.0.1.",
                "http://127.0.0.1:9/mcp",
            ),
            (
                "http://localhost.:9/mcp",
                "localhost.",
                "http://localhost:9/mcp",
            ),
            (
                "http://[::ffff:127.0.0.1]:9/mcp",
                "[::ffff:127.0.0.1]",
                "http://127.0.0.1:9/mcp",
            ),
        ] {
            let otherwise = written_otherwise(endpoint).expect(endpoint);
            assert_eq!(
                (otherwise.written.as_str(), otherwise.meant.as_str()),
                (written, meant)
            );
            let refused = check_loopback(endpoint).expect_err(endpoint);
            assert!(
                refused.starts_with(&format!("writes its loopback host as `{written}`, ")),
                "{refused}"
            );
        }
        for written_out in [
            "http://127.0.0.1:9/mcp",
            "http://[::1]:9/mcp",
            "http://localhost:9/mcp",
            "http://example.com/mcp",
            "http://[::ffff:10.0.0.1]/mcp",
        ] {
            assert_eq!(written_otherwise(written_out), None, "{written_out}");
        }
    }

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
