// Package bench holds the tools that measure the engine: fixed opening
// sets, and an in-process self-play match between two configurations of the
// search (used to check that an evaluation or search change helps).
package bench
