//go:build noofi

package ofi

import (
	"errors"
	"time"
	"unsafe"

	"gompi/btl"
)

// Built with -tags noofi (no libfabric on the build machine): jobs on one
// node work as before, a job spanning nodes fails at MPI_Init saying why.

type Config struct {
	Provider, Domain string
	Me, Size         int
	Slots, SlotBytes int
	Check            func(src int, tag uint8, body []byte) error
	ReadChunk        int
	ReadsInFlight    int
	GetMin           int
	NoRead, NoInject bool
}

type Module struct{}

func Open(Config, btl.Handler) (*Module, error) {
	return nil, errors.New("ofi: this library was built without libfabric (-tags noofi)")
}

func (*Module) Name() string                                                    { return "ofi" }
func (*Module) Address() ([]byte, error)                                        { return nil, errors.New("ofi: not built") }
func (*Module) Provider() string                                                { return "" }
func (*Module) Connect(int, []byte) error                                       { return errors.New("ofi: not built") }
func (*Module) EagerLimit() int                                                 { return 0 }
func (*Module) SendI(int, uint8, unsafe.Pointer, int, unsafe.Pointer, int) bool { return false }
func (*Module) Get(int, unsafe.Pointer, int, uintptr) error                     { return errors.New("ofi: not built") }
func (*Module) CanGet(int) bool                                                 { return false }
func (*Module) PreferredProtocol(int, int) btl.Protocol                         { return btl.ProtoSend }
func (*Module) Progress() int                                                   { return 0 }
func (*Module) Idle(time.Duration)                                              {}
func (*Module) Drain(time.Duration) bool                                        { return true }
func (*Module) Close() error                                                    { return nil }

type FastNet struct {
	G, Send, Peek, Pop unsafe.Pointer
}

func (*Module) Fast() FastNet { return FastNet{} }

func (*Module) ReadFrom(int) int { return 0 }

func (*Module) Reaches(int) bool { return false }
