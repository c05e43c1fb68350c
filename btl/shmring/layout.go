package shmring

import "gompi/layout"

// Layout is what the C fast path shares with the ring: the record word's
// fields, the wrap marker, the control area and the private State it drives.
func Layout() ([]layout.Const, []layout.Struct) {
	return []layout.Const{
			{Name: "GOMPI_RING_KIND_DATA", Value: kindData, Comment: "shmring.kindData"},
			{Name: "GOMPI_RING_KIND_WRAP", Value: kindWrap, Comment: "shmring.kindWrap"},
			{Name: "GOMPI_RING_KIND_SHIFT", Value: kindShift, Comment: "shmring.kindShift"},
			{Name: "GOMPI_RING_TAG_SHIFT", Value: tagShift, Comment: "shmring.tagShift"},
			{Name: "GOMPI_RING_HEADER_SIZE", Value: HeaderSize, Comment: "shmring.HeaderSize"},
			{Name: "GOMPI_RING_ALIGN", Value: 8, Comment: "shmring.align8: records start 8-aligned"},
			{Name: "GOMPI_RING_CTL_SIZE", Value: CtlSize, Comment: "shmring.CtlSize"},
			{Name: "GOMPI_RING_VERDICT_OFF", Value: verdictOff, Comment: "shmring.verdictOff"},
			{Name: "GOMPI_RING_SLOW_AFTER", Value: slowAfter, Comment: "shmring.slowAfter"},
		}, []layout.Struct{
			layout.Of("gompi_ring_state", State{}, map[string]string{"Pos": "pos", "Cached": "cached"},
				"shmring.State: one end's private position, driven by Go and C"),
		}
}
