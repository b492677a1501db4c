//go:build !unix

package capture

// discardFresh closes the file this run created, then removes it. Windows
// refuses to remove a file that is open (a sharing violation), and so
// fails the removal, leaving the file whole, if another process opened it
// in between; elsewhere there is no lock to hold until it is gone.
func discardFresh(f *File) error {
	fi, err := f.Stat()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return removeSame(f.path, fi)
}
