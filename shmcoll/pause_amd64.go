package shmcoll

// pause is the spin-wait hint (PAUSE), as in the C side's waits: a polling
// loop then runs at the rate the other core can answer and a hypervisor
// can see a spinning vCPU.
//
//go:noescape
func pause()
