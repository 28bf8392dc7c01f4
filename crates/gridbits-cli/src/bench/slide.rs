//! Bench workloads of the `slide` topic.

use super::{Bench, Rng};

/// Registers this topic's workloads.
pub fn register(_bench: &mut Bench, _rng: &mut Rng) {}
