package capture

import "os"

// WriterAlive reports whether another open file holds the lock of the
// capture file at path, that is whether an mcptrail (CreateFile) is still
// writing it; known is false where the platform has no lock to probe
// (neither Unix nor Windows), or when path cannot be opened, and the
// caller must then judge by other means (the file no longer growing).
//
// The probe takes a shared lock for an instant: a writer starting on the
// same path at that very moment may be refused with ErrLocked.
func WriterAlive(path string) (alive, known bool) {
	if !lockProbed {
		return false, false
	}
	f, err := openNoFollow(path, os.O_RDONLY, 0)
	if err != nil {
		return false, false
	}
	defer f.Close()
	return probeLock(f), true
}
