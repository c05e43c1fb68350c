// Package modex is the business-card exchange: every process publishes one
// packed card through the PMI key-value space, and reads its peers' cards
// when it needs to reach them.
//
// Compact keys: an entry is named by a 32-bit hash of its canonical name
// ("btl.sm.1", "hitopo.1"), registered in a Registry that refuses
// collisions, so a card carries 4 bytes of name per entry instead of a
// string. A card is one blob (entries packed as key, uvarint length, bytes),
// written as PMI-safe base64 text and split into ≤1024-character chunks.
//
// Node-level data (the same for every process of a machine, such as a
// shared-memory segment name) is published once per node by the node's
// leader, its lowest rank, under a key derived from the node id; the others
// read it through the peer's node. Node identity is a hash of the hostname
// and the kernel boot id.
//
// Round trips. Who the leader is, and which ranks share my node, needs every
// rank's node id, which only exists after the first barrier. Exchange has
// two modes, chosen from the job size alone so all ranks agree:
//
//   - fetch-all (size ≤ FetchAllMax, default 32): put card, barrier, get the
//     other N-1 cards. Each process makes N-1 gets and the PMI server answers
//     N(N-1) of them, but later lookups cost nothing.
//   - node-map (larger jobs): put card, barrier, rank 0 gets the N-1 cards
//     and publishes a run-length node map (a few bytes for block placement),
//     barrier, the others get the map (usually one chunk). Server load is
//     about 2N gets instead of N², and a peer's card is fetched lazily (one
//     get) on the first lookup: a process talking to k peers pays k gets.
//
// Either way, if some node leader has node-level data, it publishes its node
// card after learning it leads, and one more barrier makes it visible. So a
// process makes: card chunks puts (usually 1) + 1 or 2 barriers + (fetch-all:
// N-1 gets | node-map: map chunks gets, rank 0 N-1 gets) + 1 barrier and 1
// put on leaders when there is node data.
//
// Every rank must use the same options (FetchAllMax, MaxValue) and register
// the same names. An error from Exchange leaves the job's barriers out of
// step: the caller must abort the job.
package modex
