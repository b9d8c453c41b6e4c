"""The worker's side of data loading. Mirrors `torch.utils.data._utils.worker`: WorkerInfo,
get_worker_info (the running worker's info, None in the main process) and torch's numpy seed
for a worker. shadowgrad runs its workers in the main process (see ..dataloader), setting
`_worker_info` while a worker's code runs."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["WorkerInfo", "get_worker_info"]


@dataclass(frozen=True, slots=True)
class WorkerInfo:
    """Mirrors `torch.utils.data._utils.worker.WorkerInfo`."""

    id: int
    num_workers: int
    seed: int
    dataset: Any
    rng: Any = None
    worker_method: str | None = "multiprocessing"


_worker_info: WorkerInfo | None = None


def get_worker_info() -> WorkerInfo | None:
    """Mirrors `torch.utils.data.get_worker_info`: the running worker's WorkerInfo, None
    outside a worker."""
    return _worker_info


def _generate_state(base_seed: int, worker_id: int) -> list[int]:
    """torch.utils.data._utils.worker._generate_state: a worker's numpy seed (SeedSequence's
    hashing, written out)."""
    init_a, mult_a, init_b, mult_b = 0x43B0D7E5, 0x931E8875, 0x8B51F9DD, 0x58F38DED
    mix_mult_l, mix_mult_r, xshift, mask32 = 0xCA01F9DD, 0x4973F715, 16, 0xFFFFFFFF
    entropy = [worker_id, base_seed & mask32, base_seed >> 32, 0]
    hash_const_a = init_a

    def hash_(value: int) -> int:
        nonlocal hash_const_a
        value = (value ^ hash_const_a) & mask32
        hash_const_a = (hash_const_a * mult_a) & mask32
        value = (value * hash_const_a) & mask32
        return (value ^ (value >> xshift)) & mask32

    def mix(x: int, y: int) -> int:
        result = ((mix_mult_l * x) & mask32) - ((mix_mult_r * y) & mask32)
        result &= mask32
        return (result ^ (result >> xshift)) & mask32

    pool = [hash_(e) for e in entropy]
    for i_src in range(4):
        for i_dst in range(4):
            if i_src != i_dst:
                pool[i_dst] = mix(pool[i_dst], hash_(pool[i_src]))
    hash_const_b = init_b
    state = []
    for i_dst in range(4):
        data_val = (pool[i_dst] ^ hash_const_b) & mask32
        hash_const_b = (hash_const_b * mult_b) & mask32
        data_val = (data_val * hash_const_b) & mask32
        state.append((data_val ^ (data_val >> xshift)) & mask32)
    return state
