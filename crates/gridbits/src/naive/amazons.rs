//! Per-cell reference for the `amazons` topic: filled in by its issue.
