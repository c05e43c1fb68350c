//go:build !race

package op

const raceOn = false
