#!/usr/bin/env python3
"""Writes the hand-made seeds of fuzz_runtime_memory that random search
reaches too rarely: a virtual-memory mapping used as a copy region.  The
other seeds of tests/fuzz/corpus/fuzz_runtime_{memory,sync}/ are inputs the
targets found, kept because each reaches one entry point successfully, and
the inputs of the bugs they found.  The choices follow fuzz_runtime_memory.cpp
(MemoryFuzz's constructor and call functions), encoded with make_seeds.Seed.

    python3 tests/fuzz/make_runtime_seeds.py
"""
import pathlib

from make_seeds import Seed

CORPUS = pathlib.Path(__file__).resolve().parent / 'corpus' / 'fuzz_runtime_memory'
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


def main():
    (CORPUS / 'vmm_mapped_copy').write_bytes(mapped_page_copy())


if __name__ == '__main__':
    main()
