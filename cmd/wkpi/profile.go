package main

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profiles are the -cpuprofile and -memprofile files of a command, for
// `go tool pprof`: the CPU profile covers the command from its dataset
// read to its end, the memory profile (allocations and what is live) is
// written at the end. A command starts them after parseDataset (which
// `wkpi slurm` also calls, to check flags, and must not profile) and
// defers stop.
type profiles struct {
	cpu, mem string
	cpuFile  *os.File
	started  bool
}

// start begins the CPU profile, when one is asked for.
func (p *profiles) start() error {
	if p.started {
		return nil
	}
	p.started = true
	if p.cpu == "" {
		return nil
	}
	f, err := os.Create(p.cpu)
	if err != nil {
		return fmt.Errorf("-cpuprofile: %w", err)
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return fmt.Errorf("-cpuprofile: %w", err)
	}
	p.cpuFile = f
	return nil
}

// stop ends the CPU profile and writes the memory profile, if start
// ran; an error joins *err, the command's own.
func (p *profiles) stop(err *error) {
	if !p.started {
		return
	}
	p.started = false
	if p.cpuFile != nil {
		pprof.StopCPUProfile()
		if e := p.cpuFile.Close(); e != nil {
			*err = errors.Join(*err, fmt.Errorf("-cpuprofile: %w", e))
		}
		p.cpuFile = nil
	}
	if p.mem == "" {
		return
	}
	f, e := os.Create(p.mem)
	if e != nil {
		*err = errors.Join(*err, fmt.Errorf("-memprofile: %w", e))
		return
	}
	runtime.GC() // what is live at the end, not the garbage
	if e := pprof.Lookup("allocs").WriteTo(f, 0); e != nil {
		*err = errors.Join(*err, fmt.Errorf("-memprofile: %w", e))
	}
	if e := f.Close(); e != nil {
		*err = errors.Join(*err, fmt.Errorf("-memprofile: %w", e))
	}
}
