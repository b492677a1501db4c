package admit

import (
	"net"
	"strconv"
	"strings"
)

// ListenerHosts lists the Host values that name a listener at addr, for
// Options.Hosts: its address; the localhost forms when it is loopback or
// unspecified; every interface's address when it is unspecified; then
// extra (the user's --allow-host), in lower case.
func ListenerHosts(addr net.Addr, extra []string) []string {
	ta, ok := addr.(*net.TCPAddr)
	if !ok {
		return append([]string{addr.String()}, lower(extra)...)
	}
	port := strconv.Itoa(ta.Port)
	out := []string{net.JoinHostPort(ta.IP.String(), port)}
	if ta.IP.IsLoopback() || ta.IP.IsUnspecified() {
		for _, h := range []string{"localhost", "127.0.0.1", "::1"} {
			out = append(out, net.JoinHostPort(h, port))
		}
	}
	if ta.IP.IsUnspecified() {
		if addrs, err := net.InterfaceAddrs(); err == nil {
			for _, a := range addrs {
				if n, ok := a.(*net.IPNet); ok {
					out = append(out, net.JoinHostPort(n.IP.String(), port))
				}
			}
		}
	}
	return append(out, lower(extra)...)
}

func lower(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = strings.ToLower(s)
	}
	return out
}

// Unspecified reports whether the host of a listen address (host:port)
// is empty or an unspecified IP (0.0.0.0, ::): a listener on every
// interface.
func Unspecified(host string) bool {
	if host == "" {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsUnspecified()
}
