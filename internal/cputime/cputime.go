// Package cputime reads the clocks benchmarks and stage timings report
// beside wall time, which other load on a shared machine stretches: the
// CPU time of the calling OS thread and of the whole process, and the
// process's peak resident set size. Where the system cannot tell, the
// functions return 0 and false.
package cputime
