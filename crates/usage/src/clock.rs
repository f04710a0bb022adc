//! Record times and windows: UTC RFC 3339 with milliseconds, which sort as
//! strings, so a window is a string comparison, never a date parsed back. A
//! record's time is only checked for that shape ([`is_record_time`]): any other
//! would fall in every window, or none.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use time::{Date, Month, OffsetDateTime};

pub use mur_lockfile::now_rfc3339_millis as now_millis;
use mur_lockfile::rfc3339_millis as format_millis;

/// Whether `text` is a UTC RFC 3339 time (`2026-11-22T21:50:00.123Z`, any
/// fraction of a second or none) of a real date: only such a time compares
/// as a string with a window's start. Any other would be in or out of every
/// window (`zzzz` sorts after all of them), so its record is not counted.
pub fn is_record_time(text: &str) -> bool {
    let Some((whole, fraction)) = text
        .strip_suffix('Z')
        .map(|t| t.split_at(t.find('.').unwrap_or(t.len())))
    else {
        return false;
    };
    let fraction_ok = fraction.is_empty()
        || (fraction.len() > 1 && fraction[1..].bytes().all(|b| b.is_ascii_digit()));
    fraction_ok && is_date_and_time(whole)
}

/// `2026-11-22T21:50:00`, each field in its range (a leap second allowed).
fn is_date_and_time(text: &str) -> bool {
    const SHAPE: &[u8] = b"0000-00-00T00:00:00";
    let shaped = text.len() == SHAPE.len()
        && text.bytes().zip(SHAPE).all(|(c, &s)| match s {
            b'0' => c.is_ascii_digit(),
            _ => c == s,
        });
    if !shaped {
        return false;
    }
    let field = |at: usize, len: usize| text[at..at + len].parse::<u16>().unwrap_or(u16::MAX);
    let date = Month::try_from(field(5, 2) as u8).and_then(|month| {
        Date::from_calendar_date(i32::from(field(0, 4)), month, field(8, 2) as u8)
    });
    date.is_ok() && field(11, 2) < 24 && field(14, 2) < 60 && field(17, 2) <= 60
}

/// The latest time a record may bear: a day from now, the slack for the clocks of the
/// machines a log was gathered from. A record from further ahead (`9999-12-31T…`) would
/// be in every window that ends now, for ever: it is no record. Taken once a process.
pub fn latest_record_time() -> &'static str {
    static LATEST: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
        let ahead = OffsetDateTime::now_utc() + time::Duration::days(1);
        format_millis(ahead)
    });
    &LATEST
}

/// The start of a window that ends now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Since(pub String);

impl Since {
    /// `duration` before now.
    pub fn ago(duration: Duration) -> Self {
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        let start = now.saturating_sub(duration);
        let at = OffsetDateTime::from_unix_timestamp_nanos(start.as_nanos() as i128)
            .unwrap_or(OffsetDateTime::UNIX_EPOCH);
        Self(format_millis(at))
    }

    pub fn admits(&self, time: &str) -> bool {
        time >= self.0.as_str()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_utc_rfc_3339_time_is_a_records() {
        for time in [
            "2026-11-22T21:50:00.123Z",
            "2026-11-22T21:50:00Z",
            "2024-02-29T23:59:60.5Z",
            &now_millis(),
        ] {
            assert!(is_record_time(time), "{time}");
        }
        for time in [
            "zzzz",
            "",
            "9999-99-99",
            "2026-11-22",
            "2026-11-22T21:50:00.123+02:00",
            "2026-11-22T21:50:00.Z",
            "2026-11-22 21:50:00Z",
            "2025-02-29T10:00:00Z",
            "2026-13-01T10:00:00Z",
            "2026-11-22T24:00:00Z",
            "2026-11-22T21:50:00.1x3Z",
            "+026-11-22T21:50:00Z",
            "2026-11-22T21:50:00.123Z\u{1b}[2J",
        ] {
            assert!(!is_record_time(time), "{time}");
        }
    }

    #[test]
    fn times_sort_as_strings_and_a_window_admits_what_is_newer() {
        let now = now_millis();
        assert_eq!(now.len(), "2026-11-22T21:50:00.123Z".len(), "{now}");
        let hour = Since::ago(Duration::from_secs(3600));
        assert!(hour.admits(&now));
        assert!(!hour.admits("2020-01-01T00:00:00.000Z"));
    }
}
