package protocol

import (
	"bufio"
	"io"
	"sync"
)

// maxPendingInfo bounds the info lines waiting for a slow reader: beyond
// it the oldest waiting info line is dropped, so a GUI that stops reading
// never holds up the search, and memory stays bounded.
const maxPendingInfo = 64

// outLine is one line waiting to be written.
type outLine struct {
	text string
	info bool // may be dropped when too many wait
}

// output writes protocol lines on its own goroutine, in the order they
// were put; put never waits for the writer.
type output struct {
	mu      sync.Mutex
	cond    *sync.Cond
	q       []outLine
	infos   int // info lines in q
	dropped int
	closed  bool
	done    chan struct{}
	w       *bufio.Writer
}

func newOutput(w io.Writer) *output {
	o := &output{w: bufio.NewWriter(w), done: make(chan struct{})}
	o.cond = sync.NewCond(&o.mu)
	go o.loop()
	return o
}

// put queues a line.
func (o *output) put(text string, info bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return
	}
	if info && o.infos >= maxPendingInfo {
		for i, l := range o.q {
			if l.info {
				o.q = append(o.q[:i], o.q[i+1:]...)
				o.infos--
				o.dropped++
				break
			}
		}
	}
	o.q = append(o.q, outLine{text, info})
	if info {
		o.infos++
	}
	o.cond.Signal()
}

// loop writes queued lines until close, flushing whenever the queue runs
// dry.
func (o *output) loop() {
	defer close(o.done)
	for {
		o.mu.Lock()
		for len(o.q) == 0 && !o.closed {
			o.cond.Wait()
		}
		batch := o.q
		o.q, o.infos = nil, 0
		closed := o.closed
		o.mu.Unlock()
		for _, l := range batch {
			o.w.WriteString(l.text)
			o.w.WriteByte('\n')
		}
		o.w.Flush()
		if closed && len(batch) == 0 {
			return
		}
	}
}

// close writes what is queued and stops the writer.
func (o *output) close() {
	o.mu.Lock()
	o.closed = true
	o.cond.Signal()
	o.mu.Unlock()
	<-o.done
}
