//! Per-cell reference for the `puyo` topic: filled in by its issue.
