//! UTC RFC 3339 timestamps, the project's one writer of them: a lockfile's `startedAt` and
//! a `buildTag` in whole seconds (`2026-04-19T14:22:11Z`, as seed 000 writes them), a usage
//! record's time in milliseconds (`2026-11-22T21:50:00.123Z`, which sorts as a string).

use time::OffsetDateTime;

/// Now, in whole seconds: `2026-04-19T14:22:11Z`.
pub fn now_rfc3339() -> String {
    write(OffsetDateTime::now_utc(), false)
}

/// Now, in milliseconds: `2026-11-22T21:50:00.123Z`.
pub fn now_rfc3339_millis() -> String {
    rfc3339_millis(OffsetDateTime::now_utc())
}

/// `at` in milliseconds (cut, not rounded: a time never moves into the next second).
pub fn rfc3339_millis(at: OffsetDateTime) -> String {
    write(at, true)
}

fn write(at: OffsetDateTime, millis: bool) -> String {
    // UTC whatever offset `at` carries. Field by field rather than through a `time`
    // format description, which walks its component list twice (to size the output,
    // then to write it): cold code worth ~10 µs of every call that records its usage.
    let at = at.to_offset(time::UtcOffset::UTC);
    let (date, time) = (at.date(), at.time());
    let mut text = format!(
        "{:04}-{:02}-{:02}T{:02}:{:02}:{:02}",
        date.year(),
        u8::from(date.month()),
        date.day(),
        time.hour(),
        time.minute(),
        time.second(),
    );
    if millis {
        text.push_str(&format!(".{:03}", time.millisecond()));
    }
    text.push('Z');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(nanos: i128) -> OffsetDateTime {
        OffsetDateTime::from_unix_timestamp_nanos(nanos).expect("in range")
    }

    #[test]
    fn milliseconds_are_cut_not_rounded() {
        assert_eq!(
            rfc3339_millis(at(1_790_000_000_123_456_789)),
            "2026-09-21T14:13:20.123Z"
        );
        assert_eq!(
            rfc3339_millis(at(946_684_799_999_999_999)),
            "1999-12-31T23:59:59.999Z"
        );
        assert_eq!(rfc3339_millis(at(0)), "1970-01-01T00:00:00.000Z");
    }

    #[test]
    fn whole_seconds_look_like_the_seeds_and_any_offset_is_written_as_utc() {
        assert_eq!(
            write(at(1_790_000_000_999_000_000), false),
            "2026-09-21T14:13:20Z"
        );
        let east = at(0).to_offset(time::UtcOffset::from_hms(2, 0, 0).expect("offset"));
        assert_eq!(write(east, false), "1970-01-01T00:00:00Z");
        let stamp = now_rfc3339();
        assert_eq!(stamp.len(), "2026-04-19T14:22:11Z".len(), "{stamp}");
        assert_eq!(now_rfc3339_millis().len(), "2026-11-22T21:50:00.123Z".len());
    }
}
