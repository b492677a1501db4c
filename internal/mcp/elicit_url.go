package mcp

import (
	"net/netip"
	"net/url"
	"strings"
	"unicode/utf8"
)

// URLInfo is what a url-mode elicitation's url says about where it sends
// the user (spec 3.7: clients show the host and warn on suspicious urls).
type URLInfo struct {
	// Host is the url's host name, without port or IPv6 brackets; empty
	// when the url does not parse or has no host.
	Host string
	// Invalid reports that the url does not parse as an absolute url with
	// a host.
	Invalid bool
	// IPLiteral reports a host that is an IP address rather than a name.
	IPLiteral bool
	// NotHTTPS reports a scheme other than https.
	NotHTTPS bool
	// Userinfo reports credentials or a user name before the host.
	Userinfo bool
	// IDN reports a host with a punycode label (xn--) or non-ASCII letters.
	IDN bool
}

// InspectURL reads a url-mode elicitation's url. It never fetches it.
func InspectURL(raw string) URLInfo {
	var info URLInfo
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Scheme == "" {
		info.Invalid = true
		// A url that does not parse may still show its scheme.
		info.NotHTTPS = !strings.HasPrefix(strings.ToLower(raw), "https://")
		return info
	}
	info.Host = u.Hostname()
	info.NotHTTPS = !strings.EqualFold(u.Scheme, "https")
	info.Userinfo = u.User != nil
	if _, err := netip.ParseAddr(info.Host); err == nil || numericHost(info.Host) {
		info.IPLiteral = true
	}
	if !utf8.ValidString(info.Host) || hasNonASCII(info.Host) {
		info.IDN = true
	}
	for label := range strings.SplitSeq(info.Host, ".") {
		if len(label) >= 4 && strings.EqualFold(label[:4], "xn--") {
			info.IDN = true
		}
	}
	return info
}

func hasNonASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return true
		}
	}
	return false
}

// numericHost reports a host that browsers read as an IPv4 address although
// netip does not: decimal, octal or hex parts such as 2130706433 or
// 0x7f.1.
func numericHost(h string) bool {
	if h == "" {
		return false
	}
	for label := range strings.SplitSeq(h, ".") {
		if label == "" {
			return false
		}
		hex := len(label) > 2 && (label[:2] == "0x" || label[:2] == "0X")
		digits := label
		if hex {
			digits = label[2:]
		}
		for i := 0; i < len(digits); i++ {
			c := digits[i]
			isDigit := c >= '0' && c <= '9'
			isHex := hex && (c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F')
			if !isDigit && !isHex {
				return false
			}
		}
	}
	return true
}
