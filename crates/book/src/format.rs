//! Book files: Polyglot `.bin` (16-byte big-endian entries) and mysl's `.mbk` (full statistics, about
//! 10 bytes an entry, checksummed). Both are read whole and checked when opened, so a damaged file is
//! refused with a clear error instead of giving a wrong move later. See `docs/formats.md`.

use std::io::{self, Seek, SeekFrom, Write};
use std::path::Path;

use mysl_core::{Move, MoveKind, MoveList, Position, Role, Rules, Square, Variant};

/// What the games say about a book move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    pub games: u32,
    pub white_wins: u32,
    pub draws: u32,
    pub black_wins: u32,
    /// Average Elo of the players who made the move; 0 when none was rated.
    pub elo_avg: u16,
}

/// One move as a builder writes it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WrittenMove {
    pub mv: Move,
    pub weight: u16,
    pub stats: Stats,
}

/// A book format's writer: positions arrive in increasing key order, moves best first.
pub trait BookWriter {
    fn position(&mut self, key: u64, moves: &[WrittenMove]) -> io::Result<()>;
    fn finish(&mut self) -> io::Result<()>;
}

#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error("{path}: {source}")]
    Io {
        path: String,
        #[source]
        source: io::Error,
    },
    #[error("{path}: {size} bytes is not a whole number of 16-byte Polyglot entries (truncated or not a book)")]
    OddLength { path: String, size: usize },
    #[error("{path}: entry {index} (byte {}) has key {key:016x} below the previous key: entries are not sorted", .index * 16)]
    Unsorted { path: String, index: usize, key: u64 },
    #[error("{path}: mysl book version {version} is not supported (this mysl reads version {MBK_VERSION})")]
    Version { path: String, version: u16 },
    #[error("{path}: truncated mysl book: the header promises {expected} bytes, the file has {found}")]
    Truncated { path: String, expected: u64, found: u64 },
    #[error("{path}: checksum mismatch (stored {stored:08x}, computed {computed:08x}): the book is damaged")]
    Checksum { path: String, stored: u32, computed: u32 },
    #[error("{path}: corrupt mysl book: {what}")]
    Corrupt { path: String, what: String },
}

/// Polyglot's 16-bit move: to (bits 0–5), from (6–11), promotion (12–14: n b r q = 1..4); castling is
/// king-takes-rook. Drops and king promotions have no Polyglot form.
pub fn polyglot_move(mv: Move) -> Option<u16> {
    let promo = match mv.kind() {
        MoveKind::PromoteKnight => 1,
        MoveKind::PromoteBishop => 2,
        MoveKind::PromoteRook => 3,
        MoveKind::PromoteQueen => 4,
        MoveKind::Normal | MoveKind::Castle | MoveKind::EnPassant => 0,
        _ => return None,
    };
    Some(mv.to().index() as u16 | ((mv.from().index() as u16) << 6) | (promo << 12))
}

/// The legal move a Polyglot move names in `pos`, if any.
pub fn decode_polyglot_move(raw: u16, legal: &MoveList) -> Option<Move> {
    let to = Square::from_index(u32::from(raw & 63));
    let from = Square::from_index(u32::from((raw >> 6) & 63));
    let promo = match (raw >> 12) & 7 {
        0 => None,
        1 => Some(Role::Knight),
        2 => Some(Role::Bishop),
        3 => Some(Role::Rook),
        4 => Some(Role::Queen),
        _ => return None,
    };
    legal.iter().find(|m| m.from() == from && m.to() == to && m.promotion() == promo && m.drop_role().is_none())
}

/// Writes a Polyglot `.bin`: 16-byte entries, key then weight order (the order positions arrive in).
#[derive(Debug)]
pub struct PolyglotWriter<W: Write> {
    out: W,
    /// Moves Polyglot cannot express (drops), left out.
    pub skipped: u64,
}

impl<W: Write> PolyglotWriter<W> {
    pub fn new(out: W) -> PolyglotWriter<W> {
        PolyglotWriter { out, skipped: 0 }
    }
}

impl<W: Write> BookWriter for PolyglotWriter<W> {
    fn position(&mut self, key: u64, moves: &[WrittenMove]) -> io::Result<()> {
        for m in moves {
            let Some(raw) = polyglot_move(m.mv) else {
                self.skipped += 1;
                continue;
            };
            let mut e = [0u8; 16];
            e[0..8].copy_from_slice(&key.to_be_bytes());
            e[8..10].copy_from_slice(&raw.to_be_bytes());
            e[10..12].copy_from_slice(&m.weight.to_be_bytes());
            self.out.write_all(&e)?;
        }
        Ok(())
    }
    fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

pub const MBK_MAGIC: &[u8; 8] = b"MYSLBOOK";
pub const MBK_VERSION: u16 = 1;
const MBK_HEADER: usize = 64;
/// Positions per index block: a probe decodes at most this many position headers.
const MBK_BLOCK: u64 = 16;

fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

fn get_varint(data: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *data.get(*pos)?;
        *pos += 1;
        v |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(v);
        }
    }
    None
}

/// Writes a mysl `.mbk`: a 64-byte header, the positions (delta-coded keys and varint statistics), a
/// block index (first key and offset of every 16 positions), and a CRC-32 of all but the header.
#[derive(Debug)]
pub struct MbkWriter<W: Write + Seek> {
    out: W,
    variant: Variant,
    crc: crc32fast::Hasher,
    body_len: u64,
    positions: u64,
    entries: u64,
    prev_key: u64,
    index: Vec<(u64, u64)>,
    buf: Vec<u8>,
}

impl<W: Write + Seek> MbkWriter<W> {
    pub fn new(mut out: W, variant: Variant) -> io::Result<MbkWriter<W>> {
        out.write_all(&[0u8; MBK_HEADER])?;
        Ok(MbkWriter {
            out,
            variant,
            crc: crc32fast::Hasher::new(),
            body_len: 0,
            positions: 0,
            entries: 0,
            prev_key: 0,
            index: Vec::new(),
            buf: Vec::new(),
        })
    }
}

impl<W: Write + Seek> BookWriter for MbkWriter<W> {
    fn position(&mut self, key: u64, moves: &[WrittenMove]) -> io::Result<()> {
        if self.positions > 0 && key <= self.prev_key {
            return Err(io::Error::other("positions must be written in increasing key order"));
        }
        self.buf.clear();
        if self.positions.is_multiple_of(MBK_BLOCK) {
            self.index.push((key, self.body_len));
            put_varint(&mut self.buf, 0);
        } else {
            put_varint(&mut self.buf, key - self.prev_key);
        }
        put_varint(&mut self.buf, moves.len() as u64);
        for m in moves {
            // Games are not stored: they are white wins + draws + black wins.
            self.buf.extend_from_slice(&m.mv.bits().to_le_bytes());
            put_varint(&mut self.buf, u64::from(m.weight));
            put_varint(&mut self.buf, u64::from(m.stats.white_wins));
            put_varint(&mut self.buf, u64::from(m.stats.draws));
            put_varint(&mut self.buf, u64::from(m.stats.black_wins));
            put_varint(&mut self.buf, u64::from(m.stats.elo_avg));
        }
        self.out.write_all(&self.buf)?;
        self.crc.update(&self.buf);
        self.body_len += self.buf.len() as u64;
        self.prev_key = key;
        self.positions += 1;
        self.entries += moves.len() as u64;
        Ok(())
    }

    fn finish(&mut self) -> io::Result<()> {
        let mut index = Vec::with_capacity(self.index.len() * 16);
        for (key, offset) in &self.index {
            index.extend_from_slice(&key.to_le_bytes());
            index.extend_from_slice(&offset.to_le_bytes());
        }
        self.out.write_all(&index)?;
        self.crc.update(&index);
        let mut h = [0u8; MBK_HEADER];
        h[0..8].copy_from_slice(MBK_MAGIC);
        h[8..10].copy_from_slice(&MBK_VERSION.to_le_bytes());
        h[10] = Variant::ALL.iter().position(|v| *v == self.variant).unwrap_or(0) as u8;
        h[12..14].copy_from_slice(&(MBK_BLOCK as u16).to_le_bytes());
        h[16..24].copy_from_slice(&self.positions.to_le_bytes());
        h[24..32].copy_from_slice(&self.entries.to_le_bytes());
        h[32..40].copy_from_slice(&self.body_len.to_le_bytes());
        h[40..48].copy_from_slice(&(self.index.len() as u64).to_le_bytes());
        h[48..52].copy_from_slice(&self.crc.clone().finalize().to_le_bytes());
        self.out.seek(SeekFrom::Start(0))?;
        self.out.write_all(&h)?;
        self.out.flush()
    }
}

/// A book move found for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    pub weight: u16,
    pub learn: u32,
    /// Statistics (mysl books only).
    pub stats: Option<Stats>,
}

/// A raw entry as stored, before it is matched against a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RawEntry {
    pub key: u64,
    /// Polyglot move bits (Polyglot books) or mysl move bits (mysl books).
    pub mv: u16,
    pub weight: u16,
    pub learn: u32,
    pub stats: Option<Stats>,
}

/// An opening book in memory, either format.
#[derive(Debug)]
pub enum Book {
    Polyglot(PolyglotBook),
    Mbk(MbkBook),
}

#[derive(Debug)]
pub struct PolyglotBook {
    keys: Vec<u64>,
    rest: Vec<(u16, u16, u32)>,
}

#[derive(Debug)]
pub struct MbkBook {
    variant: Variant,
    positions: u64,
    entries: u64,
    body: Vec<u8>,
    index_keys: Vec<u64>,
    index_offsets: Vec<u64>,
}

impl Book {
    /// Opens a book file; the format is recognised by its first bytes.
    pub fn open(path: impl AsRef<Path>) -> Result<Book, BookError> {
        let p = path.as_ref().display().to_string();
        let bytes = std::fs::read(path.as_ref()).map_err(|source| BookError::Io { path: p.clone(), source })?;
        Book::from_bytes(&bytes, &p)
    }

    /// Reads a book from memory; `name` is used in error messages.
    pub fn from_bytes(bytes: &[u8], name: &str) -> Result<Book, BookError> {
        if bytes.starts_with(MBK_MAGIC) {
            MbkBook::parse(bytes, name).map(Book::Mbk)
        } else {
            PolyglotBook::parse(bytes, name).map(Book::Polyglot)
        }
    }

    /// The variant a mysl book was built for (Polyglot books do not say).
    pub fn variant(&self) -> Option<Variant> {
        match self {
            Book::Polyglot(_) => None,
            Book::Mbk(b) => Some(b.variant),
        }
    }

    pub fn entries(&self) -> u64 {
        match self {
            Book::Polyglot(b) => b.keys.len() as u64,
            Book::Mbk(b) => b.entries,
        }
    }

    pub fn positions(&self) -> u64 {
        match self {
            Book::Polyglot(b) => {
                let mut n = 0;
                let mut prev = None;
                for &k in &b.keys {
                    if prev != Some(k) {
                        n += 1;
                    }
                    prev = Some(k);
                }
                n
            }
            Book::Mbk(b) => b.positions,
        }
    }

    /// The stored entries of a key, in file order.
    pub fn raw_entries(&self, key: u64) -> Vec<RawEntry> {
        match self {
            Book::Polyglot(b) => b.raw_entries(key),
            Book::Mbk(b) => b.raw_entries(key).unwrap_or_default(),
        }
    }

    /// The book's legal moves in `pos`, in file order (best weight first). Entries whose move is not
    /// legal there (a key collision or a damaged entry) are left out.
    pub fn probe<R: Rules>(&self, pos: &Position<R>) -> Vec<BookMove> {
        let raw = self.raw_entries(pos.key());
        if raw.is_empty() {
            return Vec::new();
        }
        let legal = pos.legal_moves();
        raw.iter()
            .filter_map(|e| {
                let mv = match self {
                    Book::Polyglot(_) => decode_polyglot_move(e.mv, &legal)?,
                    Book::Mbk(_) => Move::from_bits(e.mv).filter(|m| legal.contains(*m))?,
                };
                Some(BookMove { mv, weight: e.weight, learn: e.learn, stats: e.stats })
            })
            .collect()
    }
}

impl PolyglotBook {
    fn parse(bytes: &[u8], name: &str) -> Result<PolyglotBook, BookError> {
        if !bytes.len().is_multiple_of(16) {
            return Err(BookError::OddLength { path: name.to_string(), size: bytes.len() });
        }
        let n = bytes.len() / 16;
        let mut keys = Vec::with_capacity(n);
        let mut rest = Vec::with_capacity(n);
        for (i, e) in bytes.chunks_exact(16).enumerate() {
            let key = u64::from_be_bytes([e[0], e[1], e[2], e[3], e[4], e[5], e[6], e[7]]);
            if keys.last().is_some_and(|&prev| key < prev) {
                return Err(BookError::Unsorted { path: name.to_string(), index: i, key });
            }
            keys.push(key);
            rest.push((
                u16::from_be_bytes([e[8], e[9]]),
                u16::from_be_bytes([e[10], e[11]]),
                u32::from_be_bytes([e[12], e[13], e[14], e[15]]),
            ));
        }
        Ok(PolyglotBook { keys, rest })
    }

    fn raw_entries(&self, key: u64) -> Vec<RawEntry> {
        let start = self.keys.partition_point(|&k| k < key);
        let mut out = Vec::new();
        let mut i = start;
        while i < self.keys.len() && self.keys[i] == key {
            let (mv, weight, learn) = self.rest[i];
            out.push(RawEntry { key, mv, weight, learn, stats: None });
            i += 1;
        }
        out
    }

    /// True when the book holds the key (no allocation; the hot path of `probe` benchmarks).
    pub fn contains(&self, key: u64) -> bool {
        self.keys.binary_search(&key).is_ok()
    }
}

fn le_u64(b: &[u8], at: usize) -> u64 {
    let mut a = [0u8; 8];
    a.copy_from_slice(&b[at..at + 8]);
    u64::from_le_bytes(a)
}

impl MbkBook {
    fn parse(bytes: &[u8], name: &str) -> Result<MbkBook, BookError> {
        let corrupt = |what: &str| BookError::Corrupt { path: name.to_string(), what: what.to_string() };
        if bytes.len() < MBK_HEADER {
            return Err(BookError::Truncated {
                path: name.to_string(),
                expected: MBK_HEADER as u64,
                found: bytes.len() as u64,
            });
        }
        let version = u16::from_le_bytes([bytes[8], bytes[9]]);
        if version != MBK_VERSION {
            return Err(BookError::Version { path: name.to_string(), version });
        }
        let variant = *Variant::ALL.get(usize::from(bytes[10])).ok_or_else(|| corrupt("unknown variant number"))?;
        let block = u64::from(u16::from_le_bytes([bytes[12], bytes[13]]));
        let positions = le_u64(bytes, 16);
        let entries = le_u64(bytes, 24);
        let body_len = le_u64(bytes, 32);
        let blocks = le_u64(bytes, 40);
        let stored = u32::from_le_bytes([bytes[48], bytes[49], bytes[50], bytes[51]]);
        let expected = (MBK_HEADER as u64)
            .checked_add(body_len)
            .and_then(|v| blocks.checked_mul(16).and_then(|b| v.checked_add(b)))
            .ok_or_else(|| corrupt("sizes in the header overflow"))?;
        if expected != bytes.len() as u64 {
            return Err(BookError::Truncated { path: name.to_string(), expected, found: bytes.len() as u64 });
        }
        let computed = crc32fast::hash(&bytes[MBK_HEADER..]);
        if computed != stored {
            return Err(BookError::Checksum { path: name.to_string(), stored, computed });
        }
        if block != MBK_BLOCK || blocks != positions.div_ceil(MBK_BLOCK) {
            return Err(corrupt("the block index does not match the position count"));
        }
        let body_end = MBK_HEADER + body_len as usize;
        let body = bytes[MBK_HEADER..body_end].to_vec();
        let mut index_keys = Vec::with_capacity(blocks as usize);
        let mut index_offsets = Vec::with_capacity(blocks as usize);
        for chunk in bytes[body_end..].chunks_exact(16) {
            let key = le_u64(chunk, 0);
            let offset = le_u64(chunk, 8);
            if index_keys.last().is_some_and(|&k| key <= k) || index_offsets.last().is_some_and(|&o| offset <= o) {
                return Err(corrupt("the block index is not sorted"));
            }
            if offset >= body_len {
                return Err(corrupt("a block starts past the end of the positions"));
            }
            index_keys.push(key);
            index_offsets.push(offset);
        }
        Ok(MbkBook { variant, positions, entries, body, index_keys, index_offsets })
    }

    /// Finds a key's moves: binary search on the block index, then a walk of at most one block.
    fn raw_entries(&self, key: u64) -> Option<Vec<RawEntry>> {
        let block = self.index_keys.partition_point(|&k| k <= key).checked_sub(1)?;
        let mut at = self.index_offsets[block] as usize;
        let end = self.index_offsets.get(block + 1).map_or(self.body.len(), |&o| o as usize);
        let mut k = self.index_keys[block];
        let data = &self.body[..end];
        let mut first = true;
        while at < end {
            let delta = get_varint(data, &mut at)?;
            if !first && delta == 0 {
                return None;
            }
            first = false;
            k = k.checked_add(delta)?;
            let n = get_varint(data, &mut at)?;
            if k > key {
                return Some(Vec::new());
            }
            let mut out = Vec::new();
            for _ in 0..n {
                let mv = u16::from_le_bytes([*data.get(at)?, *data.get(at + 1)?]);
                at += 2;
                let mut next = || get_varint(data, &mut at).map(|v| v.min(u64::from(u32::MAX)) as u32);
                let weight = next()?.min(65535) as u16;
                let white_wins = next()?;
                let draws = next()?;
                let black_wins = next()?;
                let elo_avg = next()?.min(65535) as u16;
                if k == key {
                    let games = white_wins.saturating_add(draws).saturating_add(black_wins);
                    let stats = Some(Stats { games, white_wins, draws, black_wins, elo_avg });
                    out.push(RawEntry { key, mv, weight, learn: 0, stats });
                }
            }
            if k == key {
                return Some(out);
            }
        }
        Some(Vec::new())
    }

    /// True when the book holds the key.
    pub fn contains(&self, key: u64) -> bool {
        self.raw_entries(key).is_some_and(|e| !e.is_empty())
    }
}

/// Picks a book move. `variety` 0–100: 50 plays moves in proportion to their weights (Polyglot's
/// rule), lower values favour the main lines (weight², at 0), higher values flatten the choice (all
/// book moves alike at 100). `random` is a uniform number in [0, 1).
pub fn choose_move(moves: &[BookMove], variety: u32, random: f64) -> Option<Move> {
    let exponent = 2.0 - f64::from(variety.min(100)) / 50.0;
    let weights: Vec<f64> =
        moves.iter().map(|m| if m.weight == 0 { 0.0 } else { f64::from(m.weight).powf(exponent) }).collect();
    let total: f64 = weights.iter().sum();
    if total <= 0.0 {
        return None;
    }
    let mut target = random.clamp(0.0, 1.0) * total;
    for (m, w) in moves.iter().zip(&weights) {
        if *w > 0.0 && target < *w {
            return Some(m.mv);
        }
        target -= w;
    }
    moves.iter().zip(&weights).rev().find(|(_, w)| **w > 0.0).map(|(m, _)| m.mv)
}

#[cfg(test)]
mod tests {
    use super::*;
    use mysl_core::Chess;

    #[test]
    fn varints_round_trip() {
        let mut buf = Vec::new();
        for v in [0u64, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            buf.clear();
            put_varint(&mut buf, v);
            let mut at = 0;
            assert_eq!(get_varint(&buf, &mut at), Some(v));
            assert_eq!(at, buf.len());
        }
        assert_eq!(get_varint(&[0x80, 0x80], &mut 0), None);
    }

    #[test]
    fn polyglot_castling_is_king_takes_rook() {
        let pos = Chess::from_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1").expect("fen");
        let legal = pos.legal_moves();
        let castle = legal.iter().find(|m| m.is_castle() && m.to().file() > m.from().file()).expect("O-O");
        let raw = polyglot_move(castle).expect("encodable");
        assert_eq!(raw, 7 | (4 << 6));
        assert_eq!(decode_polyglot_move(raw, &legal), Some(castle));
    }

    #[test]
    fn choice_follows_weights() {
        let pos = Chess::startpos();
        let legal = pos.legal_moves();
        let a = BookMove { mv: legal.get(0).expect("move"), weight: 3, learn: 0, stats: None };
        let b = BookMove { mv: legal.get(1).expect("move"), weight: 1, learn: 0, stats: None };
        let moves = [a, b];
        assert_eq!(choose_move(&moves, 50, 0.0), Some(a.mv));
        assert_eq!(choose_move(&moves, 50, 0.74), Some(a.mv));
        assert_eq!(choose_move(&moves, 50, 0.76), Some(b.mv));
        // Weight squared: 9 : 1.
        assert_eq!(choose_move(&moves, 0, 0.89), Some(a.mv));
        // Uniform.
        assert_eq!(choose_move(&moves, 100, 0.51), Some(b.mv));
        let zero = [BookMove { weight: 0, ..a }];
        assert_eq!(choose_move(&zero, 50, 0.5), None);
    }
}
