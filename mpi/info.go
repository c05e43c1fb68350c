package mpi

import (
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"

	"gompi/abi"
	"gompi/info"
)

var infos objTable[info.Info]

// envInfo is MPI_INFO_ENV, built on first use after Init.
var envInfo *info.Info

// NewInfoHandle registers in and returns its C handle.
func NewInfoHandle(in *info.Info) int32 {
	return abi.MakeHandle(abi.KindDirect, abi.ObjInfo, uint32(infos.add(in)))
}

// InfoFromHandle resolves an info handle; nil for MPI_INFO_NULL and for
// anything that is not a live info object.
func InfoFromHandle(h int32) *info.Info {
	if h == abi.InfoEnv {
		return InfoEnv()
	}
	if abi.HandleKind(h) != abi.KindDirect || abi.HandleObj(h) != abi.ObjInfo {
		return nil
	}
	return infos.get(int(abi.HandleIndex(h)))
}

// FreeInfoHandle releases a user info handle. MPI_INFO_ENV and invalid
// handles are MPI_ERR_INFO.
func FreeInfoHandle(h int32) error {
	if h == abi.InfoEnv || InfoFromHandle(h) == nil {
		return &Error{Class: abi.ErrInfo, Call: "MPI_Info_free", Detail: "not a user info object"}
	}
	infos.remove(int(abi.HandleIndex(h)))
	return nil
}

// LiveInfos is the number of user info objects not yet freed.
func LiveInfos() int { return infos.live() }

// InfoEnv is MPI_INFO_ENV: what this process knows of how it was started.
func InfoEnv() *info.Info {
	if envInfo != nil {
		return envInfo
	}
	in := info.New()
	set := func(k, v string) {
		if v != "" && len(v) <= abi.MaxInfoVal {
			in.Set(k, v)
		}
	}
	if len(os.Args) > 0 {
		set("command", os.Args[0])
		set("argv", strings.Join(os.Args[1:], " "))
	}
	if st.initialized {
		set("maxprocs", strconv.Itoa(st.size))
	}
	host := st.procName
	if host == "" {
		host, _ = os.Hostname()
	}
	set("host", host)
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		set("arch", unix.ByteSliceToString(u.Machine[:]))
	}
	if wd, err := os.Getwd(); err == nil {
		set("wdir", wd)
	}
	set("thread_level", threadLevelName(st.thread))
	if st.initialized {
		envInfo = in // complete only once the world is known
	}
	return in
}

func threadLevelName(l int) string {
	switch l {
	case abi.ThreadFunneled:
		return "MPI_THREAD_FUNNELED"
	case abi.ThreadSerialized:
		return "MPI_THREAD_SERIALIZED"
	case abi.ThreadMultiple:
		return "MPI_THREAD_MULTIPLE"
	}
	return "MPI_THREAD_SINGLE"
}
