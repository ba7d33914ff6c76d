//! The dual prices: one per (node, round), rising exponentially with the node's utilisation.

/// The online primal-dual price function of OASiS (Bao et al., INFOCOM 2018), which Hadar
/// adapts: the price of the next GPU on a node with `used` of `capacity` GPUs taken this round is
/// `p(used) = low x (high / low)^(used / capacity)`.
///
/// `low` is the price of an idle node, below the utility per GPU-round of any job, so any job
/// can start on an idle node; `high` is reached when the node is full, at the highest utility
/// per GPU-round of any job, so no job can afford a GPU beyond capacity.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PriceFunction {
    low: f64,
    high: f64,
}

impl PriceFunction {
    /// Returns the function between `low` and `high` (both positive; `high` is raised to `low`
    /// if below it, which makes every price `low`).
    pub fn new(low: f64, high: f64) -> PriceFunction {
        debug_assert!(low > 0.0 && low.is_finite() && high.is_finite(), "prices {low}..{high}");
        PriceFunction { low, high: high.max(low) }
    }

    /// Returns the lowest price (an idle node).
    pub fn low(&self) -> f64 {
        self.low
    }

    /// Returns the highest price (a full node).
    pub fn high(&self) -> f64 {
        self.high
    }

    /// Returns the price of one more GPU-round on a node with `used` of `capacity` GPUs taken.
    pub fn price(&self, used: u32, capacity: u32) -> f64 {
        let utilisation = f64::from(used) / f64::from(capacity.max(1));
        self.low * (self.high / self.low).powf(utilisation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prices_run_from_low_on_an_idle_node_to_high_on_a_full_one() {
        let prices = PriceFunction::new(2.0, 32.0);
        assert_eq!(prices.price(0, 4), 2.0);
        // (32 / 2)^(2/4) = 4: half full costs 2 x 4.
        assert!((prices.price(2, 4) - 8.0).abs() < 1e-12);
        assert!((prices.price(4, 4) - 32.0).abs() < 1e-12);
    }

    #[test]
    fn prices_rise_monotonically_with_utilisation() {
        for (low, high) in [(0.1, 10.0), (1.0, 1.0), (3.0, 3.5), (1e-6, 1e6)] {
            let prices = PriceFunction::new(low, high);
            for capacity in [1, 4, 8] {
                let mut previous = 0.0;
                for used in 0..=capacity {
                    let price = prices.price(used, capacity);
                    assert!(price >= previous, "{low}..{high}: p({used}/{capacity}) = {price} < {previous}");
                    assert!(price >= low * (1.0 - 1e-12) && price <= high.max(low) * (1.0 + 1e-12));
                    previous = price;
                }
            }
        }
    }
}
