//! "Did you mean ...?" for a mistyped name: the closest known name by edit distance.

/// Levenshtein distance between `a` and `b` (characters inserted, removed or replaced).
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let replace = previous[j] + usize::from(ca != *cb);
            current[j + 1] = replace.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        previous = current;
    }
    previous[b.len()]
}

/// The known name closest to `given`, if it is close enough to be a typo: at most 2 edits, or a
/// third of `given`'s length for longer names; failing that, the first name that begins with
/// `given` (of 3 characters or more: `philly` for `philly-sampled`). Ties go to the earlier name.
pub fn closest<'a>(given: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let limit = (given.chars().count() / 3).max(2);
    let mut best: Option<(usize, &str)> = None;
    let mut extends = None;
    for name in known {
        let distance = edit_distance(given, name);
        if distance <= limit && best.is_none_or(|(least, _)| distance < least) {
            best = Some((distance, name));
        }
        if extends.is_none() && given.chars().count() >= 3 && name.starts_with(given) {
            extends = Some(name);
        }
    }
    best.map(|(_, name)| name).or(extends)
}

/// `" (did you mean 'NAME'?)"` for the closest known name, or an empty string.
pub fn did_you_mean<'a>(given: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    closest(given, known).map_or(String::new(), |name| format!(" (did you mean '{name}'?)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_closest_name_within_reach_is_suggested() {
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("", "abc"), 3);
        let known = ["fifo", "las", "gavel", "gandiva", "themis"];
        assert_eq!(closest("fif0", known), Some("fifo"));
        assert_eq!(closest("gandvia", known), Some("gandiva"));
        assert_eq!(closest("tiresias", known), None, "nothing close: no guess");
        assert_eq!(closest("gand", known), Some("gandiva"), "a name it begins");
        assert_eq!(closest("ga", ["gandiva"]), None, "too short to extend");
        assert_eq!(did_you_mean("lass", known), " (did you mean 'las'?)");
        assert_eq!(did_you_mean("zzzzzz", known), "");
    }
}
