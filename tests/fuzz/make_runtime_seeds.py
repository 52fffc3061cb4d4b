#!/usr/bin/env python3
"""Writes the hand-made seeds of fuzz_runtime_memory that random search
reaches too rarely: a virtual-memory mapping used as a copy region; and those
of fuzz_runtime_capture: a cross-stream capture (fork and join through Ex
events) replayed and inspected, the calls a running capture refuses, and
captures that conflict or end unjoined.  The other seeds of
tests/fuzz/corpus/fuzz_runtime_{memory,sync,capture}/ are inputs the targets
found, kept because each reaches one entry point successfully, and the inputs
of the bugs they found.  The choices follow fuzz_runtime_memory.cpp
(MemoryFuzz's constructor and call functions) and fuzz_runtime_capture.cpp
(CaptureFuzz's call functions), encoded with make_seeds.Seed.

    python3 tests/fuzz/make_runtime_seeds.py
"""
import pathlib

from make_seeds import Seed

CORPUS = pathlib.Path(__file__).resolve().parent / 'corpus' / 'fuzz_runtime_memory'
CAPTURE_CORPUS = CORPUS.parent / 'fuzz_runtime_capture'
ACL_MEM_NORMAL = 12
PHYSICAL, RESERVE, MAP, SET_ACCESS, UNMAP, MEMCPY = 15, 14, 16, 17, 18, 0
MAPPED_REGION, PINNED_REGION = 3, 4
HOST_TO_DEVICE = 1


def one_page(seed):
    """decode_vmm_size: whole pages, 1 x 4096."""
    seed.bit(True)
    seed.byte(0)
    seed.bit(True)


def mapped_page_copy():
    seed = Seed()
    seed.byte(6 - 1)                       # six calls
    seed.byte(0)                           # fill seed of the regions
    for _ in range(3):
        seed.byte(1)                       # device region sizes
    seed.byte(PHYSICAL)
    one_page(seed)
    seed.bit(True)                         # handleType NONE
    seed.bit(True)                         # allocationType PINNED
    seed.byte(ACL_MEM_NORMAL)              # memAttr
    seed.bit(True)                         # location: device
    seed.bit(True)                         # location id 0
    seed.rare()                            # reserve 0
    seed.rare()                            # flags 0
    seed.byte(RESERVE)
    one_page(seed)
    seed.bit(True)                         # alignment 0
    seed.bit(True)                         # no expected address
    seed.rare()                            # flags 0
    seed.rare()                            # virPtr given
    seed.byte(MAP)
    seed.bit(True)                         # at the reservation
    seed.bit(True)                         # offset 0 into it
    seed.bit(True)                         # the reservation's size
    seed.bit(True)                         # physical offset 0
    seed.bit(True)                         # the physical handle
    seed.bit(True)                         # aclrtMapMem (accessible)
    seed.rare()                            # flags 0
    seed.byte(MEMCPY)
    seed.byte(MAPPED_REGION)
    seed.byte(0)                           # offset 0
    seed.byte(PINNED_REGION)
    seed.byte(0)                           # offset 0
    seed.byte(HOST_TO_DEVICE)
    seed.byte(3)                           # count: the whole mapping
    seed.bit(True)                         # destMax = count
    seed.byte(SET_ACCESS)
    seed.bit(True)                         # the mapping
    seed.bit(True)                         # its size
    for _ in range(2):
        seed.bit(True)                     # READWRITE
        seed.bit(True)                     # device
        seed.bit(True)                     # id 0
    seed.byte(1)                           # one descriptor
    seed.byte(UNMAP)
    seed.bit(True)                         # the mapping
    return bytes(reversed(seed.stream))


# fuzz_runtime_capture: CaptureFuzz::call_next's choices, capture modes,
# copy regions (decode_region) and copy kinds.
(BEGIN, END, EXCHANGE, MEMCPY_ASYNC, MEMSET_ASYNC, RECORD, WAIT, STREAM_CONTROL, SYNC_COPY, EXECUTE, EXECUTE_TOO,
 DESTROY, CALLBACKS, GET_STREAMS, NAMES, COUNTING_TASK, OTHER_THREAD, DEVICE_SYNC) = (
    0, 2, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 20, 21)
GLOBAL, THREAD_LOCAL, RELAXED = 0, 1, 2
DEVICE_A, DEVICE_B, PINNED, PAGEABLE = 0, 1, 2, 4
H2D, D2H, D2D = 1, 2, 3


class CaptureSeed(Seed):
    """The calls of one fuzz_runtime_capture input; the first byte read is
    the number of calls, filled in by encode()."""

    def __init__(self):
        super().__init__()
        self.calls = 0

    def call(self, choice):
        self.calls += 1
        self.byte(choice)

    def region(self, which):
        self.byte(which)
        self.bit(True)                     # offset 0

    def begin(self, stream, mode):
        self.call(BEGIN)
        self.byte(stream)
        self.byte(mode)

    def end_first_capture(self):
        self.call(END)
        self.bit(True)                     # a running capture's origin
        self.byte(0)                       # the first one
        self.rare()                        # on this thread
        self.rare()                        # modelRI given

    def memcpy(self, dst, src, kind, stream):
        self.call(MEMCPY_ASYNC)
        self.region(dst)
        self.region(src)
        self.rare()                        # a count that fits
        self.bit(False)                    # the whole region
        self.bit(False)                    # destMax = count
        self.byte(kind)
        self.byte(stream)

    def memset(self, dst, value, stream):
        self.call(MEMSET_ASYNC)
        self.region(dst)
        self.bit(False)                    # the whole region
        self.rare()                        # maxCount = the region
        self.bit(True)
        self.byte(value)
        self.byte(stream)

    def record(self, event, stream):
        self.call(RECORD)
        self.byte(event)
        self.byte(stream)

    def wait(self, stream, event):
        self.call(WAIT)
        self.byte(stream)
        self.byte(event)
        self.bit(True)                     # aclrtStreamWaitEvent

    def sync_copy(self):
        self.call(SYNC_COPY)
        self.region(DEVICE_A)
        self.region(PAGEABLE)
        self.byte(64)                      # bytes
        self.byte(H2D)
        self.byte(0)                       # aclrtMemcpy

    def exchange(self, mode):
        self.call(EXCHANGE)
        self.byte(mode)
        self.rare()                        # mode given

    def encode(self):
        return bytes(reversed([self.calls - 1] + self.stream))


def fork_join_replay():
    """Stream 0 forks to stream 1 and joins back, through Ex events 0 and 1;
    the model is replayed on streams 2 and 0, inspected, named, given a
    destroy callback and destroyed."""
    seed = CaptureSeed()
    seed.begin(0, GLOBAL)
    seed.memset(DEVICE_A, 0x5a, 0)
    seed.record(0, 0)
    seed.wait(1, 0)
    seed.memcpy(DEVICE_B, DEVICE_A, D2D, 1)
    seed.call(COUNTING_TASK)
    seed.byte(1)                           # on stream 1
    seed.record(1, 1)
    seed.wait(0, 1)
    seed.memcpy(PINNED, DEVICE_B, D2H, 0)
    seed.end_first_capture()
    for choice, stream in ((EXECUTE, 2), (EXECUTE_TOO, 0)):
        seed.call(choice)
        seed.byte(0)                       # the model
        seed.byte(stream)
    seed.call(GET_STREAMS)
    seed.byte(0)
    seed.byte(1)                           # an array of one: 107039
    seed.bit(False)                        # the array given
    seed.rare()                            # numStreams given
    seed.call(NAMES)
    seed.byte(0)
    seed.byte(0)                           # aclmdlRISetName
    seed.byte(3)
    for c in b'fwd':
        seed.byte(c - 1)
    seed.rare()                            # name given
    seed.call(NAMES)
    seed.byte(0)
    seed.byte(1)                           # aclmdlRIGetName
    seed.byte(16)                          # maxLen
    seed.rare()                            # buffer given
    seed.call(CALLBACKS)
    seed.byte(0)
    seed.byte(0)                           # the first callback
    seed.bit(True)                         # register
    seed.call(DESTROY)
    seed.byte(0)
    return seed.encode()


def refusals_during_capture():
    """In a GLOBAL capture: a synchronous copy (107030), a sync of the
    captured stream and of the device (107027), a pageable asynchronous copy
    on the captured stream (107000); the thread relaxes and copies; another
    thread ends the capture (107038)."""
    seed = CaptureSeed()
    seed.begin(0, GLOBAL)
    seed.sync_copy()
    seed.call(STREAM_CONTROL)
    seed.byte(0)                           # aclrtSynchronizeStream
    seed.byte(0)
    seed.call(DEVICE_SYNC)
    seed.bit(False)                        # aclrtSynchronizeDevice
    seed.exchange(RELAXED)
    seed.sync_copy()
    seed.memcpy(DEVICE_A, PAGEABLE, H2D, 0)
    seed.call(OTHER_THREAD)
    seed.byte(0)                           # aclmdlRICaptureEnd there
    seed.byte(0)                           # of the first capture
    seed.rare()                            # modelRI given
    seed.exchange(GLOBAL)
    return seed.encode()


def conflicting_and_unjoined_captures():
    """An event of one capture waited for in another invalidates both
    (107032, then 507903 at their ends); a stream that joins a capture and
    never returns fails its end (107025)."""
    seed = CaptureSeed()
    seed.begin(0, RELAXED)
    seed.begin(1, RELAXED)
    seed.record(0, 0)
    seed.wait(1, 0)
    seed.end_first_capture()
    seed.end_first_capture()
    seed.begin(2, THREAD_LOCAL)
    seed.record(1, 2)
    seed.wait(0, 1)
    seed.memset(DEVICE_A, 1, 0)
    seed.end_first_capture()
    return seed.encode()


def main():
    (CORPUS / 'vmm_mapped_copy').write_bytes(mapped_page_copy())
    CAPTURE_CORPUS.mkdir(exist_ok=True)
    (CAPTURE_CORPUS / 'fork_join_replay').write_bytes(fork_join_replay())
    (CAPTURE_CORPUS / 'refusals_during_capture').write_bytes(refusals_during_capture())
    (CAPTURE_CORPUS / 'conflicting_and_unjoined_captures').write_bytes(conflicting_and_unjoined_captures())


if __name__ == '__main__':
    main()
