//! The games in memory: a map from id to a game behind its own lock, at most a fixed number of them,
//! the least recently used dropped beyond that.
//!
//! The map's lock (`AppState::games`) is held only to look a game up, insert or drop one; replaying a
//! game for its view, playing a move or searching locks only that game (issue 24, docs/reliability.md).
//! Lock order: never take the map's lock while holding a game's.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use crate::game::Game;

/// A game as the server shares it: handlers and engine threads lock it one at a time.
pub type SharedGame = Arc<Mutex<Game>>;

#[derive(Debug)]
struct Entry {
    game: SharedGame,
    /// The use counter's value at the game's last use (its creation or a client's request).
    last_used: u64,
}

/// Games by id, with the order of their last use (a counter, not a clock: the order is exact).
#[derive(Debug)]
pub struct Games {
    map: BTreeMap<u64, Entry>,
    uses: u64,
    capacity: usize,
}

impl Games {
    /// An empty map keeping at most `capacity` games (at least one).
    pub fn new(capacity: usize) -> Games {
        Games { map: BTreeMap::new(), uses: 0, capacity: capacity.max(1) }
    }

    fn tick(&mut self) -> u64 {
        self.uses += 1;
        self.uses
    }

    /// Game `id` for a client's request: it becomes the most recently used.
    pub fn get(&mut self, id: u64) -> Option<SharedGame> {
        let now = self.tick();
        let entry = self.map.get_mut(&id)?;
        entry.last_used = now;
        Some(entry.game.clone())
    }

    /// Game `id` without counting a use (the engine's own moves, a finished analysis kept with its game).
    pub fn peek(&self, id: u64) -> Option<SharedGame> {
        self.map.get(&id).map(|e| e.game.clone())
    }

    /// Adds a game as the most recently used; beyond the capacity the least recently used games are
    /// dropped and returned (the caller stops their engines, outside this map's lock).
    pub fn insert(&mut self, id: u64, game: Game) -> (SharedGame, Vec<SharedGame>) {
        let mut dropped = Vec::new();
        while self.map.len() >= self.capacity && !self.map.contains_key(&id) {
            let Some(lru) = self.map.iter().min_by_key(|(_, e)| e.last_used).map(|(&id, _)| id) else { break };
            if let Some(e) = self.map.remove(&lru) {
                dropped.push(e.game);
            }
        }
        let last_used = self.tick();
        let game = Arc::new(Mutex::new(game));
        if let Some(old) = self.map.insert(id, Entry { game: game.clone(), last_used }) {
            dropped.push(old.game);
        }
        (game, dropped)
    }

    /// Every game (to stop their engines).
    pub fn all(&self) -> Vec<SharedGame> {
        self.map.values().map(|e| e.game.clone()).collect()
    }

    /// The ids kept, in increasing order.
    pub fn ids(&self) -> Vec<u64> {
        self.map.keys().copied().collect()
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    pub fn capacity(&self) -> usize {
        self.capacity
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;

    fn game(id: u64) -> Game {
        Game {
            id,
            variant: mysl_core::Variant::Chess,
            start_fen: "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1".into(),
            moves: Vec::new(),
            roll: None,
            players: [Player::Human; 2],
            level: 1,
            clock: None,
            result: None,
            version: 0,
            engine_stop: None,
            analysis: None,
        }
    }

    fn ids_of(dropped: &[SharedGame]) -> Vec<u64> {
        dropped.iter().map(|g| crate::lock(g).id).collect()
    }

    #[test]
    fn the_least_recently_used_game_is_dropped_not_the_oldest() {
        let mut games = Games::new(3);
        for id in 1..=3 {
            assert!(games.insert(id, game(id)).1.is_empty());
        }
        // 1 is the oldest but used again: 2 is now the least recently used.
        assert!(games.get(1).is_some());
        assert_eq!(ids_of(&games.insert(4, game(4)).1), [2]);
        assert_eq!(games.ids(), [1, 3, 4]);
        // then 3 (1 was used after it), then 1, then 4
        assert_eq!(ids_of(&games.insert(5, game(5)).1), [3]);
        assert_eq!(ids_of(&games.insert(6, game(6)).1), [1]);
        assert!(games.get(5).is_some());
        assert_eq!(ids_of(&games.insert(7, game(7)).1), [4]);
        assert_eq!(games.ids(), [5, 6, 7]);
        assert_eq!(games.len(), 3);
    }

    #[test]
    fn a_peek_does_not_count_as_a_use_and_a_missing_game_changes_nothing() {
        let mut games = Games::new(2);
        games.insert(1, game(1));
        games.insert(2, game(2));
        assert!(games.peek(1).is_some());
        assert!(games.get(99).is_none());
        assert!(games.peek(99).is_none());
        assert_eq!(ids_of(&games.insert(3, game(3)).1), [1]);
        assert_eq!(games.ids(), [2, 3]);
    }

    #[test]
    fn the_map_hands_out_the_game_itself() {
        let mut games = Games::new(4);
        let (shared, _) = games.insert(1, game(1));
        crate::lock(&shared).version = 7;
        assert_eq!(games.get(1).map(|g| crate::lock(&g).version), Some(7));
        assert!(Arc::ptr_eq(&shared, &games.peek(1).expect("game 1")));
        assert_eq!(games.all().len(), 1);
        assert_eq!(Games::new(0).capacity(), 1);
    }
}
