//! Record times and windows: UTC RFC 3339 with milliseconds, which sort as
//! strings, so a window is a string comparison and no record is ever parsed
//! back into a date.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use time::OffsetDateTime;
use time::macros::format_description;

/// Now, e.g. `2026-11-22T21:50:00.123Z`.
pub fn now_millis() -> String {
    format_millis(OffsetDateTime::now_utc())
}

fn format_millis(at: OffsetDateTime) -> String {
    let format =
        format_description!("[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z");
    at.format(&format)
        .unwrap_or_else(|_| at.unix_timestamp().to_string())
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
    fn times_sort_as_strings_and_a_window_admits_what_is_newer() {
        let now = now_millis();
        assert_eq!(now.len(), "2026-11-22T21:50:00.123Z".len(), "{now}");
        let hour = Since::ago(Duration::from_secs(3600));
        assert!(hour.admits(&now));
        assert!(!hour.admits("2020-01-01T00:00:00.000Z"));
    }
}
