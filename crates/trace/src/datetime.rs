//! Naive date-times (`%Y-%m-%d %H:%M:%S`) to seconds, and US-Pacific wall clock to UTC.
//!
//! The calendar and the time-zone rules are jiff's, with its bundled copy of the IANA database
//! (never the machine's), so a load gives the same seconds on every machine.

use jiff::Timestamp;
use jiff::civil::DateTime;
use jiff::tz::{AmbiguousOffset, TimeZone};
use std::sync::OnceLock;

/// Splits `YYYY-MM-DD[ HH:MM:SS]` (or with `T`) into a civil date-time and a leap second flag
/// (`:60`, read as the next second).
fn split(text: &str) -> Option<(DateTime, bool)> {
    let text = text.trim();
    let (date, time) = match text.split_once([' ', 'T']) {
        Some((date, time)) => (date, Some(time)),
        None => (text, None),
    };
    let mut date_parts = date.split('-');
    let year: i16 = date_parts.next()?.parse().ok()?;
    let month: i8 = date_parts.next()?.parse().ok()?;
    let day: i8 = date_parts.next()?.parse().ok()?;
    if date_parts.next().is_some() {
        return None;
    }
    let (hour, minute, second) = match time {
        None => (0, 0, 0),
        Some(time) => {
            let mut parts = time.split(':');
            let hour: i8 = parts.next()?.parse().ok()?;
            let minute: i8 = parts.next()?.parse().ok()?;
            let second: i8 = parts.next()?.parse().ok()?;
            if parts.next().is_some() {
                return None;
            }
            (hour, minute, second)
        }
    };
    let leap = second == 60;
    let datetime = DateTime::new(year, month, day, hour, minute, if leap { 59 } else { second }, 0).ok()?;
    Some((datetime, leap))
}

/// Parses `YYYY-MM-DD HH:MM:SS` (or `YYYY-MM-DD`, as midnight) into seconds since
/// 1970-01-01 00:00:00 of the same wall clock. Returns `None` if malformed or out of range
/// (years -9999 to 9999).
pub fn parse_naive(text: &str) -> Option<i64> {
    let (datetime, leap) = split(text)?;
    let seconds = TimeZone::UTC.to_timestamp(datetime).ok()?.as_second();
    Some(seconds + i64::from(leap))
}

/// The wall-clock date-time of naive seconds (as from [`parse_naive`]).
fn civil(wall_seconds: i64) -> Option<DateTime> {
    Some(Timestamp::from_second(wall_seconds).ok()?.to_zoned(TimeZone::UTC).datetime())
}

/// US-Pacific time (America/Los_Angeles) from the bundled database.
fn pacific() -> &'static TimeZone {
    static PACIFIC: OnceLock<TimeZone> = OnceLock::new();
    PACIFIC.get_or_init(|| {
        jiff::tz::db().get("America/Los_Angeles").expect("jiff's bundled database has America/Los_Angeles")
    })
}

/// How a US-Pacific wall-clock time reads in UTC.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PacificReading {
    /// One reading.
    Unambiguous(i64),
    /// In the hour repeated when daylight time ends: the daylight (earlier) and the standard
    /// (later) reading.
    Fold {
        /// As daylight time.
        daylight: i64,
        /// As standard time.
        standard: i64,
    },
}

impl PacificReading {
    /// The reading by the usual rule: daylight time in the repeated hour (the earlier instant),
    /// and, for a time the clocks skipped in spring, the offset before the jump (jiff's
    /// "compatible" rule, as Temporal and java.time).
    pub fn usual(self) -> i64 {
        match self {
            PacificReading::Unambiguous(seconds) | PacificReading::Fold { daylight: seconds, .. } => seconds,
        }
    }

    /// The latest reading (standard time in the repeated hour).
    pub fn latest(self) -> i64 {
        match self {
            PacificReading::Unambiguous(seconds) | PacificReading::Fold { standard: seconds, .. } => seconds,
        }
    }
}

/// Reads US-Pacific wall-clock seconds (as from [`parse_naive`]) as UTC seconds.
pub fn pacific_reading(wall_seconds: i64) -> Option<PacificReading> {
    let datetime = civil(wall_seconds)?;
    let ambiguous = pacific().to_ambiguous_timestamp(datetime);
    let as_utc = |offset: jiff::tz::Offset| wall_seconds - i64::from(offset.seconds());
    Some(match ambiguous.offset() {
        AmbiguousOffset::Fold { before, after } => {
            PacificReading::Fold { daylight: as_utc(before), standard: as_utc(after) }
        }
        AmbiguousOffset::Unambiguous { .. } | AmbiguousOffset::Gap { .. } => {
            PacificReading::Unambiguous(ambiguous.compatible().ok()?.as_second())
        }
    })
}

/// Converts US-Pacific wall-clock seconds to UTC seconds by the usual rule
/// ([`PacificReading::usual`]).
pub fn pacific_to_utc(wall_seconds: i64) -> Option<i64> {
    pacific_reading(wall_seconds).map(PacificReading::usual)
}

/// Formats seconds since the epoch as `YYYY-MM-DD HH:MM:SS`.
pub fn format_naive(seconds: i64) -> String {
    match civil(seconds) {
        Some(datetime) => datetime.strftime("%Y-%m-%d %H:%M:%S").to_string(),
        None => format!("{seconds} s since 1970-01-01"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_formats_round_trip() {
        assert_eq!(parse_naive("1970-01-01 00:00:00"), Some(0));
        assert_eq!(parse_naive("2017-10-09 07:01:55"), Some(1_507_532_515));
        assert_eq!(parse_naive("2017-10-09"), Some(1_507_507_200));
        assert_eq!(parse_naive("2016-12-31 23:59:60"), parse_naive("2017-01-01 00:00:00"));
        assert_eq!(format_naive(1_507_532_515), "2017-10-09 07:01:55");
        assert_eq!(format_naive(parse_naive("2000-02-29 23:59:59").unwrap()), "2000-02-29 23:59:59");
        for bad in ["", "None", "2017-13-01 00:00:00", "2017-02-29 00:00:00", "2017-10-09 24:00:00", "2017-10-09 07:01"]
        {
            assert_eq!(parse_naive(bad), None, "{bad}");
        }
    }

    #[test]
    fn pacific_time_follows_daylight_saving() {
        // 2017: DST from Sunday 12 March 02:00 to Sunday 5 November 02:00.
        let utc = |text: &str| pacific_to_utc(parse_naive(text).unwrap()).unwrap();
        let winter = parse_naive("2017-01-15 12:00:00").unwrap();
        let summer = parse_naive("2017-07-15 12:00:00").unwrap();
        assert_eq!(utc("2017-01-15 12:00:00") - winter, 8 * 3600);
        assert_eq!(utc("2017-07-15 12:00:00") - summer, 7 * 3600);
        assert_eq!(utc("2017-03-12 03:00:00") - utc("2017-03-12 01:59:59"), 1);
        // Skipped in spring: 02:30 does not exist; it reads with the offset before the jump.
        assert_eq!(utc("2017-03-12 02:30:00"), utc("2017-03-12 03:30:00"));
        let november = parse_naive("2017-11-05 02:00:00").unwrap();
        assert_eq!(utc("2017-11-05 02:00:00") - november, 8 * 3600);
    }

    #[test]
    fn the_repeated_hour_has_two_readings_an_hour_apart() {
        let wall = parse_naive("2017-11-05 01:30:00").unwrap();
        let reading = pacific_reading(wall).unwrap();
        assert_eq!(reading, PacificReading::Fold { daylight: wall + 7 * 3600, standard: wall + 8 * 3600 });
        assert_eq!(reading.usual(), wall + 7 * 3600);
        assert_eq!(reading.latest(), wall + 8 * 3600);
        let after = parse_naive("2017-11-05 02:00:00").unwrap();
        assert_eq!(pacific_reading(after), Some(PacificReading::Unambiguous(after + 8 * 3600)));
    }
}
