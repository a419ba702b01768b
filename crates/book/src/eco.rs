//! Opening names: the lichess opening table (CC0, `data/openings.tsv`: ECO code, name, UCI moves),
//! keyed by the Zobrist key of each line's final position. A game is classified by walking back from
//! its last position to the latest one the table names, as lichess does.

use std::collections::HashMap;
use std::sync::OnceLock;

use mysl_core::uci::parse_uci_move;
use mysl_core::Chess;

const TABLE: &str = include_str!("../data/openings.tsv");

/// A named opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opening {
    pub eco: &'static str,
    pub name: &'static str,
}

fn table() -> &'static HashMap<u64, Opening> {
    static TABLE_BY_KEY: OnceLock<HashMap<u64, Opening>> = OnceLock::new();
    TABLE_BY_KEY.get_or_init(|| {
        let mut map = HashMap::new();
        for line in TABLE.lines() {
            let mut fields = line.split('\t');
            let (Some(eco), Some(name), Some(moves)) = (fields.next(), fields.next(), fields.next()) else {
                continue;
            };
            let mut pos = Chess::startpos();
            let mut ok = true;
            for text in moves.split_whitespace() {
                match parse_uci_move(&pos, text) {
                    Ok(mv) => pos.play_unchecked(mv),
                    Err(_) => {
                        ok = false;
                        break;
                    }
                }
            }
            if ok {
                map.insert(pos.key(), Opening { eco, name });
            }
        }
        map
    })
}

/// The number of named positions (3,807 in the shipped table).
pub fn len() -> usize {
    table().len()
}

/// The opening named for exactly this position key.
pub fn lookup(key: u64) -> Option<Opening> {
    table().get(&key).copied()
}

/// The opening of a game given the keys of its positions in order: the latest named one.
pub fn classify(keys: &[u64]) -> Option<Opening> {
    keys.iter().rev().find_map(|k| lookup(*k))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_indexed_and_classifies() {
        assert_eq!(len(), TABLE.lines().count());
        let mut pos = Chess::startpos();
        let mut keys = vec![pos.key()];
        for m in ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "h2h3"] {
            let mv = parse_uci_move(&pos, m).expect("legal");
            pos.play_unchecked(mv);
            keys.push(pos.key());
        }
        let o = classify(&keys).expect("named");
        assert_eq!(o.eco, "C70");
        assert!(o.name.starts_with("Ruy Lopez"), "{}", o.name);
    }
}
