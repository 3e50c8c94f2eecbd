//! A filter's health: the fill it has against the fill its m and k were sized for, and the
//! false-positive rate its bits give (fill^k) against the writer's error rate.
//!
//! The error rate is not stored (docs/java-writer.md), but k narrows it ([`crate::design`]): for
//! k = 5 it is taken as the writers' default, 0.05; any other k says the default was not used,
//! and the rate is taken as the largest that gives that k. The design is the sound bound of
//! [`design_capacity`]: the most keys any rate giving k sizes m for, and the fill that many keys
//! leave, 1 − e^(−k·n/m). Over-filled needs the index's count of keys ([`filled_past_design`]);
//! a false-positive rate more than [`FAR_ABOVE`] times the error rate is told by the bits alone.

use crate::design::{design_capacity, filled_past_design, largest_rate_for_k};
use crate::filter::{fpp_from_fill, DEFAULT_ERROR_RATE};
use serde::Serialize;

/// How many times the error rate a filter's fill^k may reach before it is called high: a
/// filter at its design fill gives about the error rate; twice that is past chance for any m ≥ 256.
pub const FAR_ABOVE: f64 = 2.0;

closed_set! {
    /// A filter's health in one word.
    pub enum HealthState {
        /// The index is read: no more keys than its design, and fill^k within the bound.
        Healthy => "healthy",
        /// The index lists more keys than any rate giving k sizes m for.
        OverFilled => "over_filled",
        /// Not known to be over-filled, but fill^k is more than [`FAR_ABOVE`] times the error rate.
        HighFp => "high_fp",
        /// fill^k within the bound, and the keys it holds not known (the index not read).
        Unknown => "unknown",
    }
}

/// A filter's design and how its bits and the index compare with it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
#[cfg_attr(test, derive(ts_rs::TS))]
pub struct FilterHealth {
    pub state: HealthState,
    /// The rate the writer is taken to have sized for (module docs).
    pub error_rate: f64,
    /// The most keys the writers' sizing plans this m and k for ([`design_capacity`]).
    pub sized_for_items: u64,
    /// The fill that many keys leave: 1 − e^(−k·n/m).
    pub design_fill: f64,
}

impl FilterHealth {
    /// From the stored geometry, the fill (None: no bits stored) and the index's count of keys
    /// (None: not read). None for a geometry no writer's sizing produces: no design to judge by.
    pub fn of(bit_count: u32, k: u32, fill: Option<f64>, indexed_items: Option<u64>) -> Option<FilterHealth> {
        let sized_for_items = design_capacity(bit_count, k)?;
        let error_rate = if k == 5 { DEFAULT_ERROR_RATE } else { largest_rate_for_k(k)? };
        let design_fill = 1.0 - (-(k as f64) * sized_for_items as f64 / bit_count as f64).exp();
        let high = fill.is_some_and(|f| fpp_from_fill(f, k) > FAR_ABOVE * error_rate);
        let state = match (filled_past_design(bit_count, k, indexed_items), high) {
            (Some(true), _) => HealthState::OverFilled,
            (_, true) => HealthState::HighFp,
            (Some(false), false) if fill.is_some() || indexed_items == Some(0) => HealthState::Healthy,
            _ => HealthState::Unknown,
        };
        Some(FilterHealth { state, error_rate, sized_for_items, design_fill })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k_tells_the_error_rate() {
        assert_eq!(FilterHealth::of(256, 5, Some(0.5), None).unwrap().error_rate, 0.05);
        assert_eq!(FilterHealth::of(256, 4, Some(0.5), None).unwrap().error_rate, 0.1);
        assert_eq!(FilterHealth::of(256, 7, Some(0.5), None).unwrap().error_rate, 1.0 / 64.0);
        assert_eq!(FilterHealth::of(255, 5, Some(0.5), None), None);
        assert_eq!(FilterHealth::of(256, 8, Some(0.5), None), None);
    }

    #[test]
    fn over_filled_wins_and_high_fp_needs_only_the_bits() {
        let state = |fill, n| FilterHealth::of(256, 5, fill, n).unwrap().state;
        // 0.63^5 = 0.099 is within twice 5 %; 0.64^5 = 0.107 is not.
        assert_eq!(state(Some(0.63), None), HealthState::Unknown);
        assert_eq!(state(Some(0.64), None), HealthState::HighFp);
        assert_eq!(state(Some(0.63), Some(44)), HealthState::Healthy);
        assert_eq!(state(Some(0.64), Some(44)), HealthState::HighFp);
        assert_eq!(state(Some(0.1), Some(45)), HealthState::OverFilled);
        assert_eq!(state(None, Some(45)), HealthState::OverFilled);
        assert_eq!(state(None, Some(3)), HealthState::Unknown);
    }
}
