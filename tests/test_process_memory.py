"""What a process keeps in its own memory (common/memory.py): bounded, and for a while only."""

from common.memory import ProcessMemory


def test_a_kept_value_is_read_back_until_its_time_is_up(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr("common.memory.time.monotonic", lambda: clock[0])
    memory = ProcessMemory(size=4, seconds=60)
    memory.set("ranks:12", [3, 2, 0])

    clock[0] = 159.0
    assert memory.get("ranks:12") == [3, 2, 0]
    clock[0] = 161.0
    assert memory.get("ranks:12") is None


def test_the_least_recently_read_value_goes_first_when_memory_is_full():
    memory = ProcessMemory(size=2, seconds=60)
    memory.set("a", 1)
    memory.set("b", 2)
    memory.get("a")  # "b" is now the least recently used
    memory.set("c", 3)

    assert (memory.get("a"), memory.get("b"), memory.get("c")) == (1, None, 3)
