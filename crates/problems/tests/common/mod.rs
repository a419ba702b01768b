//! Helpers shared by the test files that read the Popeye set.

use std::path::PathBuf;

/// The Popeye set in ../shared, or `None` (with a message) when it is absent.
pub fn set_path() -> Option<PathBuf> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/problems/popeye-set.jsonl");
    if p.exists() {
        Some(p)
    } else {
        eprintln!(
            "skipped: ../shared/data/problems/popeye-set.jsonl not found (expected beside the checkout at {})",
            p.display()
        );
        None
    }
}
