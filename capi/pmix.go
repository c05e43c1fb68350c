package main

// PMIx support (srun --mpi=pmix): libpmix is loaded only when a process
// finds a PMIx server's environment.
import _ "gompi/pmi/pmix"
