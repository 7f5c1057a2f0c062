"""The memory budget: how much memory a command may use, and the checks that keep it there.

What grows with the work (the memo table of a count, a trace's index, the viewer's live-solve
buffer) asks `over()` every so often: the process's resident size (plus what the caller is about
to allocate) against the budget. The budget is `--max-memory SIZE`, else `SOMA_MAX_MEMORY`, else
half of the machine's physical memory.
"""
from __future__ import annotations

import os
import re

ENV = "SOMA_MAX_MEMORY"
_UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}
_SIZE = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)\s*([KMGT]?)(?:I?B)?\s*", re.IGNORECASE)


class BudgetExceeded(MemoryError):
    """Work stopped at the memory budget; the message says what reached it and what to try."""


def parse_size(text: str) -> int:
    """Bytes from '4G', '500M', '1.5g', '64MiB' or a plain number of bytes; ValueError if not."""
    m = _SIZE.fullmatch(text)
    if not m:
        raise ValueError(f"{text!r} is not a size: write a number and a unit, e.g. 4G or 500M")
    size = int(float(m.group(1)) * _UNITS[m.group(2).upper()])
    if size < 1 << 20:
        raise ValueError(f"{text!r} is too small: give at least 1M")
    return size


def describe(size: int) -> str:
    """A size for people: '1.0 GB', '512 MB'."""
    if size >= 1 << 30:
        return f"{size / (1 << 30):.1f} GB"
    return f"{size / (1 << 20):.0f} MB"


def physical_memory() -> int:
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 8 << 30


def default_budget() -> int:
    """SOMA_MAX_MEMORY if set (ValueError if it is not a size), else half the physical memory."""
    text = os.environ.get(ENV)
    if text:
        try:
            return parse_size(text)
        except ValueError as e:
            raise ValueError(f"{ENV}: {e}") from None
    return physical_memory() // 2


_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def resident() -> int:
    """The process's resident size in bytes (Linux /proc; elsewhere the peak so far)."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * _PAGE
    except OSError:
        import resource
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


class Budget:
    """A ceiling on the process's resident size."""

    def __init__(self, limit: int | None = None):
        self.limit = default_budget() if limit is None else limit

    def over(self, extra: int = 0) -> bool:
        """Would the process pass the budget with `extra` more bytes?"""
        return resident() + extra > self.limit

    def __str__(self) -> str:
        return describe(self.limit)


_current: Budget | None = None


def current() -> Budget:
    """The budget of this process: the one `use()` set, else the default."""
    global _current
    if _current is None:
        _current = Budget()
    return _current


def use(limit: int | None) -> Budget:
    """Set this process's budget (None: the default) and return it."""
    global _current
    _current = Budget(limit)
    return _current


def backstop(budget: Budget) -> None:
    """A hard ceiling a little above the budget on the process's data segment (RLIMIT_DATA), so
    that anything the checks miss ends in a MemoryError, never in the kernel's OOM killer."""
    try:
        import resource
        hard = budget.limit + max(512 << 20, budget.limit // 4)
        _, top = resource.getrlimit(resource.RLIMIT_DATA)
        if top != resource.RLIM_INFINITY:
            hard = min(hard, top)
        resource.setrlimit(resource.RLIMIT_DATA, (hard, top))
    except (ImportError, ValueError, OSError):
        pass
