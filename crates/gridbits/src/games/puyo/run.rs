//! Running a [`Field`]: a turn ([`Field::play`]), gravity ([`Field::settle`]), one chain step
//! and the whole chain with the fastest or a chosen [`ChainEngine`].

use super::engine::ChainEngine;
use super::error::PlaceError;
use super::kernel::{gravity_portable, Kernel};
use super::{Chain, Field, Step};
#[cfg(target_arch = "x86_64")]
use crate::cpu::Features;

impl Field {
    /// One turn: places a pair as [`place_pair`](Self::place_pair) does, then resolves the
    /// chain it starts; the field becomes the chain's final field.
    pub fn play(&mut self, a: u8, b: u8, x: usize, rotation: u8) -> Result<Chain, PlaceError> {
        self.place_pair(a, b, x, rotation)?;
        let chain = self.simulate();
        *self = chain.field;
        Ok(chain)
    }

    /// Gravity: every column falls to close its gaps (no vanishing). With BMI2 (detected at
    /// run time) each plane is compacted by `pext` and `pdep` in constant time.
    pub fn settle(&mut self) {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::has(Features::BMI1 | Features::BMI2 | Features::POPCNT) {
            // SAFETY: BMI1, BMI2 and POPCNT were detected.
            unsafe { super::kernel::settle_bmi2(&mut self.planes) };
            return;
        }
        self.settle_portable();
    }

    /// [`settle`](Self::settle) by one-row falls, without BMI2.
    fn settle_portable(&mut self) {
        let mut occ = self.occupied();
        gravity_portable::<u128>(&mut self.planes, &mut occ);
    }

    /// Runs the whole chain: vanish, garbage, score, gravity, repeated while something
    /// vanishes. The field is taken as it is (floating cells only fall after a step that
    /// vanished something; call [`settle`](Self::settle) first if needed).
    ///
    /// Uses the fastest [`ChainEngine`] this CPU has.
    #[inline]
    pub fn simulate(&self) -> Chain {
        self.simulate_with(ChainEngine::best())
    }

    /// [`simulate`](Self::simulate) with a chosen engine; an engine this CPU lacks falls back
    /// to [`ChainEngine::Portable`].
    pub fn simulate_with(&self, engine: ChainEngine) -> Chain {
        engine.run(self)
    }

    /// Runs one step at `step` (from 1) of a chain: vanish, garbage, gravity. Returns what
    /// vanished, or `None` (field unchanged) when nothing does. Meant for showing a chain step
    /// by step; [`simulate`](Self::simulate) is faster.
    pub fn step(&mut self, step: u32) -> Option<Step> {
        let mut k = Kernel::<u128>::load(self);
        let s = k.step::<false>(step.max(1), self.rules, &mut !0)?;
        k.store(self);
        Some(s)
    }
}
