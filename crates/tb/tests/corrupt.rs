//! Damaged table files, many of them (docs/reliability.md): 1,500 seeded variants of a small table
//! (KRvK) — truncations, single flipped bytes, overwritten runs — each either refused with an error
//! naming the file or, where the damage changed nothing, answering exactly as the intact file; never
//! a wrong value, never a panic. Then 1,000 variants with the checksum set right again (damage the
//! checksum cannot see): these must never panic, whatever they answer.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use mysl_core::rng::SplitMix64;
use mysl_tb::format::path_for;
use mysl_tb::read::TableFile;
use mysl_tb::value::INVALID;
use mysl_tb::write::write_table;
use mysl_tb::{Generator, Material, Silent, Table};

/// (side, storage index, stored values) of every valid position, every `step`-th.
fn sample(t: &Table, step: usize) -> Vec<(usize, u64, (i16, i16))> {
    let mut out = Vec::new();
    let mut sq = [0u8; 8];
    let n = t.layout.len();
    for side in 0..2 {
        for i in (0..t.layout.size as usize).step_by(step) {
            if t.dtm[side][i] != INVALID {
                t.layout.decode(i as u64, &mut sq).expect("a valid entry decodes");
                let s = t.layout.storage_index(&sq[..n]).expect("a valid entry has a storage index");
                out.push((side, s, (t.dtm[side][i], t.dtz[side][i])));
            }
        }
    }
    out
}

/// One damaged variant: `(kind, bytes)` with a seeded damage of the intact file.
fn damage(good: &[u8], rng: &mut SplitMix64, k: usize) -> (&'static str, Vec<u8>) {
    let n = good.len() as u64;
    let mut b = good.to_vec();
    match k % 3 {
        0 => {
            b.truncate(rng.below(n) as usize);
            ("truncated", b)
        }
        1 => {
            let at = rng.below(n) as usize;
            b[at] ^= 1 + rng.below(255) as u8;
            ("flipped", b)
        }
        _ => {
            let at = rng.below(n) as usize;
            let len = (1 + rng.below(16) as usize).min(b.len() - at);
            for x in &mut b[at..at + len] {
                *x = rng.next_u64() as u8;
            }
            ("overwritten", b)
        }
    }
}

fn krk() -> (Material, Arc<Table>, Vec<u8>) {
    let mut g = Generator::new(2);
    let m = Material::parse("KRvK").expect("test value");
    g.generate(m, &Silent);
    let t = g.tables[&m].clone();
    let dir = tempfile::tempdir().expect("tempdir");
    let good = std::fs::read(write_table(dir.path(), &t).expect("write")).expect("read");
    (m, t, good)
}

#[test]
fn damaged_tables_give_an_error_or_the_right_values() {
    let (m, t, good) = krk();
    let expected = sample(&t, 3);
    let path = path_for(Path::new("/damaged"), &m);
    let intact = TableFile::from_bytes(&path, good.clone(), Some(m)).expect("the intact file opens");
    assert!(expected.iter().all(|&(side, s, v)| intact.get(side, s).expect("get") == v));
    let mut rng = SplitMix64::new(0x7ab1e);
    let (mut refused, mut same) = (0, 0);
    for k in 0..1500 {
        let (kind, b) = damage(&good, &mut rng, k);
        let unchanged = b == good;
        match TableFile::from_bytes(&path, b, Some(m)) {
            Err(e) => {
                let text = e.to_string();
                assert!(text.contains("KRvK.mtb"), "variant {k} ({kind}): the error names the file: {text}");
                refused += 1;
            }
            Ok(f) => {
                // Opened: every value must be the intact one (the CRC-32 over the file catches any
                // change a variant here makes, so only an overwrite with the same bytes gets here).
                assert!(unchanged, "variant {k} ({kind}): a damaged file was accepted");
                for &(side, s, v) in &expected {
                    assert_eq!(f.get(side, s).ok(), Some(v), "variant {k} ({kind}): a wrong value");
                }
                same += 1;
            }
        }
    }
    println!("1500 damaged KRvK files: {refused} refused, {same} unchanged and right");
    assert!(refused > 1400);
}

#[test]
fn damage_behind_a_valid_checksum_never_panics() {
    let (m, _, good) = krk();
    let path = path_for(Path::new("/damaged"), &m);
    let mut rng = SplitMix64::new(0xc4c);
    let subs: HashMap<Material, Arc<Table>> = HashMap::new();
    let mut opened = 0;
    for k in 0..1000 {
        let (_, mut b) = damage(&good, &mut rng, 1 + k % 2);
        if b.len() >= 4 {
            let body = b.len() - 4;
            let crc = crc32fast::hash(&b[..body]);
            b[body..].copy_from_slice(&crc.to_le_bytes());
        }
        let result = std::panic::catch_unwind(|| {
            if let Ok(f) = TableFile::from_bytes(&path, b, Some(m)) {
                // Decoding the whole file is the slow part: one variant in five.
                if k % 5 == 0 {
                    let _ = f.to_table(&subs);
                }
                let size = f.layout.storage_size;
                for side in 0..2 {
                    for s in (0..size).step_by(97) {
                        let _ = f.wdl(side, s);
                        let _ = f.metrics(side, s);
                    }
                }
                return true;
            }
            false
        });
        match result {
            Ok(o) => opened += usize::from(o),
            Err(_) => panic!("variant {k}: a damaged table behind a valid checksum panicked"),
        }
    }
    println!("1000 damaged KRvK files with valid checksums: {opened} opened, none panicked");
}

/// Found by the test above (variant 0, seed 0xc4c): a byte flipped in a DTZ block, the checksum set
/// right. Decoding the whole file walks on after the block fails to decode, and the next value was
/// read from the half-decoded block: an index out of bounds. It is an error now.
#[test]
fn a_block_that_fails_to_decode_stays_an_error() {
    let (m, _, good) = krk();
    let mut rng = SplitMix64::new(0xc4c);
    let (_, mut b) = damage(&good, &mut rng, 1);
    let body = b.len() - 4;
    let crc = crc32fast::hash(&b[..body]);
    b[body..].copy_from_slice(&crc.to_le_bytes());
    let f = TableFile::from_bytes(&path_for(Path::new("/damaged"), &m), b, Some(m)).expect("the header is intact");
    let e = f.to_table(&HashMap::new()).expect_err("a damaged block");
    assert!(e.to_string().contains("corrupt"), "{e}");
}

/// Found by the `tb` fuzz target (fuzz/regressions/tb/wdl-value-out-of-range: a KRvK file mutated
/// behind a checksum the fuzzer set right): a WDL stream whose value table holds 68. The file opened
/// and `Tablebases::probe_wdl` answered WDL 68 to the engine. A WDL value outside -2..=2 now makes
/// the file corrupt when it is opened.
#[test]
fn a_wdl_value_out_of_range_is_refused() {
    let (m, _, good) = krk();
    let path = path_for(Path::new("/damaged"), &m);
    for (value, stream) in [(68i16, 0usize), (-3, 1), (3, 0)] {
        let mut b = good.clone();
        // The directory entry of the stream (offset at 48 + 16 s), its value table 16 bytes into the
        // section (the codec tag, then a pair-coded section's 12-byte header): the first value replaced.
        let at = u64::from_le_bytes(b[48 + 16 * stream..56 + 16 * stream].try_into().expect("8 bytes")) as usize;
        assert_eq!(b[at..at + 4], 1u32.to_le_bytes(), "a small table's streams are pair coded");
        b[at + 16..at + 18].copy_from_slice(&value.to_le_bytes());
        let body = b.len() - 4;
        let crc = crc32fast::hash(&b[..body]);
        b[body..].copy_from_slice(&crc.to_le_bytes());
        let e = TableFile::from_bytes(&path, b, Some(m)).expect_err("a WDL value out of range");
        assert!(e.to_string().contains(&format!("WDL value {value} out of range")), "{e}");
    }
    // The fuzzer's input (byte 0: set the CRC right; a file of format version 3), refused at once.
    let input = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/regressions/tb/wdl-value-out-of-range"))
        .expect("the kept input");
    let mut b = input[1..].to_vec();
    let body = b.len() - 4;
    let crc = crc32fast::hash(&b[..body]);
    b[body..].copy_from_slice(&crc.to_le_bytes());
    let name = std::str::from_utf8(&b[12..28]).expect("ASCII").trim_end_matches('\0').to_string();
    let m = Material::parse(&name).expect("the file names its ending");
    let e = TableFile::from_bytes(&path_for(Path::new("/fuzzed"), &m), b, Some(m)).expect_err("refused");
    assert!(e.to_string().contains("WDL value") || e.to_string().contains("format version 3"), "{e}");
}
