//! The job graph of a generation run: every ending a set of targets needs, in an order that generates each
//! after the endings it converts into, with each one's direct dependencies and an estimate of its peak
//! memory and CPU time. `mysl tb plan` prints it (text or JSON); `workflow/Snakefile` turns it into one
//! job per ending for Snakemake, locally or on a cluster.

use crate::index::Layout;
use crate::material::Material;
use crate::Generator;

/// One ending of a plan.
#[derive(Clone, Debug)]
pub struct Step {
    pub ending: Material,
    /// The endings its captures and promotions lead to (bare kings left out).
    pub needs: Vec<Material>,
    /// Generation index entries per side to move.
    pub index_entries: u64,
    pub estimate: Estimate,
}

/// What generating one ending takes (its file written), estimated from the size of its index.
#[derive(Clone, Copy, Debug)]
pub struct Estimate {
    /// Peak resident memory of `mysl tb gen ENDING` with its dependencies present as files.
    pub peak_bytes: u64,
    /// CPU time (all threads together).
    pub cpu_seconds: f64,
}

/// Every ending `targets` need, dependencies first.
pub fn plan(targets: &[Material]) -> Vec<Step> {
    Generator::plan(targets)
        .into_iter()
        .map(|m| {
            let index_entries = Layout::new(m).size;
            Step { ending: m, needs: m.successors(), index_entries, estimate: estimate(&m, index_entries) }
        })
        .collect()
}

/// The estimate for an ending of `entries` index entries per side. Calibrated on measured runs
/// (docs/tablebases.md, idle 2-core machine, format version 4): endings of up to 4 pieces are solved in
/// memory, both metrics at once (8 bytes per entry and a bitmap, plus the sub-tables it reads: 20 bytes
/// per entry covers KQvKR's run; all 35 endings of 3-4 pieces took 533 s CPU with every file encoded and
/// checked, about 2.3 µs per entry); a 5-piece ending without pawns one metric at a time in a mapped file
/// (KRNvKR: 121 M entries, 810 MB peak, 231 s CPU; KQRvKR: 913 MB); with pawns slice by slice (KRPvKR:
/// 403 M entries, 821 MB peak, 495 s CPU). A fixed 150 MB covers the program, the 3-4 piece sub-tables and
/// the encoder's pair counts.
pub fn estimate(m: &Material, entries: u64) -> Estimate {
    const BASE: u64 = 150 << 20;
    let (bytes_per_entry, us_per_entry) = match (m.count(), m.has_pawns()) {
        (0..=4, _) => (20.0, 2.3),
        (_, false) => (6.3, 2.0),
        (_, true) => (1.7, 1.3),
    };
    Estimate {
        peak_bytes: BASE + (entries as f64 * bytes_per_entry) as u64,
        cpu_seconds: entries as f64 * us_per_entry * 1e-6,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_ending_comes_after_what_it_needs() {
        let targets: Vec<Material> =
            ["KRPvKR", "KQPvKQ", "KBBvKN"].iter().map(|s| Material::parse(s).expect("material")).collect();
        let steps = plan(&targets);
        for (k, s) in steps.iter().enumerate() {
            for need in &s.needs {
                assert!(steps[..k].iter().any(|x| x.ending == *need), "{}: {need} comes later or not at all", s.ending);
            }
            assert_eq!(steps.iter().filter(|x| x.ending == s.ending).count(), 1, "{} twice", s.ending);
        }
        // KRPvKR converts into the 5-piece endings of its promotions and is the last of its own closure
        let krp = steps.iter().find(|s| s.ending.to_string() == "KRPvKR").expect("in the plan");
        assert!(krp.needs.iter().any(|m| m.to_string() == "KQRvKR"));
        assert_eq!(krp.index_entries, 402_653_184);
        // a larger index never gets a smaller estimate within a kind of ending
        let krn = steps.iter().find(|s| s.ending.to_string() == "KRNvKR").expect("in the plan");
        let krnk = steps.iter().find(|s| s.ending.to_string() == "KRNvK").expect("in the plan");
        assert!(
            krn.estimate.peak_bytes > krnk.estimate.peak_bytes && krn.estimate.cpu_seconds > krnk.estimate.cpu_seconds
        );
    }
}
