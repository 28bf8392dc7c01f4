//! Game engines built on the algorithms: rules from `GAMES.md`.

pub mod amazons;
pub mod puyo;
pub mod tetris;
