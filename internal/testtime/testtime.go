// Package testtime scales the deadlines of gompi's tests to the machine they
// run on. A deadline in a test is the point where waiting longer cannot help,
// never a measure of speed: it must hold on a slow, busy or race-instrumented
// machine. Tests write the time the work needs on a busy machine and pass it
// through D; the race detector multiplies it (the instrumented code runs
// several times slower), and GOMPI_TEST_TIMEOUT_SCALE multiplies it again for
// machines slower still.
package testtime

import (
	"math"
	"os"
	"strconv"
	"time"
)

// EnvScale names the user's multiplier of every test deadline (a positive
// number; unset, empty or invalid: 1).
const EnvScale = "GOMPI_TEST_TIMEOUT_SCALE"

// RaceFactor is how much longer deadlines are under the race detector: its
// instrumentation slows Go code 2-20x; the deadlines are already generous.
const RaceFactor = 4

// Race tells whether this binary was built with the race detector.
const Race = raceEnabled

// Scale is the factor D applies.
func Scale() float64 {
	f := 1.0
	if Race {
		f = RaceFactor
	}
	return f * userScale(os.Getenv(EnvScale))
}

func userScale(v string) float64 {
	s, err := strconv.ParseFloat(v, 64)
	if err != nil || !(s > 0) || math.IsInf(s, 0) {
		return 1
	}
	return s
}

// D scales the deadline d.
func D(d time.Duration) time.Duration {
	return time.Duration(float64(d) * Scale())
}

// Seconds is D for a whole number of seconds, rounded up: the form
// gompirun --timeout takes.
func Seconds(s int) int {
	return int(math.Ceil(float64(s) * Scale()))
}
