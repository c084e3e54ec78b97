//! The search's walks of a flame graph in steps ([`FlameData::matched_weights_in_steps`]): on a graph of millions
//! of nodes, or the profile under a cut one, a walk is tens of ms, so the page makes it a piece per task.

use super::data::FlameData;
use crate::worker::protocol::Job;

/// The items a step of [`FlameData::matched_weights_in_steps`] visits: 5–8 ms of a task.
const WEIGH_STEP: usize = 1_000_000;

impl FlameData {
    /// [`FlameData::matched_weights`] in tasks of at most [`WEIGH_STEP`] nodes, stacks or samples each: a walk of
    /// a graph of 5,000,000 nodes, or of the profile under a cut one, is tens of ms.
    pub async fn matched_weights_in_steps(&self, mask: &[bool]) -> scorch_core::analysis::search::Weighed {
        use scorch_core::analysis::search::{Over, Weighing};
        let (mut walk, over) = match self.cut.as_ref().map(|c| &c.job) {
            Some(Job::Plain) => (
                Weighing::of_profile(self.profile(), false),
                Over::Profile(self.profile(), &self.view),
            ),
            Some(Job::Inverted) => (
                Weighing::of_profile(self.profile(), true),
                Over::Profile(self.profile(), &self.view),
            ),
            _ => (Weighing::of_tree(&self.tree), Over::Tree(&self.tree)),
        };
        loop {
            if let Some(w) = walk.step(over, mask, WEIGH_STEP) {
                return w;
            }
            crate::worker::yield_now().await;
        }
    }

    /// How many items [`FlameData::matched_weights`] visits: the tree's nodes, or the profile's stacks and
    /// samples when the tree is cut.
    pub fn weighing_work(&self) -> usize {
        match self.cut.as_ref().map(|c| &c.job) {
            Some(Job::Plain | Job::Inverted) => {
                let p = self.profile();
                p.stacks.len() + p.samples.len()
            }
            _ => self.tree.len(),
        }
    }
}
