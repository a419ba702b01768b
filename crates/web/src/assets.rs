//! The page's files, embedded in the binary so `mysl web` needs nothing else on disk.
//!
//! `vendor/chessground/` holds the chessground board (GPL-3.0-or-later, by lichess.org) exactly as
//! published on npm, fetched by `scripts/vendor-chessground.sh`, which checks its checksum.

/// (name under /assets/, contents, MIME type)
const FILES: &[(&str, &[u8], &str)] = &[
    ("index.html", include_bytes!("../assets/index.html"), "text/html; charset=utf-8"),
    ("app.js", include_bytes!("../assets/app.js"), "text/javascript; charset=utf-8"),
    ("style.css", include_bytes!("../assets/style.css"), "text/css; charset=utf-8"),
    ("favicon.svg", include_bytes!("../assets/favicon.svg"), "image/svg+xml"),
    (
        "vendor/chessground/chessground.min.js",
        include_bytes!("../assets/vendor/chessground/chessground.min.js"),
        "text/javascript; charset=utf-8",
    ),
    (
        "vendor/chessground/chessground.base.css",
        include_bytes!("../assets/vendor/chessground/chessground.base.css"),
        "text/css; charset=utf-8",
    ),
    (
        "vendor/chessground/chessground.brown.css",
        include_bytes!("../assets/vendor/chessground/chessground.brown.css"),
        "text/css; charset=utf-8",
    ),
    (
        "vendor/chessground/chessground.cburnett.css",
        include_bytes!("../assets/vendor/chessground/chessground.cburnett.css"),
        "text/css; charset=utf-8",
    ),
    ("vendor/chessground/LICENSE", include_bytes!("../assets/vendor/chessground/LICENSE"), "text/plain; charset=utf-8"),
];

/// An embedded file and its MIME type, by its name under `/assets/`.
pub fn get(name: &str) -> Option<(&'static [u8], &'static str)> {
    FILES.iter().find(|(n, _, _)| *n == name).map(|(_, bytes, mime)| (*bytes, *mime))
}

/// The names of all embedded files.
pub fn names() -> impl Iterator<Item = &'static str> {
    FILES.iter().map(|(n, _, _)| *n)
}
