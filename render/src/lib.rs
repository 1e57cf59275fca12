//! Draws an engine View as a PNG board. Knows no rules.
