//! Per-cell reference for the `tetris` topic: filled in by its issue.
