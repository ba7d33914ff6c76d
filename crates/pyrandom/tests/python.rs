//! Compares every method with CPython's own outputs (`fixtures/python_random.json`, written by
//! `fixtures/python_random.py` with this machine's python3).

use schedlab_pyrandom::PyRandom;
use serde_json::Value;

/// Parses Python's `float.hex()` (`[-]0x1.<hex>p<exp>` or `0x0.0p+0`) exactly.
fn from_hex(text: &str) -> f64 {
    let (sign, rest) = match text.strip_prefix('-') {
        Some(rest) => (-1.0, rest),
        None => (1.0, text),
    };
    let rest = rest.strip_prefix("0x").expect("hex float");
    let (mantissa, exponent) = rest.split_once('p').expect("exponent");
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let mut bits = u64::from_str_radix(whole, 16).expect("whole part");
    for digit in fraction.chars() {
        bits = (bits << 4) | u64::from(digit.to_digit(16).expect("hex digit"));
    }
    let exponent: i32 = exponent.parse::<i32>().expect("exponent") - 4 * fraction.len() as i32;
    // bits < 2^53 and the scaling by a power of two is exact.
    sign * bits as f64 * 2f64.powi(exponent)
}

fn u64_of(value: &Value) -> u64 {
    value.as_u64().unwrap_or_else(|| panic!("not a u64: {value}"))
}

#[test]
fn every_method_matches_cpython() {
    let text = include_str!("fixtures/python_random.json");
    let fixture: Value = serde_json::from_str(text).unwrap();
    let cases = fixture["cases"].as_array().unwrap();
    assert!(cases.len() >= 10);
    for case in cases {
        let seed = u64_of(&case["seed"]);
        let mut rng = PyRandom::new(seed);
        for (index, expected) in case["random"].as_array().unwrap().iter().enumerate() {
            let got = rng.random();
            assert_eq!(got.to_bits(), from_hex(expected.as_str().unwrap()).to_bits(), "seed {seed}, random() #{index}");
        }
        for pair in case["getrandbits"].as_array().unwrap() {
            let (k, expected) = (u64_of(&pair[0]) as u32, u64_of(&pair[1]));
            assert_eq!(rng.getrandbits(k), expected, "seed {seed}, getrandbits({k})");
        }
        let letters: Vec<char> = ('a'..='z').collect();
        let drawn: String = (0..200).map(|_| *rng.choice(&letters)).collect();
        assert_eq!(drawn, case["choice26"].as_str().unwrap(), "seed {seed}, choice over 26 letters");
        for pair in case["randrange"].as_array().unwrap() {
            let (n, expected) = (u64_of(&pair[0]), u64_of(&pair[1]));
            assert_eq!(rng.randrange(0, n as i64) as u64, expected, "seed {seed}, randrange({n})");
        }
        let bounds = [(0.0, 1.0), (1.5, 3.0), (3.0, 4.0), (-2.5, 7.25)];
        for (index, expected) in case["uniform"].as_array().unwrap().iter().enumerate() {
            let (a, b) = bounds[index % bounds.len()];
            let got = rng.uniform(a, b);
            assert_eq!(got.to_bits(), from_hex(expected.as_str().unwrap()).to_bits(), "seed {seed}, uniform({a}, {b})");
        }
        for (index, expected) in case["shuffle3"].as_array().unwrap().iter().enumerate() {
            let mut types = ["v100", "p100", "k80"];
            rng.shuffle(&mut types);
            let expected: Vec<&str> = expected.as_array().unwrap().iter().map(|name| name.as_str().unwrap()).collect();
            assert_eq!(types.to_vec(), expected, "seed {seed}, shuffle of three types #{index}");
        }
        let mut letters = letters.clone();
        rng.shuffle(&mut letters);
        assert_eq!(
            letters.iter().collect::<String>(),
            case["shuffle26"].as_str().unwrap(),
            "seed {seed}, shuffle of 26"
        );
    }
}

#[test]
fn hex_parser_reads_python_forms() {
    assert_eq!(from_hex("0x1.8000000000000p+1"), 3.0);
    assert_eq!(from_hex("0x0.0p+0"), 0.0);
    assert_eq!(from_hex("-0x1.0000000000000p-1"), -0.5);
}
