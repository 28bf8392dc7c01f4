"""Long native calls release the GIL: a pure-Python thread keeps counting during them.

A counter thread increments a counter in a Python loop and stamps the time every 256
counts. The main thread samples the counter and the clock right before and right after
each native call. While a call holds the GIL the counter thread cannot run a single
bytecode: the only counts between the two samples are those that slip in at the call's
edges, in GIL hand-overs of about one switch interval (set to 1 ms here; longer when the
machine is busy). So each call is judged by the stamps in its middle half, which a
GIL-holding call can have only when an edge hand-over outlasts a quarter of the call, and
most calls must have some. ``test_probe_sees_a_call_holding_the_gil`` runs the same probe
on calls that hold the GIL (``sum(range(n))``) and sees it. The inputs of every probed call
grow until one call lasts 20 ms, so a faster machine, or one with more cores, still gives
calls long enough to judge.
"""

import sys
import threading
import time

import numpy as np
import pytest

import gridbits
from gridbits import puyo

#: Native time to accumulate per test (several calls when one is shorter).
TOTAL = 0.2


class Counter:
    """A thread counting in a pure-Python loop while the ``with`` block runs."""

    def __init__(self):
        self.count = 0
        self.stamps = []
        self._stop = False
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self):
        n = 0
        stamps = self.stamps
        while not self._stop:
            n += 1
            self.count = n
            if not n & 255:
                stamps.append(time.perf_counter())

    def __enter__(self):
        self._old_interval = sys.getswitchinterval()
        sys.setswitchinterval(0.001)
        self._thread.start()
        while self.count < 1000:  # running
            time.sleep(0.001)
        return self

    def __exit__(self, *exc):
        self._stop = True
        self._thread.join()
        sys.setswitchinterval(self._old_interval)


#: Stamps (of 256 counts) in the middle half of a call that show the counter ran there.
MIDDLE_STAMPS = 8


def probe(call, total=TOTAL, min_calls=8):
    """Run ``call()`` until ``total`` seconds were spent in it, and at least ``min_calls``
    times: the counts made during the calls, the number of calls during whose middle half
    the counter thread ran, the number of calls and their mean duration."""
    counted = ran = calls = 0
    spent = 0.0
    with Counter() as counter:
        while spent < total or calls < min_calls:
            t0 = time.perf_counter()
            c0 = counter.count
            call()
            c1 = counter.count
            t1 = time.perf_counter()
            counted += c1 - c0
            quarter = (t1 - t0) / 4
            middle = 0
            # Stamps are appended in time order: scan back from the newest.
            for stamp in reversed(counter.stamps):
                if stamp < t0:
                    break
                middle += t0 + quarter < stamp < t1 - quarter
            ran += middle >= MIDDLE_STAMPS
            spent += t1 - t0
            calls += 1
    return counted, ran, calls, spent / calls


#: Seconds a probed call should last at least: its inputs grow until one does.
LONG = 0.02


def long_call(make, scale=1, most=64):
    """``make(scale)``, the scale doubled (up to ``most``) until one call lasts ``LONG``:
    on a faster machine, or one with more cores, the inputs grow instead of the calls
    getting too short for the probe's edges."""
    while True:
        call = make(scale)
        start = time.perf_counter()
        call()
        if time.perf_counter() - start >= LONG or scale >= most:
            return call
        scale *= 2


def assert_counter_ran(call, min_calls=8):
    counted, ran, calls, per_call = probe(call, min_calls=min_calls)
    if per_call < 0.005:
        pytest.skip(f"calls of {per_call * 1000:.1f} ms: too short for the probe's edges")
    assert counted > 1000, f"the counter thread counted {counted} during {calls} calls"
    assert 2 * ran > calls, (
        f"the counter thread ran in the middle of only {ran} of {calls} calls"
        f" ({per_call * 1000:.0f} ms each; {counted} counts in all): the GIL was held"
    )


def noise(seed, rows, density):
    """A random 4096-wide bool image of ``rows`` rows."""
    return np.random.default_rng(seed).random((rows, 4096)) < density


def test_label_releases_the_gil():
    make = lambda k: (lambda img=noise(20, 2048 * k, 0.5): gridbits.label(img))
    assert_counter_ran(long_call(make, 2, 8))


def test_label_stats_releases_the_gil():
    make = lambda k: (lambda img=noise(20, 2048 * k, 0.5): gridbits.label_stats(img, labels=False))
    assert_counter_ran(long_call(make, 2, 8))


def test_distance_releases_the_gil():
    make = lambda k: (lambda free=noise(21, 2048 * k, 0.7): gridbits.distance(free, [(0, 0)]))
    assert_counter_ran(long_call(make, 2, 8), min_calls=3)


def test_puyo_simulate_many_releases_the_gil():
    def make(k):
        fields = np.random.default_rng(22).integers(0, 6, (100000 * k, 13, 6), dtype=np.uint8)
        return lambda: puyo.simulate_many(fields)

    assert_counter_ran(long_call(make, 2, 32))


def test_probe_sees_a_call_holding_the_gil():
    """The control: ``sum`` over a range runs in C without ever releasing the GIL. The
    counter may slip in at the edges of a call, only rarely into its middle half."""
    call = long_call(lambda k: (lambda: sum(range(2_000_000 * k))), 2, 64)
    counted, ran, calls, per_call = probe(call, total=0.4)
    assert per_call > 0.01
    assert 2 * ran < calls
    with pytest.raises(AssertionError, match="the GIL was held"):
        assert_counter_ran(call)
