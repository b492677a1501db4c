package mitm

import (
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"net"
	"path/filepath"
	"slices"
	"strings"
)

// Dir is the folder of the CA for hosts inside the state directory: its
// "ca" folder for a CA without constraints (no hosts), else a folder
// inside it named after the set of hosts, so each set of intercepted
// hosts has its own constrained CA, and a client trusts only the CA of
// the hosts it is pointed at. A host that is no host name is left to Open
// to refuse.
func Dir(state string, hosts []string) string {
	base := filepath.Join(state, "ca")
	canon, err := canonicalHosts(hosts)
	if err != nil || len(canon) == 0 {
		return base
	}
	sum := sha256.Sum256([]byte(strings.Join(canon, "\n")))
	return filepath.Join(base, "hosts-"+hex.EncodeToString(sum[:6]))
}

// canonicalHosts spells each host as canonicalHost does, sorted, without
// repeats.
func canonicalHosts(hosts []string) ([]string, error) {
	out := make([]string, 0, len(hosts))
	for _, h := range hosts {
		c, err := canonicalHost(strings.TrimSpace(h))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// constrain sets a CA template's name constraints to hosts (canonical):
// the DNS names (and their subdomains) and the IP addresses among them
// are permitted, nothing else. A kind of name none of the hosts is gets a
// constraint no real name meets (the reserved .invalid domain; every IP
// address excluded), since a kind without constraints would be open.
func constrain(tmpl *x509.Certificate, hosts []string) {
	if len(hosts) == 0 {
		return
	}
	tmpl.PermittedDNSDomainsCritical = true
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			tmpl.PermittedIPRanges = append(tmpl.PermittedIPRanges, hostNet(ip))
		} else {
			tmpl.PermittedDNSDomains = append(tmpl.PermittedDNSDomains, h)
		}
	}
	if len(tmpl.PermittedDNSDomains) == 0 {
		tmpl.PermittedDNSDomains = []string{"invalid"}
	}
	if len(tmpl.PermittedIPRanges) == 0 {
		tmpl.ExcludedIPRanges = []*net.IPNet{
			{IP: net.IPv4zero.To4(), Mask: net.CIDRMask(0, 32)},
			{IP: net.IPv6zero, Mask: net.CIDRMask(0, 128)},
		}
	}
}

// hostNet is the network holding ip alone.
func hostNet(ip net.IP) *net.IPNet {
	if v4 := ip.To4(); v4 != nil {
		return &net.IPNet{IP: v4, Mask: net.CIDRMask(32, 32)}
	}
	return &net.IPNet{IP: ip, Mask: net.CIDRMask(128, 128)}
}

// permits reports whether ca's name constraints allow a leaf for host
// (canonical): always for a CA without them.
func permits(ca *x509.Certificate, host string) bool {
	if ip := net.ParseIP(host); ip != nil {
		if len(ca.PermittedIPRanges) == 0 {
			return len(ca.ExcludedIPRanges) == 0
		}
		return slices.ContainsFunc(ca.PermittedIPRanges, func(n *net.IPNet) bool { return n.Contains(ip) })
	}
	if len(ca.PermittedDNSDomains) == 0 {
		return true
	}
	return slices.ContainsFunc(ca.PermittedDNSDomains, func(d string) bool {
		return host == d || strings.HasSuffix(host, "."+d)
	})
}
