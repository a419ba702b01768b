//! Probe latency on a 1.5M-entry book, both formats: `cargo bench -p mysl-book --bench probe`.
//! The book is synthetic (random keys, 1–3 moves a position), which is the worst case for the mbk
//! index (no shared key prefixes).

use std::hint::black_box;
use std::io::Cursor;

use criterion::{criterion_group, criterion_main, Criterion};
use mysl_book::format::{BookWriter, MbkWriter, PolyglotWriter, Stats, WrittenMove};
use mysl_book::Book;
use mysl_core::{Chess, Move, Square, Variant};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

const ENTRIES: usize = 1_500_000;

fn synthetic_positions() -> Vec<(u64, Vec<WrittenMove>)> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut keys: Vec<u64> = (0..ENTRIES * 2 / 3).map(|_| rng.next()).collect();
    keys.sort_unstable();
    keys.dedup();
    let mut positions = Vec::new();
    let mut entries = 0;
    for key in keys {
        let n = 1 + (rng.next() % 2) as usize + usize::from(rng.next().is_multiple_of(8));
        let moves: Vec<WrittenMove> = (0..n)
            .map(|i| WrittenMove {
                mv: Move::normal(Square::from_index(i as u32), Square::from_index(20 + i as u32)),
                weight: (100 - i) as u16,
                stats: Stats { games: 7, white_wins: 3, draws: 2, black_wins: 2, elo_avg: 2500 },
            })
            .collect();
        entries += n;
        positions.push((key, moves));
        if entries >= ENTRIES {
            break;
        }
    }
    positions
}

fn bench_probe(c: &mut Criterion) {
    let positions = synthetic_positions();
    let mut poly = Vec::new();
    {
        let mut w = PolyglotWriter::new(&mut poly);
        for (k, m) in &positions {
            w.position(*k, m).expect("write");
        }
        w.finish().expect("finish");
    }
    let mut mbk = Cursor::new(Vec::new());
    {
        let mut w = MbkWriter::new(&mut mbk, Variant::Chess).expect("writer");
        for (k, m) in &positions {
            w.position(*k, m).expect("write");
        }
        w.finish().expect("finish");
    }
    let mbk = mbk.into_inner();
    let poly = Book::from_bytes(&poly, "synthetic.bin").expect("bin");
    let mbk_book = Book::from_bytes(&mbk, "synthetic.mbk").expect("mbk");
    eprintln!(
        "synthetic book: {} positions, {} entries; mbk {} bytes ({:.1} bytes/entry), bin {} bytes",
        positions.len(),
        poly.entries(),
        mbk.len(),
        mbk.len() as f64 / poly.entries() as f64,
        poly.entries() * 16
    );
    let mut rng = Rng(12345);
    let hits: Vec<u64> = (0..4096).map(|_| positions[(rng.next() % positions.len() as u64) as usize].0).collect();
    let misses: Vec<u64> = (0..4096).map(|_| rng.next()).collect();
    let mut i = 0;
    c.bench_function("polyglot lookup (hit, 1.5M entries)", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            black_box(poly.raw_entries(black_box(hits[i])))
        })
    });
    c.bench_function("mbk lookup (hit, 1.5M entries)", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            black_box(mbk_book.raw_entries(black_box(hits[i])))
        })
    });
    c.bench_function("mbk lookup (miss, 1.5M entries)", |b| {
        b.iter(|| {
            i = (i + 1) & 4095;
            black_box(mbk_book.raw_entries(black_box(misses[i])))
        })
    });
    let default = mysl_book::default_book().expect("default book");
    let start = Chess::startpos();
    c.bench_function("probe startpos in the default book (moves matched to legal moves)", |b| {
        b.iter(|| black_box(default.probe(black_box(&start))))
    });
}

criterion_group!(benches, bench_probe);
criterion_main!(benches);
