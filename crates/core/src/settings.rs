//! Validated settings: where the session comes from, how long a call may
//! take, how big an answer may be, how output looks. The binary builds them
//! from its command line once; libraries take them as they are.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

/// Where the endpoint comes from, in the seed's precedence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Source {
    /// `--endpoint URL`: used as-is, never probed.
    Endpoint(String),
    /// Lockfile discovery (the default).
    Lockfiles,
    /// Lockfile discovery, then a loopback port scan when it finds nothing.
    Auto(PortRange),
}

/// Validated host options.
#[derive(Debug, Clone)]
pub struct Settings {
    pub source: Source,
    pub project: Option<PathBuf>,
    pub timeout: Duration,
    /// Whether `--timeout` was typed (else `timeout` is its default): a bound typed for
    /// the host a verb's own `--timeout` only lengthens ([`Settings::verb_timeout`]), and
    /// only a typed one bounds each request `proxy` relays.
    pub timeout_given: bool,
    /// Cap on one HTTP response body, in bytes (`--max-response`).
    pub max_response: u64,
    pub pretty: bool,
    pub verbose: bool,
    /// `-q`: no progress on stderr.
    pub quiet: bool,
    /// `--answer KEY=VALUE`, in the order given: answers to the server's
    /// questions, one field of the requested schema each.
    pub answers: Vec<(String, String)>,
    /// `--protocol REVISION`: speak this MCP revision only (a revision before
    /// 2026-07-28 goes straight to the `initialize` session form).
    pub protocol: Option<String>,
    /// `--refresh`: the session's tool list is read afresh, not from the cache.
    pub refresh: bool,
    /// The words after `mur devtools` as typed (host options typed before `devtools`
    /// moved after it), which an error among several sessions names again with the
    /// `--project` of each, to paste; none where that line is no command to run again.
    pub command_line: Vec<String>,
}

impl Settings {
    /// The settings of a program's own call to `endpoint` (not a user's command line):
    /// quiet, no question answered, no command to name again, its `timeout` given as a
    /// typed one is. The harness's checker and the client's tests call a session this
    /// way; one constructor, so that a field added to `Settings` is not written into each
    /// of them again.
    pub fn quiet_call(endpoint: &str, timeout: Duration, max_response: u64) -> Self {
        Settings {
            source: Source::Endpoint(endpoint.to_owned()),
            project: None,
            timeout,
            timeout_given: true,
            max_response,
            pretty: false,
            verbose: false,
            quiet: true,
            answers: Vec::new(),
            protocol: None,
            refresh: false,
            command_line: Vec::new(),
        }
    }

    /// `mur devtools` with the options that chose the session as typed
    /// (`--project P`, `--endpoint URL`, `--auto…`): the start of a command a hint
    /// offers, which pasted reaches the same session, also among several.
    pub fn devtools_command(&self) -> String {
        let mut words = vec!["mur".to_owned(), "devtools".to_owned()];
        match &self.source {
            Source::Endpoint(url) => words.extend(["--endpoint".to_owned(), url.clone()]),
            Source::Lockfiles => {}
            Source::Auto(PortRange::FULL) => words.push("--auto-full".to_owned()),
            Source::Auto(range) if *range == PortRange::ephemeral() => {
                words.push("--auto".to_owned());
            }
            Source::Auto(range) => words.extend([
                "--auto-range".to_owned(),
                format!("{}-{}", range.first, range.last),
            ]),
        }
        if let Some(project) = &self.project {
            words.extend(["--project".to_owned(), project.display().to_string()]);
        }
        words
            .iter()
            .map(|word| crate::words::shell_word(word))
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// A verb's own `--timeout MS` (`wait --timeout 8000`, `click … --timeout 1000`)
    /// bounds the call, longer or shorter than the host's default; a bound typed
    /// for the host ([`Settings::timeout_given`]: `mur devtools --timeout MS verb`) it
    /// only lengthens. mur waits a little past the verb's bound (half as long again, at
    /// most 2 s), so that a server's answer to its own expired wait arrives first.
    pub fn verb_timeout(&mut self, verb_ms: Option<u32>) {
        const GRACE: Duration = Duration::from_secs(2);
        if let Some(ms) = verb_ms {
            let asked = Duration::from_millis(u64::from(ms));
            let wanted = asked + GRACE.min(asked / 2);
            self.timeout = if self.timeout_given {
                self.timeout.max(wanted)
            } else {
                wanted
            };
        }
    }
}

/// An inclusive range of TCP ports for `--auto`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PortRange {
    pub first: u16,
    pub last: u16,
}

impl PortRange {
    pub const FULL: Self = Self {
        first: 1024,
        last: 65535,
    };

    /// The range the OS hands out for port 0, which is where a session that
    /// binds `127.0.0.1:0` lands: Linux's `ip_local_port_range` (32768-60999 by
    /// default), else the IANA dynamic range that Windows and macOS use.
    pub fn ephemeral() -> Self {
        std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
            .ok()
            .and_then(|text| {
                let mut parts = text.split_whitespace().map(u16::from_str);
                Some(Self {
                    first: parts.next()?.ok()?,
                    last: parts.next()?.ok()?,
                })
            })
            .filter(|r| r.first <= r.last)
            .unwrap_or(Self {
                first: 49152,
                last: 65535,
            })
    }

    pub fn ports(self) -> impl Iterator<Item = u16> {
        self.first..=self.last
    }
}

impl FromStr for PortRange {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        // `-5` (a negative number, taken as the value) splits into an empty low port:
        // "`` is no port" said nothing of what was typed. The text itself is not
        // repeated: every caller (clap, the host options after a verb) says
        // "invalid value `-5` for `--auto-range <LO-HI>`:" before this.
        let expected =
            || "expected `LO-HI`, two ports from 1 to 65535 (e.g. `40000-41000`)".to_owned();
        let (a, b) = s
            .split_once('-')
            .filter(|(a, b)| !a.trim().is_empty() && !b.trim().is_empty())
            .ok_or_else(expected)?;
        let port = |p: &str| {
            p.trim()
                .parse::<u16>()
                .map_err(|_| format!("`{p}` is no port: a port is a whole number from 1 to 65535"))
        };
        let (first, last) = (port(a)?, port(b)?);
        if first == 0 || first > last {
            return Err(format!("`{s}` is not a range of ports from low to high"));
        }
        Ok(Self { first, last })
    }
}

/// `--timeout MS`, wherever it is typed: a whole number of milliseconds, from 1 to
/// [`MAX_TIMEOUT_MS`]. A bound of 0 ms could only fail, and would fail as a timeout (exit
/// 2) when the mistake is the command's (exit 1). Its callers name the text
/// ("invalid value `0` for `--timeout <MS>`:"), so a message does not begin with it.
pub fn timeout_ms(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let digits = trimmed.strip_prefix('+').unwrap_or(trimmed);
    let digits = !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit());
    match trimmed.parse::<u64>() {
        Ok(0) => Err("the bound must be at least 1 ms".to_owned()),
        Ok(ms) if ms <= MAX_TIMEOUT_MS => Ok(ms),
        // Digits past the most, whether a u64 holds them or not.
        _ if digits => Err(format!(
            "the bound is at most {MAX_TIMEOUT_MS} ms (about 49 days)"
        )),
        _ => Err(format!(
            "`{text}` is not a whole number of milliseconds (e.g. `5000`)"
        )),
    }
}

/// The longest `--timeout`, before a verb and after its name alike: a verb's own
/// `--timeout` reaches the host as the verb interface's `timeout-ms`, a `u32` (wit/), and
/// the kits refuse more (``is at most 4294967295 ms``); the host's own, held as a `u64`, took
/// `--timeout 99999999999` before the verb where `wait --timeout 99999999999` was refused.
/// 49 days cuts no call short.
pub const MAX_TIMEOUT_MS: u64 = u32::MAX as u64;

/// A size in bytes, as typed for `--max-response`: a plain number, or one
/// with a `K`, `M` or `G` suffix counted in powers of 1024 (`64M` is 64 MiB;
/// `KiB`/`MiB`/`GiB` and lowercase are accepted too). Zero is refused: it
/// would refuse every answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ByteSize(pub u64);

impl ByteSize {
    /// Default cap on one HTTP response body (64 MiB), JSON or event stream.
    ///
    /// The largest answers a devtools session sends are screenshots (a 4K PNG,
    /// Base64-encoded, is well under 40 MiB) and the full tree of a big window; a
    /// body past this is a broken or hostile server, and reading it would cost mur
    /// memory in proportion. `--max-response` raises it.
    pub const DEFAULT_MAX_RESPONSE: ByteSize = ByteSize(64 * 1024 * 1024);
}

impl Default for ByteSize {
    fn default() -> Self {
        Self::DEFAULT_MAX_RESPONSE
    }
}

impl FromStr for ByteSize {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let text = s.trim();
        let digits = text
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len());
        let (number, unit) = text.split_at(digits);
        let shift = match unit.trim().to_ascii_lowercase().as_str() {
            "" | "b" => 0,
            "k" | "kib" => 10,
            "m" | "mib" => 20,
            "g" | "gib" => 30,
            _ => {
                return Err(
                    "expected a number of bytes, optionally with a K, M or G suffix (e.g. `128M`)"
                        .to_owned(),
                );
            }
        };
        let number: u64 = number
            .parse()
            .map_err(|_| "expected a number of bytes, e.g. `128M`".to_owned())?;
        let bytes = number
            .checked_mul(1 << shift)
            .ok_or_else(|| format!("`{s}` is too large"))?;
        if bytes == 0 {
            return Err("the limit must be at least one byte".to_owned());
        }
        Ok(Self(bytes))
    }
}

impl fmt::Display for ByteSize {
    /// The shortest exact form: `64M`, `1536K`, `1000`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (suffix, shift) in [("G", 30), ("M", 20), ("K", 10)] {
            let unit = 1u64 << shift;
            if self.0 >= unit && self.0.is_multiple_of(unit) {
                return write!(f, "{}{suffix}", self.0 / unit);
            }
        }
        write!(f, "{}", self.0)
    }
}

/// `bytes` for people: `64 MiB`, `1.5 MiB`, `900 bytes`, `1 byte`.
pub fn human_bytes(bytes: u64) -> String {
    for (suffix, shift) in [("GiB", 30), ("MiB", 20), ("KiB", 10)] {
        let unit = 1u64 << shift;
        if bytes >= unit {
            return if bytes.is_multiple_of(unit) {
                format!("{} {suffix}", bytes / unit)
            } else {
                let value = bytes as f64 / unit as f64;
                format!("{value:.1} {suffix}")
            };
        }
    }
    match bytes {
        1 => "1 byte".to_owned(),
        _ => format!("{bytes} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn port_ranges_parse_and_reject_nonsense() {
        assert_eq!(
            "40000-40010".parse::<PortRange>(),
            Ok(PortRange {
                first: 40000,
                last: 40010
            })
        );
        assert!("5-1".parse::<PortRange>().is_err());
        // Said in the words of ports, not of Rust's integer parsing.
        assert_eq!(
            "90000-5".parse::<PortRange>(),
            Err("`90000` is no port: a port is a whole number from 1 to 65535".to_owned())
        );
        // No low port, no high one, no dash (`--auto-range -5` takes `-5` as its value).
        for typed in ["-5", "80", "40000-", " - "] {
            assert_eq!(
                typed.parse::<PortRange>(),
                Err("expected `LO-HI`, two ports from 1 to 65535 (e.g. `40000-41000`)".to_owned())
            );
        }
        let eph = PortRange::ephemeral();
        assert!(eph.first >= 1024 && eph.first <= eph.last);
    }

    #[test]
    fn a_timeout_is_a_positive_whole_number_of_milliseconds() {
        assert_eq!(timeout_ms("5000"), Ok(5000));
        assert_eq!(timeout_ms("1"), Ok(1));
        assert_eq!(
            timeout_ms("0"),
            Err("the bound must be at least 1 ms".to_owned())
        );
        for bad in ["-1", "1.5", "5s", "", "+", "1_000"] {
            assert_eq!(
                timeout_ms(bad),
                Err(format!(
                    "`{bad}` is not a whole number of milliseconds (e.g. `5000`)"
                )),
            );
        }
        // At most what a verb's own `--timeout` can be: past a u64 too.
        assert_eq!(timeout_ms("4294967295"), Ok(4_294_967_295));
        assert_eq!(timeout_ms(" +4294967295 "), Ok(4_294_967_295));
        for long in ["4294967296", "99999999999", "99999999999999999999"] {
            assert_eq!(
                timeout_ms(long),
                Err("the bound is at most 4294967295 ms (about 49 days)".to_owned()),
                "{long}"
            );
        }
    }

    #[test]
    fn byte_sizes_take_binary_suffixes() {
        let parse = |s: &str| s.parse::<ByteSize>().map(|b| b.0);
        assert_eq!(parse("1000"), Ok(1000));
        assert_eq!(parse("64M"), Ok(64 << 20));
        assert_eq!(parse("64m"), Ok(64 << 20));
        assert_eq!(parse("2K"), Ok(2048));
        assert_eq!(parse("1GiB"), Ok(1 << 30));
        assert_eq!(parse("3 MiB"), Ok(3 << 20));
        for bad in ["", "M", "0", "0K", "1.5M", "12T", "-1", "99999999999999G"] {
            assert!(parse(bad).is_err(), "{bad:?} accepted");
        }
        // The caller names the text ("invalid value `-5K` for `--max-response <BYTES>`:").
        let suffix = "expected a number of bytes, optionally with a K, M or G suffix (e.g. `128M`)";
        assert_eq!(parse("-5K"), Err(suffix.to_owned()));
        assert_eq!(
            parse("M"),
            Err("expected a number of bytes, e.g. `128M`".to_owned())
        );
        assert_eq!(
            parse("0K"),
            Err("the limit must be at least one byte".to_owned())
        );
        assert_eq!(ByteSize(64 << 20).to_string(), "64M");
        assert_eq!(ByteSize(1536 << 10).to_string(), "1536K");
        assert_eq!(ByteSize(1000).to_string(), "1000");
        assert_eq!(ByteSize::default(), ByteSize(64 << 20));
        assert_eq!(human_bytes(64 << 20), "64 MiB");
        assert_eq!(human_bytes(1536 << 10), "1.5 MiB");
        assert_eq!(human_bytes(900), "900 bytes");
        // A limit of one byte (`--max-response 1`) was "1 bytes".
        assert_eq!(human_bytes(1), "1 byte");
    }
}
