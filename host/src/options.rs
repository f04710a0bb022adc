//! Host options turned into validated [`Settings`]: where the session comes
//! from, how long a call may take, how output looks. Also pulls host options
//! out of a plugin verb's argv, so the rest of `mur` never sees raw flags.

use std::path::PathBuf;
use std::str::FromStr;
use std::time::Duration;

use crate::cli::HostArgs;
use crate::error::{Error, Result};

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
    pub pretty: bool,
    pub verbose: bool,
}

impl Settings {
    pub fn from_args(args: &HostArgs) -> Self {
        let source = if let Some(url) = &args.endpoint {
            Source::Endpoint(url.clone())
        } else if let Some(range) = args.auto_range {
            Source::Auto(range)
        } else if args.auto_full {
            Source::Auto(PortRange::FULL)
        } else if args.auto {
            Source::Auto(PortRange::ephemeral())
        } else {
            Source::Lockfiles
        };
        Self {
            source,
            project: args.project.clone(),
            timeout: Duration::from_millis(args.timeout),
            pretty: args.pretty,
            verbose: args.verbose,
        }
    }

    /// Lets a verb ask for longer than the host timeout (`wait --timeout MS`).
    /// The host waits a little longer than the verb's own bound, so that the
    /// server's answer to an expired wait arrives before the host gives up.
    pub fn extend_timeout(&mut self, verb_ms: Option<u32>) {
        const GRACE: Duration = Duration::from_secs(2);
        if let Some(ms) = verb_ms {
            let wanted = Duration::from_millis(u64::from(ms)) + GRACE;
            self.timeout = self.timeout.max(wanted);
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
        let (a, b) = s
            .split_once('-')
            .ok_or("expected `LO-HI`, e.g. `40000-41000`")?;
        let port = |p: &str| p.trim().parse::<u16>().map_err(|e| format!("`{p}`: {e}"));
        let (first, last) = (port(a)?, port(b)?);
        if first == 0 || first > last {
            return Err(format!("`{s}` is not a range of ports from low to high"));
        }
        Ok(Self { first, last })
    }
}

/// Removes host options from a plugin verb's argv, applying them to `host`.
/// `--timeout` is left alone: after a verb's name it is the verb's. Nothing
/// after `--` is touched.
pub fn extract_host_options(argv: &[String], host: &mut HostArgs) -> Result<Vec<String>> {
    let mut rest = Vec::with_capacity(argv.len());
    let mut words = argv.iter();
    while let Some(word) = words.next() {
        if word == "--" {
            rest.push(word.clone());
            rest.extend(words.by_ref().cloned());
            break;
        }
        let (flag, inline) = match word.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_owned())),
            _ => (word.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String> {
            inline
                .clone()
                .or_else(|| words.next().cloned())
                .ok_or_else(|| Error::usage(format!("a value is required for `{name}`")))
        };
        match flag {
            "--endpoint" => host.endpoint = Some(value("--endpoint <URL>")?),
            "--project" => host.project = Some(PathBuf::from(value("--project <PATH>")?)),
            "--auto-range" => {
                let text = value("--auto-range <LO-HI>")?;
                host.auto_range =
                    Some(text.parse().map_err(|e| {
                        Error::usage(format!("invalid value for `--auto-range`: {e}"))
                    })?);
            }
            "--auto" if inline.is_none() => host.auto = true,
            "--auto-full" if inline.is_none() => host.auto_full = true,
            "--pretty" if inline.is_none() => host.pretty = true,
            "--verbose" | "-v" if inline.is_none() => host.verbose = true,
            _ => rest.push(word.clone()),
        }
    }
    Ok(rest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn host_options_are_taken_out_of_verb_arguments() {
        let mut host = HostArgs::default();
        let argv = strings(&[
            "#x",
            "--pretty",
            "--endpoint=http://127.0.0.1:9/mcp",
            "--timeout",
            "8000",
            "-v",
        ]);
        let rest = extract_host_options(&argv, &mut host).expect("valid");
        assert_eq!(rest, ["#x", "--timeout", "8000"]);
        assert!(host.pretty && host.verbose);
        assert_eq!(host.endpoint.as_deref(), Some("http://127.0.0.1:9/mcp"));
    }

    #[test]
    fn nothing_after_double_dash_is_taken() {
        let mut host = HostArgs::default();
        let rest =
            extract_host_options(&strings(&["a", "--", "--pretty"]), &mut host).expect("valid");
        assert_eq!(rest, ["a", "--", "--pretty"]);
        assert!(!host.pretty);
    }

    #[test]
    fn a_missing_value_is_a_usage_error() {
        let mut host = HostArgs::default();
        let err = extract_host_options(&strings(&["--project"]), &mut host).expect_err("no value");
        assert_eq!(err.exit_code(), 1);
    }

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
        assert!("80".parse::<PortRange>().is_err());
        let eph = PortRange::ephemeral();
        assert!(eph.first >= 1024 && eph.first <= eph.last);
    }

    #[test]
    fn a_verb_timeout_only_extends() {
        let mut s = Settings::from_args(&HostArgs {
            timeout: 10_000,
            ..HostArgs::default()
        });
        s.extend_timeout(Some(1000));
        assert_eq!(s.timeout, Duration::from_secs(10));
        s.extend_timeout(Some(30_000));
        assert_eq!(s.timeout, Duration::from_secs(32));
    }
}
