//! Record times and windows: UTC RFC 3339 with milliseconds, which sort as
//! strings, so a window is a string comparison and no record is ever parsed
//! back into a date.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use time::OffsetDateTime;

/// Now, e.g. `2026-11-22T21:50:00.123Z`.
pub fn now_millis() -> String {
    format_millis(OffsetDateTime::now_utc())
}

fn format_millis(at: OffsetDateTime) -> String {
    // Field by field rather than through a `time` format description, which
    // walks its component list twice (to size the output, then to write it):
    // cold code worth ~10 µs of every call that records its usage.
    let (date, time) = (at.date(), at.time());
    format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:03}Z",
        date.year(),
        u8::from(date.month()),
        date.day(),
        time.hour(),
        time.minute(),
        time.second(),
        time.millisecond()
    )
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
    fn a_time_is_utc_rfc_3339_with_milliseconds_cut_not_rounded() {
        let at = |nanos: i128| {
            format_millis(OffsetDateTime::from_unix_timestamp_nanos(nanos).expect("in range"))
        };
        assert_eq!(at(1_790_000_000_123_456_789), "2026-09-21T14:13:20.123Z");
        assert_eq!(at(946_684_799_999_999_999), "1999-12-31T23:59:59.999Z");
        assert_eq!(at(0), "1970-01-01T00:00:00.000Z");
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
