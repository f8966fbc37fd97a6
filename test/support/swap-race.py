# Swaps two directory entries atomically and continuously (renameat2 RENAME_EXCHANGE), as an attacker with write
# access to the upload folder would, until killed or after a bounded time. Usage: swap-race.py A B [seconds]
import ctypes, os, sys, time

RENAME_EXCHANGE = 2
AT_FDCWD = -100
libc = ctypes.CDLL(None, use_errno=True)
a, b = (os.fsencode(p) for p in sys.argv[1:3])
limit = time.monotonic() + float(sys.argv[3] if len(sys.argv) > 3 else 120)
print('swapping', flush=True)
swaps = 0
while time.monotonic() < limit:
    if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        sys.exit('renameat2: ' + os.strerror(ctypes.get_errno()))
    swaps += 1
# An even number of swaps leaves the entries as they were.
if swaps % 2:
    libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE)
