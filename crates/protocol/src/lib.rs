//! mysl-protocol: the UCI and xboard (CECP v2) front ends over a protocol-independent session.
//! Pure line-in/line-out: the binary connects them to stdin/stdout, tests feed transcripts.

pub mod session;
pub mod uci;
pub mod xboard;

pub use session::{Game, Output, Sandbox, Session};
pub use uci::{Flow, Uci};
pub use xboard::Xboard;

/// A protocol loop that picks UCI or xboard from its first meaningful line.
pub enum Protocol {
    Undecided(Output),
    Uci(Box<Uci>),
    Xboard(Box<Xboard>),
}

impl std::fmt::Debug for Protocol {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Protocol::Undecided(_) => write!(f, "Protocol::Undecided"),
            Protocol::Uci(_) => write!(f, "Protocol::Uci"),
            Protocol::Xboard(_) => write!(f, "Protocol::Xboard"),
        }
    }
}

impl Protocol {
    pub fn new(out: Output) -> Protocol {
        Protocol::Undecided(out)
    }

    pub fn handle(&mut self, line: &str) -> Flow {
        if let Protocol::Undecided(out) = self {
            let first = line.split_whitespace().next().unwrap_or("");
            let out = out.clone();
            match first {
                "" => return Flow::Continue,
                "xboard" => *self = Protocol::Xboard(Box::new(Xboard::new(out))),
                "quit" => return Flow::Quit,
                // UCI is the default: most GUIs and tools speak it.
                _ => *self = Protocol::Uci(Box::new(Uci::new(out))),
            }
        }
        match self {
            Protocol::Uci(u) => u.handle(line),
            Protocol::Xboard(x) => x.handle(line),
            Protocol::Undecided(_) => Flow::Continue,
        }
    }

    pub fn finish(&mut self) {
        match self {
            Protocol::Uci(u) => u.session.finish(),
            Protocol::Xboard(x) => x.finish(),
            Protocol::Undecided(_) => {}
        }
    }
}
