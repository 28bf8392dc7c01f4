//! Per-cell reference for the `components` topic: filled in by its issue.
