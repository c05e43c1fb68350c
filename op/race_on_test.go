//go:build race

package op

// raceOn: the race detector is on, so operands passed by address escape to
// the heap and allocation counts say nothing about the code under test.
const raceOn = true
