package shmcoll

import "gompi/layout"

// SharedLayout is what the C collectives (capi/shmcoll.h) share with an area: the
// counter lines, the slot geometry and the offsets on a counter line.
func SharedLayout() ([]layout.Const, []layout.Struct) {
	return []layout.Const{
		{Name: "GOMPI_SHM_LINE", Value: lineSize, Comment: "shmcoll.lineSize: one counter line per process"},
		{Name: "GOMPI_SHM_MAX_GROUP", Value: MaxGroup, Comment: "shmcoll.MaxGroup"},
		{Name: "GOMPI_SHM_INLINE", Value: InlineMax, Comment: "shmcoll.InlineMax"},
		{Name: "GOMPI_SHM_INLINE_OFF", Value: inlineOffset, Comment: "shmcoll.inlineOffset"},
		{Name: "GOMPI_SHM_TINY", Value: TinyMax, Comment: "shmcoll.TinyMax"},
		{Name: "GOMPI_SHM_TINY_DEPTH", Value: TinyDepth, Comment: "shmcoll.TinyDepth"},
		{Name: "GOMPI_SHM_DEPTH", Value: Depth, Comment: "shmcoll.Depth"},
		{Name: "GOMPI_SHM_BIG_DEPTH", Value: BigDepth, Comment: "shmcoll.BigDepth"},
		{Name: "GOMPI_SHM_CPU_OFF", Value: CPUHintOffset, Comment: "shmcoll.CPUHintOffset"},
		{Name: "GOMPI_SHM_DONE_OFF", Value: DoneOffset, Comment: "shmcoll.DoneOffset"},
	}, nil
}
