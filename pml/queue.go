package pml

// reqQueue is an intrusive FIFO of posted receives.
type reqQueue struct{ head, tail *Request }

func (q *reqQueue) push(r *Request) {
	r.next, r.prev = nil, q.tail
	if q.tail != nil {
		q.tail.next = r
	} else {
		q.head = r
	}
	q.tail = r
}

func (q *reqQueue) remove(r *Request) {
	if r.prev != nil {
		r.prev.next = r.next
	} else {
		q.head = r.next
	}
	if r.next != nil {
		r.next.prev = r.prev
	} else {
		q.tail = r.prev
	}
	r.next, r.prev = nil, nil
}

// firstTag returns the first request whose tag accepts tag.
func (q *reqQueue) firstTag(tag int32) *Request {
	for r := q.head; r != nil; r = r.next {
		if r.Tag == AnyTag || int32(r.Tag) == tag {
			return r
		}
	}
	return nil
}

// unexp is a message that arrived before its receive was posted (or ahead of
// its sequence number).
type unexp struct {
	hdr      matchHdr
	rndv     bool
	size     int // message bytes
	addr     uint64
	key      uint64 // rendezvous: memory key of a network read
	data     []byte // eager payload (owned copy)
	srcWorld int
	arrival  uint64
	prev     *unexp
	next     *unexp
}

type unexpQueue struct{ head, tail *unexp }

func (q *unexpQueue) push(u *unexp) {
	u.next, u.prev = nil, q.tail
	if q.tail != nil {
		q.tail.next = u
	} else {
		q.head = u
	}
	q.tail = u
}

func (q *unexpQueue) remove(u *unexp) {
	if u.prev != nil {
		u.prev.next = u.next
	} else {
		q.head = u.next
	}
	if u.next != nil {
		u.next.prev = u.prev
	} else {
		q.tail = u.prev
	}
	u.next, u.prev = nil, nil
}

func (q *unexpQueue) firstTag(tag int) *unexp {
	for u := q.head; u != nil; u = u.next {
		if tag == AnyTag || int(u.hdr.tag) == tag {
			return u
		}
	}
	return nil
}

// insertBySeq keeps held out-of-order fragments sorted by distance from next.
func (q *unexpQueue) insertBySeq(u *unexp, next uint16) {
	d := u.hdr.seq - next
	for x := q.head; x != nil; x = x.next {
		if x.hdr.seq-next > d {
			u.prev, u.next = x.prev, x
			if x.prev != nil {
				x.prev.next = u
			} else {
				q.head = u
			}
			x.prev = u
			return
		}
	}
	q.push(u)
}
