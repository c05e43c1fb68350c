package sm

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// A segment short of room shrinks its rings to 256 KiB, then drops the big
// collective slots, then shrinks the rings to MinRingSize, then gives up.
func TestLayoutDegrade(t *testing.T) {
	l := layout{ring: 1 << 20, big: CollBig}
	var seen []layout
	for {
		seen = append(seen, l)
		next, ok := l.degrade()
		if !ok {
			break
		}
		require.Less(t, segmentSize(8, next.ring, next.big), segmentSize(8, l.ring, l.big))
		l = next
	}
	require.Equal(t, []layout{{1 << 20, CollBig}, {512 << 10, CollBig}, {256 << 10, CollBig},
		{256 << 10, 0}, {128 << 10, 0}, {64 << 10, 0}}, seen)
}

// The shortage error names the size, the directory and the fix.
func TestShortageMessage(t *testing.T) {
	err := shortage(t.TempDir(), 8, 40<<20, errNoSpace)
	require.ErrorContains(t, err, "8 processes on this node need 40.0 MiB in ")
	require.ErrorContains(t, err, "--shm-size=104m")
	require.ErrorContains(t, err, "unset GOMPI_SM_DIR")
	err = shortage("", 8, 40<<20, errNoSpace)
	require.ErrorContains(t, err, "need 40.0 MiB of shared memory")
}

var errNoSpace = noSpaceErr{}

type noSpaceErr struct{}

func (noSpaceErr) Error() string { return "no space left on device" }
