package mitm

import (
	"strconv"
	"testing"
)

// BenchmarkMintLeaf measures what the first CONNECT to a new host waits
// for: a fresh leaf key and certificate, cached.
func BenchmarkMintLeaf(b *testing.B) {
	a := openTest(b)
	i := 0
	for b.Loop() {
		if _, err := a.ServerConfig("h" + strconv.Itoa(i) + ".example"); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// BenchmarkServerConfigCached measures every later CONNECT to a host.
func BenchmarkServerConfigCached(b *testing.B) {
	a := openTest(b)
	if _, err := a.ServerConfig("example.test"); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := a.ServerConfig("example.test"); err != nil {
			b.Fatal(err)
		}
	}
}
