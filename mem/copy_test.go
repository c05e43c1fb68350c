package mem

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

func TestBytesCopiesEverySize(t *testing.T) {
	for _, n := range []int{0, 1, 4095, 1 << 20, 1<<20 + 7, 3*piece + 1, Cacheable + 3} {
		src := make([]byte, n+5)
		for i := range src {
			src[i] = byte(i*7 + 1)
		}
		dst := make([]byte, n)
		require.Equal(t, n, Bytes(dst, src), "size %d", n)
		require.Equal(t, src[:n], dst, "size %d", n)
		if n > 0 {
			clear(dst)
			Copy(unsafe.Pointer(&dst[0]), unsafe.Pointer(&src[0]), n)
			require.Equal(t, src[:n], dst, "size %d", n)
		}
	}
}

func BenchmarkCopy1MiB(b *testing.B) {
	src, dst := make([]byte, 1<<20), make([]byte, 1<<20)
	b.SetBytes(1 << 20)
	for b.Loop() {
		Bytes(dst, src)
	}
}
