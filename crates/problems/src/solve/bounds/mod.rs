//! The sound pruning bounds of the search (docs/problems.md, "Pruning"): each removes only
//! lines that cannot be solutions.
//!
//! * `check_reach.rs`: help mate, can the mating side give check at all ([`check_reachable`]);
//! * `flights.rs`: help mate, can the mated king's flights all be covered or blocked
//!   ([`flights_coverable`]);
//! * `free.rs`: the s#1 free-defence bound and the stalemate bounds (free moves that a last
//!   move must take away).
//!
//! The intelligent mode's bound is in `solve/intelligent/`.

mod check_reach;
mod flights;
mod free;
#[cfg(test)]
mod tests;

pub(super) use self::check_reach::check_reachable;
pub(super) use self::flights::flights_coverable;
pub(super) use self::free::{disjoint_count, one_move_touches_all, FREE_MAX};
