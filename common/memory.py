"""What a process keeps in its own memory, beside the shared cache: small values that every page
reads, under keys that change whenever they do (a publication's rank table, the lists' latest
publications under the cache's generation token). Reading them from the shared cache meant a
round trip and an unpickling on every page."""

import threading
import time
from collections import OrderedDict


class ProcessMemory:
    """At most ``size`` values, each for at most ``seconds``, the least recently used dropped."""

    def __init__(self, size: int, seconds: float):
        self.size, self.seconds = size, seconds
        self.kept: OrderedDict = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key):
        with self.lock:
            found = self.kept.get(key)
            if found is None or found[0] < time.monotonic():
                return None
            self.kept.move_to_end(key)
            return found[1]

    def set(self, key, value):
        with self.lock:
            self.kept[key] = (time.monotonic() + self.seconds, value)
            self.kept.move_to_end(key)
            while len(self.kept) > self.size:
                self.kept.popitem(last=False)

    def clear(self):
        with self.lock:
            self.kept.clear()


MEMORIES: list[ProcessMemory] = []


def process_memory(size: int, seconds: float) -> ProcessMemory:
    memory = ProcessMemory(size, seconds)
    MEMORIES.append(memory)
    return memory


def forget_everything():
    """Empty every process memory (the tests do, with the shared cache)."""
    for memory in MEMORIES:
        memory.clear()
