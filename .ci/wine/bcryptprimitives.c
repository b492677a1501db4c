/* A stand-in for Windows' bcryptprimitives.dll, for running Go's Windows test
 * binaries under Debian's Wine 8, which lacks it. Go 1.24+ reads its random
 * bytes from ProcessPrng there; this one fills the buffer with RtlGenRandom
 * (advapi32's SystemFunction036), which Wine has. Built by .ci/run with
 * mingw-w64 and placed beside the test binaries; never shipped. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T size)
{
	while (size > 0) {
		ULONG n = size > 0x40000000 ? 0x40000000 : (ULONG)size;
		if (!SystemFunction036(data, n))
			return FALSE;
		data += n;
		size -= n;
	}
	return TRUE;
}
