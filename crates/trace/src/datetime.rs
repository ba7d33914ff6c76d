//! Naive date-times (`%Y-%m-%d %H:%M:%S`) to seconds, without a time-zone database.

/// Days from 1970-01-01 to the given civil date (proleptic Gregorian), after H. Hinnant's
/// `days_from_civil`.
fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = if year >= 0 { year } else { year - 399 } / 400;
    let year_of_era = year - era * 400;
    let month = i64::from(month);
    let day_of_year = (153 * (if month > 2 { month - 3 } else { month + 9 }) + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

fn is_leap(year: i64) -> bool {
    (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
}

fn days_in_month(year: i64, month: u32) -> u32 {
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        _ if is_leap(year) => 29,
        _ => 28,
    }
}

/// Parses `YYYY-MM-DD HH:MM:SS` (or `YYYY-MM-DD`, as midnight) into seconds since
/// 1970-01-01 00:00:00 of the same wall clock. Returns `None` if malformed or out of range.
pub fn parse_naive(text: &str) -> Option<i64> {
    let text = text.trim();
    let (date, time) = match text.split_once([' ', 'T']) {
        Some((date, time)) => (date, Some(time)),
        None => (text, None),
    };
    let mut date_parts = date.split('-');
    let year: i64 = date_parts.next()?.parse().ok()?;
    let month: u32 = date_parts.next()?.parse().ok()?;
    let day: u32 = date_parts.next()?.parse().ok()?;
    if date_parts.next().is_some() || !(1..=12).contains(&month) || day == 0 || day > days_in_month(year, month) {
        return None;
    }
    let seconds = match time {
        None => 0,
        Some(time) => {
            let mut parts = time.split(':');
            let hour: i64 = parts.next()?.parse().ok()?;
            let minute: i64 = parts.next()?.parse().ok()?;
            let second: i64 = parts.next()?.parse().ok()?;
            if parts.next().is_some() || hour > 23 || minute > 59 || second > 60 || hour < 0 || minute < 0 || second < 0
            {
                return None;
            }
            hour * 3600 + minute * 60 + second
        }
    };
    Some(days_from_civil(year, month, day) * 86_400 + seconds)
}

/// Returns the weekday (0 = Sunday) of a day count since 1970-01-01 (a Thursday).
fn weekday(days: i64) -> i64 {
    (days + 4).rem_euclid(7)
}

/// Returns the day count of the `n`-th Sunday (1-based) of a month.
fn nth_sunday(year: i64, month: u32, n: i64) -> i64 {
    let first = days_from_civil(year, month, 1);
    let offset = (7 - weekday(first)) % 7;
    first + offset + 7 * (n - 1)
}

/// Converts US-Pacific wall-clock seconds (as from [`parse_naive`]) to UTC seconds, with the
/// US daylight-saving rules in force since 2007 (second Sunday of March, 02:00, to the first
/// Sunday of November, 02:00). The repeated hour in November is read as daylight time.
pub fn pacific_to_utc(wall_seconds: i64) -> i64 {
    let days = wall_seconds.div_euclid(86_400);
    // Year of the wall-clock date.
    let year = {
        let mut year = 1970 + days / 366;
        while days_from_civil(year + 1, 1, 1) <= days {
            year += 1;
        }
        while days_from_civil(year, 1, 1) > days {
            year -= 1;
        }
        year
    };
    let dst_start = nth_sunday(year, 3, 2) * 86_400 + 2 * 3600;
    let dst_end = nth_sunday(year, 11, 1) * 86_400 + 2 * 3600;
    let offset_hours = if wall_seconds >= dst_start && wall_seconds < dst_end { 7 } else { 8 };
    wall_seconds + offset_hours * 3600
}

/// Formats seconds since the epoch as `YYYY-MM-DD HH:MM:SS`.
pub fn format_naive(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let rest = seconds.rem_euclid(86_400);
    // Inverse of days_from_civil (Hinnant's civil_from_days).
    let z = days + 719_468;
    let era = if z >= 0 { z } else { z - 146_096 } / 146_097;
    let day_of_era = z - era * 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}", rest / 3600, rest % 3600 / 60, rest % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_formats_round_trip() {
        assert_eq!(parse_naive("1970-01-01 00:00:00"), Some(0));
        assert_eq!(parse_naive("2017-10-09 07:01:55"), Some(1_507_532_515));
        assert_eq!(parse_naive("2017-10-09"), Some(1_507_507_200));
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
        let winter = parse_naive("2017-01-15 12:00:00").unwrap();
        let summer = parse_naive("2017-07-15 12:00:00").unwrap();
        assert_eq!(pacific_to_utc(winter) - winter, 8 * 3600);
        assert_eq!(pacific_to_utc(summer) - summer, 7 * 3600);
        let before = parse_naive("2017-03-12 01:59:59").unwrap();
        let after = parse_naive("2017-03-12 03:00:00").unwrap();
        assert_eq!(pacific_to_utc(after) - pacific_to_utc(before), 1);
        let november = parse_naive("2017-11-05 02:00:00").unwrap();
        assert_eq!(pacific_to_utc(november) - november, 8 * 3600);
    }
}
