//! CPython's `random.Random`, bit for bit.
//!
//! Python simulators such as Gavel's draw their workloads with `random.Random(seed)`. To
//! regenerate those workloads exactly, this crate reimplements what CPython 3 does (checked
//! against CPython 3.11's `Modules/_randommodule.c` and `Lib/random.py`):
//!
//! - the Mersenne Twister MT19937 (`genrand_uint32`);
//! - seeding from an integer: the absolute value split into 32-bit words, least significant
//!   first (`[0]` for 0), fed to `init_by_array`;
//! - `random()`: 53 bits from two outputs, `(a >> 5, b >> 6)`, as `(a * 2^26 + b) / 2^53`;
//! - `getrandbits(k)`: the top `k` bits of each 32-bit output, words least significant first;
//! - `_randbelow(n)`, and with it `randrange(n)` and `choice(seq)`: rejection sampling of
//!   `getrandbits(n.bit_length())` until the draw is below `n`;
//! - `uniform(a, b)`: `a + (b - a) * random()`;
//! - `shuffle(x)`: swaps from the last position down with `_randbelow(i + 1)`.
//!
//! The fixture test compares every method against this machine's `python3` outputs.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// A `random.Random` with CPython's state, seeding and methods.
#[derive(Clone)]
pub struct PyRandom {
    state: [u32; N],
    index: usize,
}

impl std::fmt::Debug for PyRandom {
    fn fmt(&self, formatter: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        formatter.debug_struct("PyRandom").field("index", &self.index).finish_non_exhaustive()
    }
}

impl PyRandom {
    /// `random.Random(seed)` for a non-negative integer seed (CPython seeds with `abs(seed)`).
    pub fn new(seed: u64) -> Self {
        let low = seed as u32;
        let high = (seed >> 32) as u32;
        let key: &[u32] = if high == 0 { &[low] } else { &[low, high] };
        Self::from_key(key)
    }

    /// CPython's `init_by_array(key)`; an empty key is treated as `[0]`, as CPython does.
    pub fn from_key(key: &[u32]) -> Self {
        let key = if key.is_empty() { &[0][..] } else { key };
        let mut rng = Self::from_u32(19_650_218);
        let state = &mut rng.state;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let previous = state[i - 1] ^ (state[i - 1] >> 30);
            state[i] = (state[i] ^ previous.wrapping_mul(1_664_525)).wrapping_add(key[j]).wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                state[0] = state[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let previous = state[i - 1] ^ (state[i - 1] >> 30);
            state[i] = (state[i] ^ previous.wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                state[0] = state[N - 1];
                i = 1;
            }
        }
        state[0] = 0x8000_0000;
        rng.index = N;
        rng
    }

    /// MT19937's `init_genrand(seed)`.
    fn from_u32(seed: u32) -> Self {
        let mut state = [0u32; N];
        state[0] = seed;
        for i in 1..N {
            state[i] = 1_812_433_253u32.wrapping_mul(state[i - 1] ^ (state[i - 1] >> 30)).wrapping_add(i as u32);
        }
        Self { state, index: N }
    }

    /// The next 32-bit output (`genrand_uint32`).
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.twist();
        }
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    fn twist(&mut self) {
        let state = &mut self.state;
        for k in 0..N {
            let y = (state[k] & UPPER_MASK) | (state[(k + 1) % N] & LOWER_MASK);
            let magic = if y & 1 == 1 { MATRIX_A } else { 0 };
            state[k] = state[(k + M) % N] ^ (y >> 1) ^ magic;
        }
        self.index = 0;
    }

    /// `random()`: a float in `[0, 1)` with 53 random bits.
    pub fn random(&mut self) -> f64 {
        let a = self.next_u32() >> 5;
        let b = self.next_u32() >> 6;
        (f64::from(a) * 67_108_864.0 + f64::from(b)) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// `getrandbits(k)` for `k <= 64`.
    ///
    /// # Panics
    /// When `k > 64`.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        assert!(k <= 64, "getrandbits supports up to 64 bits here, asked for {k}");
        if k == 0 {
            return 0;
        }
        if k <= 32 {
            return u64::from(self.next_u32() >> (32 - k));
        }
        let low = u64::from(self.next_u32());
        let high = u64::from(self.next_u32() >> (64 - k));
        (high << 32) | low
    }

    /// `_randbelow(n)`: an integer in `[0, n)` by rejection sampling, as `randrange(n)`.
    ///
    /// # Panics
    /// When `n == 0` (CPython raises `ValueError` for an empty range).
    pub fn randbelow(&mut self, n: u64) -> u64 {
        assert!(n > 0, "randbelow of an empty range");
        let bits = u64::BITS - n.leading_zeros();
        loop {
            let draw = self.getrandbits(bits);
            if draw < n {
                return draw;
            }
        }
    }

    /// `randrange(start, stop)` with step 1.
    ///
    /// # Panics
    /// When `stop <= start`.
    pub fn randrange(&mut self, start: i64, stop: i64) -> i64 {
        assert!(stop > start, "empty range for randrange({start}, {stop})");
        start + self.randbelow(stop.abs_diff(start)) as i64
    }

    /// `choice(seq)`: an element drawn uniformly.
    ///
    /// # Panics
    /// When `items` is empty (CPython raises `IndexError`).
    pub fn choice<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        assert!(!items.is_empty(), "cannot choose from an empty sequence");
        &items[self.randbelow(items.len() as u64) as usize]
    }

    /// `choice(seq)` returning the drawn index.
    pub fn choice_index(&mut self, len: usize) -> usize {
        self.randbelow(len as u64) as usize
    }

    /// `shuffle(x)`: in place, from the last position down, swapping position `i` with
    /// `_randbelow(i + 1)` (CPython 3.11's `Random.shuffle`).
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            items.swap(i, j);
        }
    }

    /// `uniform(a, b)`: `a + (b - a) * random()`.
    pub fn uniform(&mut self, a: f64, b: f64) -> f64 {
        a + (b - a) * self.random()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_reference_mt19937_output() {
        // The reference implementation's first output for init_by_array({0x123, 0x234, 0x345, 0x456}).
        let mut rng = PyRandom::from_key(&[0x123, 0x234, 0x345, 0x456]);
        assert_eq!(rng.next_u32(), 1_067_595_299);
        assert_eq!(rng.next_u32(), 955_945_823);
    }

    #[test]
    fn seeds_above_32_bits_use_two_words() {
        assert_ne!(PyRandom::new(1 << 32).next_u32(), PyRandom::new(0).next_u32());
        assert_eq!(PyRandom::new(7).next_u32(), PyRandom::from_key(&[7]).next_u32());
    }
}
