//! Per-cell reference for the `fill` topic: filled in by its issue.
