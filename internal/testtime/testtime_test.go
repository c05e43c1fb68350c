package testtime

import (
	"testing"
	"time"
)

func TestUserScale(t *testing.T) {
	for v, want := range map[string]float64{"": 1, "2": 2, "0.5": 0.5, "0": 1, "-3": 1, "x": 1, "NaN": 1, "Inf": 1} {
		if got := userScale(v); got != want {
			t.Errorf("userScale(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestD(t *testing.T) {
	t.Setenv(EnvScale, "3")
	want := 3.0
	if Race {
		want *= RaceFactor
	}
	if got := D(10 * time.Second); got != time.Duration(want*10)*time.Second {
		t.Errorf("D(10s) = %v with scale %v", got, want)
	}
	if got := Seconds(5); got != int(want*5) {
		t.Errorf("Seconds(5) = %d with scale %v", got, want)
	}
}
