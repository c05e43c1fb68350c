//go:build race

package op

// raceOn: the race detector is on, and its sync.Pool drops items at random,
// so pooled buffers are sometimes made again.
const raceOn = true
