//! Shared helpers for the integration tests: locating `../shared/data` and a seeded RNG.
#![allow(dead_code)]

use std::path::PathBuf;

/// The `shared/data` directory beside the checkout, or `None` (tests then skip with a message).
pub fn shared_data() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data");
    if dir.is_dir() {
        Some(dir)
    } else {
        eprintln!("skipped: ../shared/data not found (expected beside the checkout at {})", dir.display());
        None
    }
}

/// Reads a file under `shared/data`, or `None` with a skip message.
pub fn shared_file(rel: &str) -> Option<String> {
    let path = shared_data()?.join(rel);
    match std::fs::read_to_string(&path) {
        Ok(s) => Some(s),
        Err(e) => {
            eprintln!("skipped: cannot read {}: {e}", path.display());
            None
        }
    }
}

/// A small deterministic generator (xorshift64*), so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A random Chess960 start position as Shredder-FEN.
pub fn chess960_fen(rng: &mut Rng) -> String {
    let mut rank: [Option<char>; 8] = [None; 8];
    rank[2 * rng.below(4)] = Some('b');
    rank[2 * rng.below(4) + 1] = Some('b');
    for piece in ['q', 'n', 'n'] {
        let free: Vec<usize> = (0..8).filter(|&i| rank[i].is_none()).collect();
        rank[free[rng.below(free.len())]] = Some(piece);
    }
    let free: Vec<usize> = (0..8).filter(|&i| rank[i].is_none()).collect();
    rank[free[0]] = Some('r');
    rank[free[1]] = Some('k');
    rank[free[2]] = Some('r');
    let black: String = rank.iter().map(|c| c.unwrap_or('?')).collect();
    let white = black.to_ascii_uppercase();
    let files = |i: usize| (b'a' + i as u8) as char;
    let castling = format!(
        "{}{}{}{}",
        files(free[2]).to_ascii_uppercase(),
        files(free[0]).to_ascii_uppercase(),
        files(free[2]),
        files(free[0])
    );
    format!("{black}/pppppppp/8/8/8/8/PPPPPPPP/{white} w {castling} - 0 1")
}
