//! Record times and windows: UTC RFC 3339 with milliseconds, which sort as
//! strings, so a window is a string comparison, never a date parsed back. A
//! record's time is checked for that shape and put in mur's own form as it is read
//! ([`record_time`]): any other shape would fall in every window, or none, and
//! another length of fraction would sort out of time order.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use time::{Date, Month, OffsetDateTime};

pub(crate) use mur_lockfile::now_rfc3339_millis as now_millis;
use mur_lockfile::rfc3339_millis as format_millis;

/// `text`, a UTC RFC 3339 time of a real date with any fraction of a second or
/// none, in mur's own form: milliseconds, cut as mur cuts its own (`…:00Z` is
/// `…:00.000Z`, `…:00.123456Z` is `…:00.123Z`). Only in that form does a time
/// compare as a string with another and with a window's start: `…:00Z` would sort
/// after `…:00.500Z` (`Z` after `.`). `None` for any other text, which would be in
/// or out of every window (`zzzz` sorts after all of them): no record's time.
pub fn record_time(text: &str) -> Option<String> {
    let (whole, fraction) = text
        .strip_suffix('Z')
        .map(|t| t.split_at(t.find('.').unwrap_or(t.len())))?;
    let digits = fraction.strip_prefix('.').unwrap_or(fraction);
    let fraction_ok =
        fraction.is_empty() || (!digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()));
    if !(fraction_ok && is_date_and_time(whole)) {
        return None;
    }
    let millis: String = digits
        .chars()
        .chain(std::iter::repeat('0'))
        .take(3)
        .collect();
    Some(format!("{whole}.{millis}Z"))
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

/// The earliest time a record may bear, in mur's form: 2020-01-01, years before mur
/// or the protocol it measures (MCP dates from late 2024), so no call of mur's was
/// ever made before it. An earlier time is a clock not yet set (the epoch of a board
/// or VM before NTP, a year 0000): it would date the log's start before every window
/// and pass for a log that reaches back past it, so that every unused verb is judged
/// so. Such a record is no record, as one from the far future.
pub const EARLIEST_RECORD_TIME: &str = "2020-01-01T00:00:00.000Z";

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

    /// `duration` before `end`, a time in mur's form (`record_time`): a window that
    /// ends there (`--until`).
    pub fn before(end: &str, duration: Duration) -> Self {
        let start = instant(end)
            .zip(time::Duration::try_from(duration).ok())
            .and_then(|(end, duration)| end.checked_sub(duration));
        Self(format_millis(start.unwrap_or(OffsetDateTime::UNIX_EPOCH)))
    }

    pub fn admits(&self, time: &str) -> bool {
        time >= self.0.as_str()
    }

    /// The window begun here lengthened back by the time recording was `off` in it
    /// (ended periods, `from` to `to`, in mur's form; they do not overlap), so that it
    /// holds as much recorded time as asked for: each period is passed over, and the
    /// time it took is found again before it. A period begun before the window counts
    /// its part inside it; one the lengthening reaches counts whole.
    pub(crate) fn lengthened(&self, off: &[(&str, &str)]) -> Self {
        let Some(mut start) = instant(&self.0) else {
            return self.clone();
        };
        let mut periods: Vec<(OffsetDateTime, OffsetDateTime)> = (off.iter())
            .filter_map(|(from, to)| Some((instant(from)?, instant(to)?)))
            .filter(|(from, to)| from < to)
            .collect();
        periods.sort_by_key(|(from, _)| std::cmp::Reverse(*from));
        // The off time inside the window: owed, to be found before it.
        let mut owed: time::Duration = (periods.iter())
            .filter(|(_, to)| *to > start)
            .map(|(from, to)| *to - (*from).max(start))
            .sum();
        for &(from, to) in &periods {
            if from >= start {
                continue;
            }
            let on = start - to.min(start);
            if on >= owed {
                break;
            }
            owed -= on;
            start = from;
        }
        Self(format_millis(start - owed))
    }
}

/// Where a window ends (`--until`): at a time, in mur's form, or at the newest record
/// read (`last`), known once the logs are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Until {
    At(String),
    Last,
}

impl Until {
    /// `last`, or a UTC RFC 3339 time of a real date (`record_time`) no later than a
    /// record may bear ([`latest_record_time`]): no log holds a record of the time after
    /// that, so a window ending there would judge every verb unused for lack of calls no
    /// one could have made yet (`2030-…` for `2026-…` removed every verb).
    pub fn parse(text: &str) -> Result<Self, String> {
        if text == "last" {
            return Ok(Self::Last);
        }
        let at = record_time(text).ok_or_else(|| {
            format!(
                "`{text}` is no time: give a UTC RFC 3339 one (`2026-12-02T06:42:22Z`) \
                 or `last` (the newest record read)"
            )
        })?;
        let latest = latest_record_time();
        if at.as_str() > latest {
            return Err(format!(
                "`{text}` is in the future, where no call is recorded yet: give a time \
                 no later than {latest} (now, and a day for the clocks of other machines) \
                 or `last`"
            ));
        }
        Ok(Self::At(at))
    }

    /// Where a report's windows end, in mur's form (`None`: now): at `given` (`--until`);
    /// else, when the logs named with `--server-log` are read alone (`only_named`,
    /// `--only-named`), at their last record, as `--until last` — a study's logs, read
    /// days later, end before now, and a window ended now would be one none of them
    /// recorded through, judging no verb (review 516 #5). `last` is the newest record
    /// of the logs named (`newest_named`), else the newest of every record read (`times`).
    pub fn window_end<'a>(
        given: Option<&Self>,
        only_named: bool,
        newest_named: Option<&str>,
        times: impl IntoIterator<Item = &'a str>,
    ) -> Option<String> {
        match given.or(only_named.then_some(&Self::Last))? {
            Self::At(time) => Some(time.clone()),
            Self::Last => newest_named
                .or_else(|| times.into_iter().max())
                .map(str::to_owned),
        }
    }
}

/// The instant of `time`, in mur's form (`…T06:42:22.000Z`; a leap second is the one
/// before it).
fn instant(time: &str) -> Option<OffsetDateTime> {
    let field = |at: usize, len: usize| time.get(at..at + len)?.parse::<u16>().ok();
    let month = Month::try_from(u8::try_from(field(5, 2)?).ok()?).ok()?;
    let date = Date::from_calendar_date(i32::from(field(0, 4)?), month, field(8, 2)? as u8);
    let [hour, minute, second] = [field(11, 2)?, field(14, 2)?, field(17, 2)?.min(59)];
    let clock = time::Time::from_hms_milli(hour as u8, minute as u8, second as u8, field(20, 3)?);
    Some(time::PrimitiveDateTime::new(date.ok()?, clock.ok()?).assume_utc())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The windows end at `--until` when given; else, with `--only-named`, at the last
    /// record of the logs named (else of every record read), as `--until last`; else now.
    #[test]
    fn only_named_ends_the_windows_at_the_named_logs_last_record() {
        let at = Until::At("2026-01-02T00:00:00.000Z".to_owned());
        let times = ["2026-01-05T00:00:00.000Z", "2026-01-09T00:00:00.000Z"];
        let named = Some("2026-01-03T00:00:00.000Z");
        let end = |given, only_named, named| Until::window_end(given, only_named, named, times);
        // Not asked, not `--only-named`: now.
        assert_eq!(end(None, false, named), None);
        // `--only-named` alone: the named logs' last record, else the newest read.
        assert_eq!(end(None, true, named).as_deref(), named);
        assert_eq!(
            end(None, true, None).as_deref(),
            Some("2026-01-09T00:00:00.000Z")
        );
        assert_eq!(Until::window_end(None, true, None, []), None);
        // `--until` wins, with `--only-named` or without.
        for only_named in [true, false] {
            assert_eq!(
                end(Some(&at), only_named, named).as_deref(),
                Some("2026-01-02T00:00:00.000Z")
            );
            assert_eq!(end(Some(&Until::Last), only_named, named).as_deref(), named);
        }
    }

    /// A window that ends at `--until`: its start counts back from there, to the
    /// millisecond, across a month's end; `last` or a real UTC time, nothing else.
    #[test]
    fn a_window_can_end_at_a_time_not_now() {
        let day = Duration::from_secs(86_400);
        assert_eq!(
            Since::before("2026-12-01T06:42:22.123Z", day).0,
            "2026-11-30T06:42:22.123Z"
        );
        assert_eq!(
            Since::before("2026-12-02T06:42:22.000Z", Duration::from_secs(30)).0,
            "2026-12-02T06:41:52.000Z"
        );
        assert_eq!(Until::parse("last"), Ok(Until::Last));
        assert_eq!(
            Until::parse("2026-12-02T06:42:22Z"),
            Ok(Until::At("2026-12-02T06:42:22.000Z".to_owned()))
        );
        for text in ["yesterday", "2026-12-02", "2026-02-30T00:00:00Z", ""] {
            assert!(Until::parse(text).is_err(), "{text}");
        }
    }

    /// A window that ends where no record can be yet, past the day of slack a record may
    /// bear, is refused: it held no call of any verb. Within the slack, taken.
    #[test]
    fn a_window_cannot_end_past_the_latest_time_a_record_may_bear() {
        let future = "2999-01-01T00:00:00Z";
        let refused = Until::parse(future).expect_err("refused");
        assert!(
            refused.starts_with("`2999-01-01T00:00:00Z` is in the future, where no call is recorded yet: give a time no later than "),
            "{refused}"
        );
        let hour_ahead = OffsetDateTime::now_utc() + time::Duration::hours(1);
        let soon = format_millis(hour_ahead);
        assert_eq!(Until::parse(&soon), Ok(Until::At(soon.clone())));
    }

    #[test]
    fn only_a_utc_rfc_3339_time_is_a_records() {
        for time in [
            "2026-11-22T21:50:00.123Z",
            "2026-11-22T21:50:00Z",
            "2024-02-29T23:59:60.5Z",
            &now_millis(),
        ] {
            assert!(record_time(time).is_some(), "{time}");
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
            assert_eq!(record_time(time), None, "{time}");
        }
    }

    /// Every fraction a record may bear is put in mur's form, so that string order is
    /// time order again: `…:00Z` before `…:00.500Z`, not after it.
    #[test]
    fn a_records_time_is_read_in_murs_form() {
        let read = |time: &str| record_time(time).unwrap_or_default();
        for (time, form) in [
            ("2026-11-22T21:50:00Z", "2026-11-22T21:50:00.000Z"),
            ("2026-11-22T21:50:00.5Z", "2026-11-22T21:50:00.500Z"),
            ("2026-11-22T21:50:00.12Z", "2026-11-22T21:50:00.120Z"),
            ("2026-11-22T21:50:00.123Z", "2026-11-22T21:50:00.123Z"),
            ("2026-11-22T21:50:00.123999Z", "2026-11-22T21:50:00.123Z"),
            ("2024-02-29T23:59:60.5Z", "2024-02-29T23:59:60.500Z"),
        ] {
            assert_eq!(read(time), form, "{time}");
        }
        assert_eq!(record_time("2026-11-22T21:50:00.Z"), None);
        let mut times = ["2026-11-22T21:50:00.500Z", "2026-11-22T21:50:00Z"].map(read);
        times.sort();
        assert_eq!(
            times,
            ["2026-11-22T21:50:00.000Z", "2026-11-22T21:50:00.500Z"]
        );
        let edge = Since("2026-11-22T21:50:00.999Z".to_owned());
        assert!(!edge.admits(&read("2026-11-22T21:50:00Z")));
    }

    /// A window recording was off in is lengthened back by as long: a second off inside
    /// it, a second earlier; a period it then reaches counts whole, one begun before it
    /// its part inside; none in it, none.
    #[test]
    fn a_window_is_lengthened_by_the_time_recording_was_off_in_it() {
        let since = Since("2026-01-10T00:00:00.000Z".to_owned());
        let second = ("2026-01-20T00:00:00.000Z", "2026-01-20T00:00:01.000Z");
        assert_eq!(since.lengthened(&[second]).0, "2026-01-09T23:59:59.000Z");
        // A day off just before the window's new start is passed over whole.
        let day = ("2026-01-09T00:00:00.000Z", "2026-01-09T23:59:59.500Z");
        assert_eq!(
            since.lengthened(&[day, second]).0,
            "2026-01-08T23:59:59.500Z"
        );
        // Off across the window's start: its part inside it, an hour.
        let across = ("2026-01-09T23:00:00.000Z", "2026-01-10T01:00:00.000Z");
        assert_eq!(since.lengthened(&[across]).0, "2026-01-09T22:00:00.000Z");
        let before = ("2026-01-01T00:00:00.000Z", "2026-01-02T00:00:00.000Z");
        assert_eq!(since.lengthened(&[before]), since);
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
