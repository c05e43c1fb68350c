package mpi

import "gompi/shmcoll"

// ShmComms lets the library's C side run the shared-memory collectives of
// every intracommunicator with a collective area, not only MPI_COMM_WORLD
// (WorldShm): Publish hands it a new communicator's group and limits once
// the group is formed; Unpublish, at MPI_Comm_free before the group's
// fence, takes it back (the group's call counter must then live in Go
// memory again: shmcoll.Group.ShareSeq). Set by the C API when it enables
// its fast paths (nil: communicators other than MPI_COMM_WORLD run their
// collectives in Go).
type ShmComms struct {
	Publish   func(h int32, g *shmcoll.Group, limits [shmKinds]int)
	Unpublish func(h int32, g *shmcoll.Group)
}

var shmComms *ShmComms

// SetShmComms installs (or, with nil, removes) the C side's hooks.
func SetShmComms(f *ShmComms) { shmComms = f }

// publishShm makes c's shared-memory group known to the C side.
func (c *Comm) publishShm() {
	if shmComms != nil && c.shm != nil && c != st.world {
		shmComms.Publish(c.Handle, c.shm, *c.shmMax)
	}
}

// unpublishShm takes c's group back from the C side (MPI_Comm_free, while
// the handle is still c's).
func (c *Comm) unpublishShm() {
	if shmComms != nil && c.shm != nil && c != st.world {
		shmComms.Unpublish(c.Handle, c.shm)
	}
}

// CommShm is the shared-memory group of the communicator behind handle h,
// nil when it has none (for the C side's waits, which finish in Go).
func CommShm(h int32) *shmcoll.Group {
	if c := CommFromHandle(h); c != nil {
		return c.shm
	}
	return nil
}
